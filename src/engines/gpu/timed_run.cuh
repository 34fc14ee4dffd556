// A run's algorithm on an engine that drives the GPU (the GPU engine, or the
// hybrid engine over it), timed as every GPU run is: CUDA events on the
// default stream after a synchronize; compute ends where the engine recorded
// that the results are ready (their copy to the host begins), and the copy
// back is the rest. Host work between the events (the hybrid engine's CPU
// share) is inside them: the second event is enqueued after it.
#pragma once

#include <cuda_runtime.h>

#include "algorithms/registry.h"
#include "core/seconds_since.h"
#include "engines/gpu/cuda_util.h"
#include "engines/run.h"

namespace tg::gpu {

struct GpuTimes {
  double setup_s = 0;  // the engine's making: its buffers, streamers, pinned or registered host memory
  double compute_s = 0;
  double copy_back_s = 0;
};

// `gpu` is the GpuEngine that records results_ready (engine itself, or the
// one the hybrid engine wraps).
template <typename Engine, typename Gpu>
GpuTimes run_timed(Engine& engine, Gpu& gpu, const RunRequest& request, VertexValues& values) {
  cudaEvent_t start, stop;
  TG_CUDA(cudaEventCreate(&start));
  TG_CUDA(cudaEventCreate(&stop));
  float ms = 0, total_ms = 0;
  try {
    TG_CUDA(cudaDeviceSynchronize());
    TG_CUDA(cudaEventRecord(start));
    values = run_algorithm(engine, *request.algorithm, request.sources, request.options);
    TG_CUDA(cudaEventRecord(stop));
    TG_CUDA(cudaEventSynchronize(stop));
    TG_CUDA(cudaGetLastError());
    TG_CUDA(cudaEventElapsedTime(&total_ms, start, stop));
    ms = total_ms;
    if (gpu.results_recorded()) TG_CUDA(cudaEventElapsedTime(&ms, start, gpu.results_ready()));
  } catch (...) {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    throw;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return {0, ms / 1000.0, (total_ms - ms) / 1000.0};
}

// The phases of a run on a placed graph after the engine's own statistics:
// the placement's transfer, the engine's setup (outside the events: a stream
// placement registers its host buffers there, each run), the run's compute
// and copy back, and, with the edges in GPU memory, the one copy of the edge
// array made before the run as what crossed the link.
template <typename Placed>
void add_placed_run(RunStats& stats, const Placed& placed, const GpuTimes& t) {
  stats.add_phase("transfer", placed.transfer_seconds());
  stats.add_phase("setup", t.setup_s);
  stats.add_phase("compute", t.compute_s);
  stats.add_phase("copy back", t.copy_back_s);
  if (placed.placement() == Placement::kDevice) stats.bytes_moved += placed.transfer_bytes();
  const uint64_t staged = stats.gpu ? stats.gpu->staged_values : 0;  // the edge source's own report
  stats.gpu = placed.stats();
  stats.gpu->staged_values = staged;
}

}  // namespace tg::gpu
