// The hybrid engine's entry point (engines/run.h): the GPU engine over any
// one-GPU placement of the graph as the accelerator, the CPU threads over
// the host graph beside it (hybrid_engine.h).
#include <map>
#include <optional>
#include <string>
#include <type_traits>

#include "algorithms/registry.h"
#include "engines/gpu/gpu_accelerator.cuh"
#include "engines/gpu/host_openmp.h"
#include "engines/gpu/placed_graph.h"
#include "engines/gpu/timed_run.cuh"
#include "engines/hybrid/host_mem_split.h"
#include "engines/run.h"

namespace tg {

namespace {

// One request on the placed graph: the hybrid engine over the GPU engine and
// a CPU side, the in-memory CPU engine, or (--host-mem, `split`) the paged
// one planned beside the GPU's page buffers and host cache.
template <typename V>
RunOutput run_placed(gpu::PlacedGraph<V>& placed, const Graph<V>& graph, const RunRequest& request,
                     const HybridOptions& hybrid, hybrid::HostMemSplit<V>* split, hybrid::BufferPool& mirrors,
                     hybrid::SplitModels& models) {
  RunOutput out;
  out.engine = EngineKind::kHybrid;
  out.placement = placed.placement();
  const auto setup = std::chrono::steady_clock::now();  // the GPU's engine, then the CPU side's
  gpu::GpuAccelerator<V> acc(placed.view(), edge_reads(request));
  auto run = [&](auto& engine) {
    static_assert(Engine<std::decay_t<decltype(engine)>>);
    engine.use_buffer_pool(&mirrors);
    engine.keep_split_models(&models);
    const double setup_s = seconds_since(setup);
    gpu::GpuTimes t = gpu::run_timed(engine, acc, request, out.values);
    t.setup_s = setup_s;
    acc.finish();
    out.stats = engine.stats();
    gpu::add_placed_run(out.stats, placed, t);
  };
  if (paged::PagedSide<V>* side = split ? split->beside(acc.host_mem_bytes()) : nullptr) {
    paged::PagedCpuEngine<V> cpu = side->make_engine();
    hybrid::HybridEngine<gpu::GpuAccelerator<V>, paged::PagedCpuEngine<V>> engine(acc, graph, cpu, hybrid);
    run(engine);
  } else {
    hybrid::HybridEngine<gpu::GpuAccelerator<V>> engine(acc, graph, hybrid);
    run(engine);
  }
  return out;
}

// As the GPU engine's batches (gpu_run.cu): the edges placed once, for what
// every request reads.
template <typename V>
void run_batch(const Graph<V>& graph, const std::vector<RunRequest>& requests, const GpuOptions& options,
               const HybridOptions& hybrid, const OutputSink& sink) {
  if (options.async) throw usage_error("--engine hybrid: --async is for the GPU engine's subgraph and stream placements");
  if (options.gpus != 0) throw usage_error("--engine hybrid runs on one GPU; --gpus needs --engine gpu");
  std::vector<EdgeReads> each;
  for (const RunRequest& r : requests) {
    each.push_back(edge_reads(r));
    if (each.back().in_edges == Need::kYes && !graph.has_in_edges())
      throw Error(r.algorithm->name() + " needs the in-edges (CSC) of this directed graph, and they were not built");
  }
  const EdgeReads reads = batch_reads(each);
  // --host-mem: the GPU's host cache leaves the CPU side's page buffers
  // (HostMemSplit).
  GpuOptions on_gpu = options;
  if (!options.edge_file.empty()) on_gpu.host_cache_leaves = paged::largest_buffers_bytes(graph, reads);
  gpu::PlacedGraph<V> placed(graph, reads, on_gpu);
  hybrid::BufferPool mirrors;  // pinned once for the batch's runs, released before the placement
  std::map<std::string, hybrid::SplitModels> models;  // by algorithm: its later runs start from what the first measured
  std::optional<hybrid::HostMemSplit<V>> split;
  if (!options.edge_file.empty() && !requests.empty())
    split.emplace(graph, reads, in_edge_reader(requests), options.edge_file, options.host_mem_budget);
  for (size_t i = 0; i < requests.size(); ++i) {
    if (i > 0) placed.reset_between_runs();
    if (i > 0 && split && requests[i].algorithm != requests[i - 1].algorithm) split->release();
    sink(i, run_placed(placed, graph, requests[i], hybrid, split ? &*split : nullptr, mirrors,
                       models[requests[i].algorithm->name()]));
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
