// The hybrid engine's entry point (engines/run.h): the GPU engine over any
// one-GPU placement of the graph as the accelerator, the CPU threads over
// the host graph beside it (hybrid_engine.h).
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <type_traits>

#include "algorithms/registry.h"
#include "engines/gpu/gpu_accelerator.cuh"
#include "engines/gpu/host_openmp.h"
#include "engines/gpu/placed_graph.h"
#include "engines/gpu/timed_run.cuh"
#include "engines/paged/host_mem.h"
#include "engines/paged/paged_side.h"
#include "engines/run.h"

namespace tg {

namespace {

// One request on the placed graph: the hybrid engine over the GPU engine and
// a CPU side, the in-memory CPU engine, or (--host-mem) the paged one that
// `side_for` gives once it knows the GPU's page buffers.
template <typename V, typename SideFor>
RunOutput run_placed(gpu::PlacedGraph<V>& placed, const Graph<V>& graph, const RunRequest& request,
                     const HybridOptions& hybrid, SideFor&& side_for, hybrid::BufferPool& mirrors,
                     hybrid::SplitModels& models) {
  RunOutput out;
  out.engine = EngineKind::kHybrid;
  out.placement = placed.placement();
  gpu::GpuAccelerator<V> acc(placed.view(), edge_reads(request));
  auto run = [&](auto& engine) {
    static_assert(Engine<std::decay_t<decltype(engine)>>);
    engine.use_buffer_pool(&mirrors);
    engine.keep_split_models(&models);
    const gpu::GpuTimes t = gpu::run_timed(engine, acc, request, out.values);
    acc.finish();
    out.stats = engine.stats();
    gpu::add_placed_run(out.stats, placed, t);
  };
  if (paged::PagedSide<V>* side = side_for(acc.host_buffer_bytes())) {
    paged::PagedCpuEngine<V> cpu = side->make_engine();
    hybrid::HybridEngine<gpu::GpuAccelerator<V>, paged::PagedCpuEngine<V>> engine(acc, graph, cpu, hybrid);
    run(engine);
  } else {
    hybrid::HybridEngine<gpu::GpuAccelerator<V>> engine(acc, graph, hybrid);
    run(engine);
  }
  return out;
}

// --host-mem's CPU side: planned in what the GPU's stream placement leaves of
// the budget. Both sides read the graph's one copy of the offsets, which the
// CPU side's plan counts; the GPU takes its page buffers (known once its
// source is built, and checked by it against the whole budget), and the CPU
// side the rest for its buffers and resident edges, kept for the batch's
// later runs while their GPU buffers fit beside it (else planned again).
template <typename V>
class CpuSideBudget {
 public:
  CpuSideBudget(const Graph<V>& graph, const EdgeReads& reads, const std::string& algorithm, const GpuOptions& options)
      : graph_(graph), reads_(reads), algorithm_(algorithm), options_(options) {}

  // The CPU side beside GPU page buffers of `gpu_buffers` bytes; null where
  // the run has no --host-mem or the CPU side's edges fit in memory.
  paged::PagedSide<V>* beside(uint64_t gpu_buffers) {
    if (options_.edge_file.empty()) return nullptr;
    if (!plan_ || gpu_buffers > planned_beside_) {
      side_.reset();
      const uint64_t budget = options_.host_mem_budget;
      try {
        plan_ = paged::plan_host_memory(graph_, reads_, budget - std::min(budget, gpu_buffers));
      } catch (const Error& e) {
        throw usage_error("--engine hybrid: the GPU's page buffers take " + std::to_string(gpu_buffers) +
                          " bytes of --host-mem " + std::to_string(budget) + ", and the CPU side's rest: " + e.what());
      }
      planned_beside_ = gpu_buffers;
      if (plan_->paged) {
        PagingStats stats;
        stats.budget_bytes = plan_->budget_bytes;
        stats.edge_bytes = plan_->edge_bytes;
        stats.resident_bytes = plan_->offset_bytes;
        side_.emplace(graph_, reads_, algorithm_, options_.edge_file, *plan_, stats);
      }
    }
    return side_ ? &*side_ : nullptr;
  }

 private:
  const Graph<V>& graph_;
  EdgeReads reads_;
  std::string algorithm_;
  const GpuOptions& options_;
  std::optional<paged::HostMemPlan> plan_;
  uint64_t planned_beside_ = 0;
  std::optional<paged::PagedSide<V>> side_;
};

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
  gpu::PlacedGraph<V> placed(graph, reads, options);
  hybrid::BufferPool mirrors;  // pinned once for the batch's runs, released before the placement
  std::map<std::string, hybrid::SplitModels> models;  // by algorithm: its later runs start from what the first measured
  CpuSideBudget<V> cpu_side(graph, reads, requests.empty() ? "" : requests.front().algorithm->name(), options);
  for (size_t i = 0; i < requests.size(); ++i) {
    if (i > 0) placed.reset_between_runs();
    sink(i, run_placed(placed, graph, requests[i], hybrid,
                       [&](uint64_t gpu_buffers) { return cpu_side.beside(gpu_buffers); }, mirrors,
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
