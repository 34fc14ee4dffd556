// The hybrid engine's entry point (engines/run.h): the GPU engine over any
// one-GPU placement of the graph as the accelerator, the CPU threads over
// the host graph beside it (hybrid_engine.h).
#include "algorithms/registry.h"
#include "engines/gpu/gpu_accelerator.cuh"
#include "engines/gpu/host_openmp.h"
#include "engines/gpu/placed_graph.h"
#include "engines/gpu/timed_run.cuh"
#include "engines/run.h"

namespace tg {

namespace {

template <typename V>
RunOutput run_placed(gpu::PlacedGraph<V>& placed, const Graph<V>& graph, const RunRequest& request,
                     const HybridOptions& hybrid) {
  RunOutput out;
  out.engine = EngineKind::kHybrid;
  out.placement = placed.placement();
  gpu::GpuAccelerator<V> acc(placed.view(), edge_reads(request));
  hybrid::HybridEngine<gpu::GpuAccelerator<V>> engine(acc, graph, hybrid);
  static_assert(Engine<hybrid::HybridEngine<gpu::GpuAccelerator<V>>>);
  const gpu::GpuTimes t = gpu::run_timed(engine, acc, request, out.values);
  acc.finish();
  out.stats = engine.stats();
  gpu::add_placed_run(out.stats, placed, t);
  return out;
}

// As the GPU engine's batches (gpu_run.cu): the edges placed once, for what
// every request reads.
template <typename V>
void run_batch(const Graph<V>& graph, const std::vector<RunRequest>& requests, const GpuOptions& options,
               const HybridOptions& hybrid, const OutputSink& sink) {
  if (options.async) throw usage_error("--engine hybrid: --async is for the GPU engine's subgraph and stream placements");
  if (options.gpus != 0) throw usage_error("--engine hybrid runs on one GPU; --gpus needs --engine gpu");
  EdgeReads reads{Need::kNo, Need::kNo, false};
  for (const RunRequest& r : requests) {
    const EdgeReads mine = edge_reads(r);
    if (mine.in_edges == Need::kYes && !graph.has_in_edges())
      throw Error(r.algorithm->name() + " needs the in-edges (CSC) of this directed graph, and they were not built");
    reads = combine(reads, mine);
  }
  gpu::PlacedGraph<V> placed(graph, reads, options);
  for (size_t i = 0; i < requests.size(); ++i) {
    if (i > 0) placed.reset_between_runs();
    sink(i, run_placed(placed, graph, requests[i], hybrid));
  }
}

}  // namespace

void run_batch_on_hybrid(const AnyGraph& any, const std::vector<RunRequest>& requests, const GpuOptions& options,
                         const HybridOptions& hybrid, const OutputSink& sink) {
  std::visit([&](const auto& graph) { run_batch(graph, requests, options, hybrid, sink); }, any);
}

RunOutput run_on_hybrid(const AnyGraph& any, const RunRequest& request, const GpuOptions& options,
                        const HybridOptions& hybrid) {
  return std::move(run_batch_on_hybrid(any, {request}, options, hybrid).front());
}

}  // namespace tg
