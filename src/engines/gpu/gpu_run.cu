// The GPU engine's entry points (engines/run.h): place the graph's edges once,
// then run each request's algorithm driver on a GpuEngine over it. The one
// instantiation of every algorithm driver for the GPU, per vertex id width.
#include <cuda_runtime.h>

#include "engines/gpu/device_graph.h"
#include "engines/gpu/gpu_engine.cuh"
#include "engines/run_algorithm.h"

namespace tg {

bool gpu_available(std::string* reason) { return gpu::init_cuda(0, reason); }

namespace {

template <typename V>
void check_request(const Graph<V>& graph, const RunRequest& request) {
  if (request.algorithm == Algorithm::kPageRank && graph.directed && !graph.in.built())
    throw Error("pagerank on the GPU needs the in-edges (CSC) of this directed graph, and they were not built");
}

template <typename V>
RunOutput run_placed(gpu::PlacedGraph<V>& placed, const RunRequest& request) {
  RunOutput out;
  out.engine = "gpu";
  out.placement = gpu::placement_name(placed.placement());
  gpu::GpuEngine<V> engine(placed.view());
  engine.prepare_subway(request.algorithm);  // subgraph / stream: buffers, refusals
  cudaEvent_t start, stop;
  TG_CUDA(cudaEventCreate(&start));
  TG_CUDA(cudaEventCreate(&stop));
  float ms = 0, total_ms = 0;
  try {
    TG_CUDA(cudaDeviceSynchronize());
    TG_CUDA(cudaEventRecord(start));
    // --async runs each algorithm's order-independent (accumulative) form.
    RunRequest r = request;
    r.options.accumulative = r.options.accumulative || placed.view().subway.async;
    out.values = run_algorithm(engine, r);
    TG_CUDA(cudaEventRecord(stop));
    TG_CUDA(cudaEventSynchronize(stop));
    TG_CUDA(cudaGetLastError());
    TG_CUDA(cudaEventElapsedTime(&total_ms, start, stop));
    ms = total_ms;
    if (engine.results_recorded()) TG_CUDA(cudaEventElapsedTime(&ms, start, engine.results_ready()));
  } catch (...) {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    throw;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  engine.finish_subway();
  out.stats = engine.stats();
  out.stats.add_phase("transfer", placed.transfer_seconds());
  out.stats.add_phase("compute", ms / 1000.0);
  out.stats.add_phase("copy back", (total_ms - ms) / 1000.0);
  // With the edges in GPU memory, what crossed the link is the one copy of
  // the edge array made before the run.
  if (placed.placement() == gpu::Placement::kDevice) out.stats.bytes_moved += placed.transfer_bytes();
  for (const auto& [key, value] : placed.details().items()) out.stats.details[key] = value;
  return out;
}

template <typename V>
std::vector<RunOutput> run_batch(const Graph<V>& graph, const std::vector<RunRequest>& requests,
                                 const GpuOptions& options) {
  std::vector<Algorithm> algorithms;
  bool accumulative = options.async;
  for (const RunRequest& r : requests) {
    check_request(graph, r);
    algorithms.push_back(r.algorithm);
    accumulative = accumulative || r.options.accumulative;
  }
  gpu::PlacedGraph<V> placed(graph, gpu::edge_needs(algorithms, accumulative), options);
  std::vector<RunOutput> outputs;
  for (size_t i = 0; i < requests.size(); ++i) {
    if (i > 0) placed.reset_between_runs();
    outputs.push_back(run_placed(placed, requests[i]));
  }
  return outputs;
}

}  // namespace

std::vector<RunOutput> run_batch_on_gpu(const AnyGraph& any, const std::vector<RunRequest>& requests,
                                        const GpuOptions& options) {
  return std::visit([&](const auto& graph) { return run_batch(graph, requests, options); }, any);
}

RunOutput run_on_gpu(const AnyGraph& any, const RunRequest& request, const GpuOptions& options) {
  return std::move(run_batch_on_gpu(any, {request}, options).front());
}

}  // namespace tg
