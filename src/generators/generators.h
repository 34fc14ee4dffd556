// Synthetic graphs usable wherever a file is: "kron:22" (Kronecker/RMAT with
// the Graph500 parameters) and "urand:20" (uniform random, GAP's -u).
// Deterministic for a seed, whatever the number of threads.
#pragma once

#include <cstdint>
#include <string>

#include "graph/edge_list.h"

namespace tg {

struct GeneratorSpec {
  enum class Kind { kKronecker, kUniform };
  Kind kind = Kind::kKronecker;
  int scale = 0;           // 2^scale vertices
  int edge_factor = 16;    // edges generated = edge_factor * 2^scale
  uint64_t seed = 27491095;
  std::string text;        // as given, for summaries
};

// True for "kron:..." and "urand:...".
bool is_generator_spec(const std::string& text);
// Parses "kron:S" or "urand:S"; the optional suffixes ":ef=N" and ":seed=N"
// override the edge factor and seed given here. Throws a usage error
// (tg::ErrorKind::kUsage: the spec is an option value) naming the bad field.
GeneratorSpec parse_generator_spec(const std::string& text, int edge_factor = 16, uint64_t seed = 27491095);

// The generated edges are undirected (EdgeList::directed = false), as in
// Graph500 and GAP; the builder adds the reverse edges.
EdgeList generate(const GeneratorSpec& spec);
// The same edges, made a block at a time on demand (block b of generate's
// list is [b * block_size, ...)), for building a graph without holding its
// edge list (graph/builder.h).
EdgeBlocks generated_edges(const GeneratorSpec& spec);

// The seeded bijection of [0, 2^scale) that kron applies to its ids
// (exposed for tests).
uint64_t kron_permute(uint64_t id, int scale, uint64_t seed);

}  // namespace tg
