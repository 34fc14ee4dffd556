// The GPU engine's entry points (engines/run.h): place the graph's edges once,
// then run each request's algorithm on a GpuEngine over it. The one
// instantiation of every algorithm driver for the GPU, per vertex id width.
#include <cuda_runtime.h>

#include "algorithms/registry.h"
#include "engines/gpu/gpu_engine.cuh"
#include "engines/gpu/placed_graph.h"
#include "engines/gpu/timed_run.cuh"

namespace tg {

bool gpu_available(std::string* reason) { return gpu::init_cuda(0, reason); }

namespace {

// --async runs every algorithm's order-independent (accumulative) form.
RunRequest with_forms_of(const RunRequest& request, const GpuOptions& options) {
  RunRequest r = request;
  r.options.accumulative = r.options.accumulative || options.async;
  return r;
}

template <typename V>
void check_request(const Graph<V>& graph, const RunRequest& request) {
  if (edge_reads(request).in_edges == Need::kYes && !graph.has_in_edges())
    throw Error(request.algorithm->name() +
                " on the GPU needs the in-edges (CSC) of this directed graph, and they were not built");
}

template <typename V>
RunOutput run_placed(gpu::PlacedGraph<V>& placed, const RunRequest& request) {
  static_assert(Engine<gpu::GpuEngine<V>>);
  RunOutput out;
  out.engine = EngineKind::kGpu;
  out.placement = placed.placement();
  const auto setup = std::chrono::steady_clock::now();
  gpu::GpuEngine<V> engine(placed.view(), edge_reads(request));
  const double setup_s = seconds_since(setup);
  gpu::GpuTimes t = gpu::run_timed(engine, engine, request, out.values);
  t.setup_s = setup_s;
  engine.finish();
  out.stats = engine.stats();
  gpu::add_placed_run(out.stats, placed, t);
  return out;
}

template <typename V>
void run_batch(const Graph<V>& graph, const std::vector<RunRequest>& given, const GpuOptions& options,
               const OutputSink& sink) {
  std::vector<RunRequest> requests;
  std::vector<EdgeReads> reads;
  for (const RunRequest& r : given) {
    requests.push_back(with_forms_of(r, options));
    check_request(graph, requests.back());
    reads.push_back(edge_reads(requests.back()));
  }
  gpu::PlacedGraph<V> placed(graph, batch_reads(reads), options);
  for (size_t i = 0; i < requests.size(); ++i) {
    if (i > 0) placed.reset_between_runs();
    sink(i, run_placed(placed, requests[i]));
  }
}

}  // namespace

void run_batch_on_gpu(const AnyGraph& any, const std::vector<RunRequest>& requests, const GpuOptions& options,
                      const OutputSink& sink) {
  if (options.gpus > 0) return run_batch_on_gpus(any, requests, options, sink);
  std::visit([&](const auto& graph) { run_batch(graph, requests, options, sink); }, any);
}

RunOutput run_on_gpu(const AnyGraph& any, const RunRequest& request, const GpuOptions& options) {
  return std::move(run_batch_on_gpu(any, {request}, options).front());
}

}  // namespace tg
