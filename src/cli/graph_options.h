// Options shared by every subcommand that loads a graph: where it comes from
// and how it is transformed on the way in.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "formats/load_graph.h"

namespace tg::cli {

struct GraphOptions {
  std::string graph;      // PATH, kron:S or urand:S
  bool undirected = false;
  bool simplify = false;
  std::string weights;    // "LOW:HIGH", empty for none
  uint64_t weight_seed = 27491095;
  bool ids64 = false;
  bool lists_by_weight = false;
  int edge_factor = 16;
  uint64_t seed = 27491095;
  bool quiet = false;

  // Registers -g/--graph (kRequired, kOptional: bench's graphs may also be
  // positional; kNone: the command takes the graph as its positional
  // argument alone, so that two graphs cannot be named), --undirected, ...
  enum class GraphFlag { kRequired, kOptional, kNone };
  void add_to(CLI::App& command, GraphFlag flag = GraphFlag::kRequired);
  LoadOptions load_options(bool in_edges) const;
};

// Whether progress lines may be drawn: stderr is a terminal and not --quiet.
bool show_progress(bool quiet);

}  // namespace tg::cli
