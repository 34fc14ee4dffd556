#include "distributed/gpu/run_output.h"

#include <cuda_runtime.h>

#include <string>

#include "engines/gpu/cuda_util.h"
#include "engines/gpu/host_openmp.h"

namespace tg::dist::gpu {
namespace {

std::string device_names(int gpus) {
  int device = 0;
  TG_CUDA(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  TG_CUDA(cudaGetDeviceProperties(&prop, device));
  return std::to_string(gpus) + " x " + prop.name;
}

// The edges a push BFS reads: the out-edges of every vertex it reached.
template <typename V>
uint64_t edges_from_reached(const Graph<V>& graph, const ResultVector<int32_t>& depth) {
  uint64_t edges = 0;
  const int64_t n = static_cast<int64_t>(graph.num_vertices);
#pragma omp parallel for reduction(+ : edges) schedule(static)
  for (int64_t v = 0; v < n; ++v)
    if (depth[v] >= 0) edges += graph.out.degree(v);
  return edges;
}

}  // namespace

RunOutput distributed_output(const AnyGraph& graph, const AlgorithmInfo& algorithm, VertexValues values,
                             DistributedStats stats, const RunTimes& times, uint64_t placed_bytes, uint64_t edges_pushed,
                             double residual) {
  RunOutput out;
  out.engine = EngineKind::kGpu;
  // Parts left in host memory are read by zero-copy, a warp reading 32
  // consecutive entries of the edge-balanced kernels: as merged reads.
  out.placement = stats.parts_in_host_memory > 0 ? Placement::kZeroCopyMerged : Placement::kDevice;
  for (const DistributedLevel& l : stats.levels) stats.bytes_exchanged += l.bytes_exchanged;
  double communication_s = 0;
  for (const DistributedLevel& l : stats.levels) {
    communication_s += l.communication_s;
    (l.ranks_pulling > 0 ? out.stats.pull_steps : out.stats.push_steps)++;
  }
  out.stats.iterations = stats.levels.size();
  out.stats.add_phase("partition", times.partition_s);
  out.stats.add_phase("transfer", times.transfer_s);
  out.stats.add_phase("compute", times.compute_s);
  out.stats.add_phase("communication (in compute)", communication_s);
  if (algorithm.name() == "bfs") {
    const auto& depth = std::get<ResultVector<int32_t>>(values);
    out.stats.edges_traversed = std::visit([&](const auto& g) { return edges_from_reached(g, depth); }, graph);
  } else {
    out.stats.edges_traversed = edges_pushed;
    // Each pushed edge reads its entry: 4 bytes at least (an nn entry holds 8),
    // and its weight where the program reads weights. A lower bound, so that a
    // run with its parts in host memory shows at least what its links carried
    // (bench's GB/s). BFS counts the lists of the vertices it reached, not
    // what its bottom-up levels read, so it claims nothing here.
    out.stats.bytes_needed = edges_pushed * (sizeof(uint32_t) + (algorithm.needs_weights() ? sizeof(weight_t) : 0));
  }
  if (algorithm.name() == "pagerank") out.stats.residual = residual;
  out.stats.bytes_moved = placed_bytes;
  GpuPlacementStats gpu;
  gpu.gpu = device_names(stats.gpus);
  gpu.edge_bytes = placed_bytes;
  gpu.transfer_bytes = placed_bytes;
  out.stats.gpu = gpu;
  out.stats.distributed = std::move(stats);
  out.values = std::move(values);
  out.stats.add_phase("copy back", times.copy_back_s);
  return out;
}

}  // namespace tg::dist::gpu
