// Neighbour sampling on a GPU (issue 11, part 3): the same draws as the CPU
// sampler (sampling/draws.h), so the same hops for the same seed, with the
// graph's in-edges read from GPU memory, from the memories of several GPUs
// over the peer link (edge_devices), or, where they do not fit, from host
// memory in place by zero-copy. Per hop: a kernel counts each destination's
// draws, a scan places them, a kernel draws (Floyd's algorithm per node, as
// on the CPU), and the new sources are numbered in order of first draw with
// a per-vertex "first position" array and an atomic minimum, so the local
// ids equal the CPU's without a sort or a hash table. Plain C++: built from
// sampling/gpu/gpu_sampler.cu with CUDA, from sampling/gpu_unavailable.cpp
// (which refuses) without.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "graph/graph.h"
#include "sampling/neighbor_sampler.h"

namespace tg {

struct GpuSamplerOptions {
  int device = 0;
  bool zero_copy = false;  // in-edges read from host memory (registered in place), not copied to the GPU
  // The in-edges split over GPUs (sampling/edge_pieces.h): piece k, about
  // 1/P of the entries cut at list boundaries, in the memory of
  // edge_devices[k], read by `device` over the peer link (each must be
  // readable from it: cudaDeviceCanAccessPeer). `device` itself may be one of
  // them, and a GPU named twice holds two pieces (the split's path on one
  // GPU). The offsets and the sampler's arrays stay on `device`. Empty: the
  // whole in-edges on `device` (or in host memory with zero_copy).
  std::vector<int> edge_devices;
};

// A hop in the memory a caller's allocator gave (GPU memory for
// sample_into, host memory for sample_to_host): the destinations, the
// sources (destinations first) and the edges as 2 x num_edges words,
// edge_src then edge_dst, as SampledHop's.
struct HopArrays {
  uint64_t* dst_nodes = nullptr;
  uint64_t num_dst = 0;
  uint64_t* src_nodes = nullptr;
  uint64_t num_src = 0;
  uint64_t* edge_index = nullptr;
  uint64_t num_edges = 0;
};

// GPU memory of the sampler's device, `bytes` of it (may be 0: then any
// pointer, null too), owned by the caller.
using DeviceAllocator = std::function<void*(uint64_t bytes)>;
// Host memory, `bytes` of it (may be 0), owned by the caller.
using HostAllocator = std::function<void*(uint64_t bytes)>;

// `count` words from either allocator; a null for words asked is refused.
inline uint64_t* allocated_words(const std::function<void*(uint64_t bytes)>& allocate, uint64_t count,
                                 const char* who) {
  auto* p = static_cast<uint64_t*>(allocate(count * sizeof(uint64_t)));
  if (count > 0 && p == nullptr) throw Error(std::string(who) + ": the allocator gave no memory");
  return p;
}

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
  // The same hops left in GPU memory that `allocate` gives, called once for
  // every output in this order: the seeds' copy (hop 0's dst_nodes), then per
  // hop its edge index and its src_nodes (the next hop's dst_nodes). Ordered
  // with `consumer` (a cudaStream_t of the device as an integer, 0 for the
  // legacy default stream): the writes wait for the work queued there, the
  // work queued there after the call sees the hops. The host waits once a
  // hop, for its edge and new-source counts (the sizes to allocate); twice
  // for a hop of fanout -1 or one of more than 4 M edges at most.
  std::vector<HopArrays> sample_into(const std::vector<uint64_t>& seeds, const SampleOptions& options,
                                     const DeviceAllocator& allocate, uintptr_t consumer);

  // The hops of sample() written into host memory that `allocate` gives,
  // called in sample_into's order (the seeds' copy, then per hop its edge
  // index and its src_nodes, which are the next hop's dst_nodes): one copy
  // out of the pinned staging, where sample() makes two (its vectors, and the
  // next hop's destinations from the sources), and the caller's array
  // library (NumPy) none of its own.
  std::vector<HopArrays> sample_to_host(const std::vector<uint64_t>& seeds, const SampleOptions& options,
                                        const HostAllocator& allocate);

  // Bytes of GPU memory the placed graph takes, over every GPU that holds a
  // piece (0 for zero-copy).
  uint64_t graph_bytes_on_gpu() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Whether a GPU sampler can be made here; if not, why in *why.
bool gpu_sampler_available(std::string* why);

}  // namespace tg
