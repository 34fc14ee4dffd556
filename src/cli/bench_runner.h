// The matrix of `tiergraph bench`: graphs x algorithms x placements x sources,
// one row per run. A GPU placement places each graph once for all its runs
// (run_batch_on_gpu); a placement that cannot run (over the budget, no GPU)
// becomes rows carrying its one-line reason, and the matrix goes on.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/algorithm.h"
#include "cli/bench_placements.h"
#include "cli/graph_options.h"
#include "engines/placement.h"
#include "engines/run.h"
#include "engines/vertex_order.h"
#include "graph/source_picker.h"

namespace tg::cli {

enum class VerifyMode { kAll, kFirst, kNone };
const std::vector<NamedChoice<VerifyMode>>& verify_mode_choices();

// Where the source-based algorithms start: the same vertices on every
// placement, so that the placements are compared on equal work.
struct BenchSources {
  std::vector<uint64_t> fixed;  // in the file's numbering; empty: random picks
  int random = 4;               // pick_sources, as `run --sources K` picks them
  uint64_t seed = kDefaultSourceSeed;
};

struct BenchPlan {
  std::vector<std::string> graphs;  // files or generator specs
  GraphOptions graph;               // transforms applied to every graph
  std::vector<const AlgorithmInfo*> algorithms;
  std::vector<const BenchPlacement*> placements;
  BenchSources sources;
  int trials = 1;  // runs of each request, one after the other
  // Untimed runs of each algorithm's first request on each placement, before
  // its timed ones (on the same placed graph), left out of the rows.
  int warmup = 0;
  VerifyMode verify = VerifyMode::kAll;
  GpuOptions gpu;  // device, budget, stream threshold; each placement sets the rest
  AlgorithmOptions algorithm_options;
  std::optional<uint64_t> host_mem;  // --host-mem: runs keep at most this much of each .tgb graph in memory (CPU, stream placements)
  bool distributed = false;          // --distributed: GPU placements run as this rank of mpirun's processes
  VertexOrder vertex_order = VertexOrder::kAsLoaded;  // each graph renumbered once for every placement's runs
};

struct BenchRow {
  std::string graph;
  const AlgorithmInfo* algorithm = nullptr;
  // nullptr: the request was refused before any placement (no weights, say).
  const BenchPlacement* placement = nullptr;
  std::optional<Placement> gpu_placement;  // where the GPU engine put the edges (auto resolved)
  std::optional<uint64_t> source;          // in the file's numbering
  double compute_s = 0, transfer_s = 0, copy_back_s = 0, gteps = 0;
  uint64_t iterations = 0, edges_traversed = 0, input_edges = 0, bytes_moved = 0, bytes_needed = 0;
  std::optional<Verification> verification;  // empty: not checked
  std::string error;                         // why the run did not happen
  nlohmann::json details;

  bool failed() const { return !error.empty(); }
  std::string verified() const;  // "ok", "FAIL: ...", "-" when not checked
};

struct BenchResult {
  std::vector<BenchRow> rows;
  std::string gpu;  // the name of the GPU that ran, if any
};

// Called with the rows so far each time a placement has run (or been refused)
// on a graph: bench rewrites its files then, so that a bench cut short (Ctrl-C,
// a failure on a later graph) keeps the cells it finished.
using BenchProgress = std::function<void(const BenchResult&)>;

// Progress and refusals go to `log`, one line each. Throws a usage error for
// a fixed source outside a graph, before that graph runs.
BenchResult run_bench(const BenchPlan& plan, std::FILE* log, const BenchProgress& progress = {});

}  // namespace tg::cli
