// Choices every running subcommand (run, bench) makes the same way: threads,
// engine and placement, the sources.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "engines/engine_choice.h"
#include "engines/run.h"
#include "engines/vertex_order.h"
#include "graph/graph.h"

namespace tg::cli {

// The choice itself is the library's (engines/engine_choice.h), shared with
// the API; these names keep the subcommands' spelling cli::EngineChoice valid.
using tg::ChosenEngine;
using tg::EngineChoice;

struct EngineOptions {
  EngineChoice engine = EngineChoice::kAuto;
  std::string gpu_mem;  // budget, e.g. "4G"; empty: free memory minus a margin
  int threads = 0;      // CPU threads; 0: all cores
  GpuOptions gpu;       // placement, device, subgraph/stream settings
  HybridOptions hybrid;  // --engine hybrid

  void add_to(CLI::App& command);
  GpuOptions gpu_options() const;  // gpu with the budget of --gpu-mem
};

void apply_threads(int threads);
// --delegate-threshold TH for run, bench and plan; needs --gpus.
// --push-only (AlgorithmOptions::push_only), for run, bench and plan.
void add_push_only(CLI::App& command, bool& push_only);
// --source-blocks (GpuOptions::source_blocks), for run and bench.
void add_source_blocks(CLI::App& command, int& blocks);
void add_delegate_threshold(CLI::App& command, CLI::Option* gpus, std::optional<uint64_t>& threshold);
// --vertex-order (engines/vertex_order.h), for run and bench.
void add_vertex_order(CLI::App& command, VertexOrder& order);
// A usage error where a renumbered run cannot be had: ranks of mpirun and
// --host-mem read the file's own lists in place, and a checkpoint would hold
// the renumbered ids.
void check_vertex_order(VertexOrder order, bool distributed, bool host_mem, bool checkpoints);
// --engine gpu where none is usable is an error; auto falls back to the CPU.
ChosenEngine choose_engine(const EngineOptions& options);
RunOutput run_on_engine(const AnyGraph& graph, const RunRequest& request, const ChosenEngine& choice,
                        const EngineOptions& options);

// The sources of a run, as given on the command line: --source S (in the
// file's numbering), or --sources K picked at random as bench picks them
// (GAP's rule: vertices with out-edges), or by default vertex 0 when it has
// out-edges, else the first vertex that has. Empty for algorithms without
// a source.
struct SourceOptions {
  std::string source;
  int count = 0;  // --sources K
  uint64_t seed = 27491095;

  void add_to(CLI::App& command, bool with_count);
  Sources resolve(const AnyGraph& graph, const AlgorithmInfo& algorithm) const;
};

// The internal id of a source given in the file's numbering.
uint64_t resolve_source(const AnyGraph& graph, const std::string& source_text);

std::string command_line_of_current_process();

}  // namespace tg::cli
