// Running one algorithm on one engine: the request, what comes back, and the
// entry points of the CPU engine and the GPU engine. The CLI and the library
// API call these; they pick nothing themselves.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/algorithm.h"
#include "engines/hybrid/hybrid_options.h"
#include "engines/placement.h"
#include "engines/run_stats.h"
#include "graph/graph.h"

namespace tg {

struct RunRequest {
  const AlgorithmInfo* algorithm = nullptr;
  Sources sources;  // internal (0-based) ids: one, or several for algorithms that sum over sources
  AlgorithmOptions options;

  uint64_t source() const { return sources.empty() ? 0 : sources.front(); }
};

// A request for `algorithm` from `sources` (none for cc and pagerank).
RunRequest make_request(const AlgorithmInfo& algorithm, Sources sources = {}, AlgorithmOptions options = {});

enum class EngineKind { kCpu, kGpu, kHybrid };
const char* engine_name(EngineKind e);  // "cpu", "gpu", "hybrid"

struct RunOutput {
  VertexValues values;
  RunStats stats;
  EngineKind engine = EngineKind::kCpu;
  std::optional<Placement> placement;  // GPU runs: where the edges were (never kAuto)
};

// What the GPU engine has measured when it resolves placement auto.
struct AutoPlacementContext {
  uint64_t edge_bytes = 0;    // of the edge arrays the run reads
  uint64_t budget_bytes = 0;  // --gpu-mem, or the room below
  uint64_t room_bytes = 0;    // free device memory beside the vertex data
};

// Where the GPU engine keeps the edge array and how its kernels read it.
struct GpuOptions {
  Placement placement = Placement::kAuto;
  // Who resolves kAuto: the planner (planner/planner.h, which knows the
  // algorithm; the engine does not). Null: device where the edges fit the
  // budget, else zerocopy-aligned.
  std::function<Placement(const AutoPlacementContext&)> choose_auto;
  std::string profile;  // the planner's machine profile (--profile); empty: planner/machine_profile.h's search
  uint64_t memory_budget = 0;  // bytes of device memory the run may use; 0: free memory minus a margin
  // Zero-copy placements: fill the budget they leave unused with a resident
  // edge cache (engines/edge_cache_plan.h, docs/GPU.md).
  EdgeCacheMode edge_cache = EdgeCacheMode::kAuto;
  int device = 0;
  // subgraph / stream placements (docs/SUBWAY.md):
  bool async = false;                         // Subway's asynchronous mode (the algorithms' accumulative forms)
  StreamMode stream_mode = StreamMode::kPtOpt;  // stream
  double stream_threshold = 0.8;              // subgraph: stream when active edges exceed this fraction of |E|
  GatherWay gather = GatherWay::kGpu;         // subgraph: measured faster than cpu on the H100 (docs/PERF.md)
  PackedListsMode packed_lists = PackedListsMode::kAuto;  // subgraph / stream gathers (graph/packed_lists.h)
  // device: dense gathers over the in-edges in this many passes, one per range
  // of sources (engines/gpu/source_blocks.h); 0 auto (enough that a range's
  // values fill at most 3/4 of the L2, none where 3/4 of the entries read the
  // first range's), 1 off.
  int source_blocks = 0;
  // device: how gathers read the in-edges (--gather-layout); kShards takes 2
  // bytes of GPU memory an edge beside the placement, and turns source
  // blocks off.
  GatherLayout gather_layout = GatherLayout::kLists;
  // Several GPUs (docs/DISTRIBUTED.md): 0 runs the one-GPU engine on `device`;
  // N >= 1 the degree-separated partition over GPUs 0..N-1, one rank each.
  int gpus = 0;
  std::optional<uint64_t> delegate_threshold;  // --gpus: TH (default: the paper's rule)
  // --host-mem on the GPU (docs/HOST-MEM.md): the .tgb file the graph was
  // loaded from (mapped), whose edges the stream placement reads in pages
  // instead of from host memory, and the host bytes its offsets and page
  // buffers may take. Empty: the edges are read from the graph's arrays.
  std::string edge_file;
  uint64_t host_mem_budget = 0;
  // What the offsets and page buffers leave of host_mem_budget keeps edges
  // read from the file in host memory (the stream placement's host cache),
  // but for host_cache_leaves bytes: the hybrid engine's CPU side is planned
  // in those (its page buffers; hybrid/host_mem_split.h).
  bool host_edge_cache = true;
  uint64_t host_cache_leaves = 0;
};

// Fills in defaults that depend on the graph (sssp's delta), checks the
// sources, weights and options against the graph; throws tg::Error with a
// one-line message.
RunRequest prepare_request(const AnyGraph& graph, RunRequest request);
// The same for a request that differs from `prepared` (a request of the same
// algorithm and options, prepared on this graph) only in its sources: those
// are checked, the rest is taken from `prepared`. The weights' check and a
// descriptor's prepare read the graph and the options, never the sources,
// and each can be a pass over every weight (sssp: three): a bench of 64
// sources on kron:25 made them 64 times.
RunRequest prepare_request_like(const AnyGraph& graph, RunRequest request, const RunRequest& prepared);

// What the request's algorithm reads, in the form the request runs.
EdgeReads edge_reads(const RunRequest& request);
// The algorithm of a batch's first request that must read in-edges (the
// first request's where none must): the one an error about missing in-edges names.
std::string in_edge_reader(const std::vector<RunRequest>& requests);

RunOutput run_on_cpu(const AnyGraph& graph, const RunRequest& request);

// Each output of a batch as soon as it is there, with its request's index:
// the caller keeps what it needs, so a bench of many sources holds one result
// at a time (64 BFS depth arrays of kron:29 would be 137 GB of host memory).
using OutputSink = std::function<void(size_t request, RunOutput&& output)>;

// False, with the reason, where no usable GPU is present (or the GPU engine
// was not built).
bool gpu_available(std::string* reason);
RunOutput run_on_gpu(const AnyGraph& graph, const RunRequest& request, const GpuOptions& options);
// The GPU and the CPU threads together (engines/hybrid/): the GPU engine
// over any one-GPU placement, gathers split in pages between the two.
RunOutput run_on_hybrid(const AnyGraph& graph, const RunRequest& request, const GpuOptions& options,
                        const HybridOptions& hybrid);
void run_batch_on_hybrid(const AnyGraph& graph, const std::vector<RunRequest>& requests, const GpuOptions& options,
                         const HybridOptions& hybrid, const OutputSink& sink);
// Several requests on one placement of the graph: the edges are placed (copied
// or pinned) once; UVM runs each start cold. For `tiergraph bench`.
void run_batch_on_gpu(const AnyGraph& graph, const std::vector<RunRequest>& requests, const GpuOptions& options,
                      const OutputSink& sink);
// The same over options.gpus GPUs of this process (run_batch_on_gpu calls it
// when options.gpus > 0): the graph is partitioned and placed once.
void run_batch_on_gpus(const AnyGraph& graph, const std::vector<RunRequest>& requests, const GpuOptions& options,
                       const OutputSink& sink);
// Whether run_batch_on_gpus keeps its NCCL communicators, one set per GPU
// count, for the next batch (off: each batch makes its own, about a second on
// 4 GPUs). For a process that runs many small batches, one at a time, as the
// GPU tests do; turning it off destroys the kept ones (do so before exit:
// NCCL's teardown needs CUDA alive). No effect without NCCL.
void keep_gpu_groups(bool keep);

// The batches' outputs all at once, in the requests' order (tests; a bench
// takes them one at a time).
inline std::vector<RunOutput> run_batch_on_gpu(const AnyGraph& graph, const std::vector<RunRequest>& requests,
                                               const GpuOptions& options) {
  std::vector<RunOutput> outputs;
  run_batch_on_gpu(graph, requests, options, [&](size_t, RunOutput&& out) { outputs.push_back(std::move(out)); });
  return outputs;
}
inline std::vector<RunOutput> run_batch_on_hybrid(const AnyGraph& graph, const std::vector<RunRequest>& requests,
                                                  const GpuOptions& options, const HybridOptions& hybrid) {
  std::vector<RunOutput> outputs;
  run_batch_on_hybrid(graph, requests, options, hybrid,
                      [&](size_t, RunOutput&& out) { outputs.push_back(std::move(out)); });
  return outputs;
}

}  // namespace tg
