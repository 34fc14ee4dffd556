// Neighbour sampling on a GPU (issue 11, part 3): the same draws as the CPU
// sampler (sampling/draws.h), so the same hops for the same seed, with the
// graph's in-edges read from GPU memory or, where they do not fit, from host
// memory in place by zero-copy. Per hop: a kernel counts each destination's
// draws, a scan places them, a kernel draws (Floyd's algorithm per node, as
// on the CPU), and the new sources are numbered in order of first draw with
// a per-vertex "first position" array and an atomic minimum, so the local
// ids equal the CPU's without a sort or a hash table. Plain C++: built from
// sampling/gpu/gpu_sampler.cu with CUDA, from sampling/gpu_unavailable.cpp
// (which refuses) without.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "sampling/neighbor_sampler.h"

namespace tg {

struct GpuSamplerOptions {
  int device = 0;
  bool zero_copy = false;  // in-edges read from host memory (registered in place), not copied to the GPU
};

class GpuNeighborSampler {
 public:
  // Places the graph's in-edges (ensure_in_edges first for a directed
  // graph); the graph must outlive the sampler. Throws tg::Error: no GPU,
  // no such device, not enough GPU memory (the number named), CUDA failures.
  GpuNeighborSampler(const AnyGraph& graph, const GpuSamplerOptions& options);
  ~GpuNeighborSampler();
  GpuNeighborSampler(const GpuNeighborSampler&) = delete;
  GpuNeighborSampler& operator=(const GpuNeighborSampler&) = delete;

  // As sample_neighbors (the same checks, the same hops), on the GPU; the
  // hops come back in host memory. One call at a time per sampler.
  std::vector<SampledHop> sample(const std::vector<uint64_t>& seeds, const SampleOptions& options);

  // Bytes of GPU memory the placed graph takes (0 for zero-copy).
  uint64_t graph_bytes_on_gpu() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Whether a GPU sampler can be made here; if not, why in *why.
bool gpu_sampler_available(std::string* why);

}  // namespace tg
