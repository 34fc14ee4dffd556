// Neighbour sampling for GNN mini-batches: from seed nodes, hop by hop, up to
// fanouts[hop] in-neighbours per node, uniformly, with or without
// replacement, deterministic for a seed (whatever the thread count). One
// SampledHop per hop, as GNN code consumes them (DGL's blocks, PyG's
// per-layer edge indexes). sample_neighbors runs on the CPU; a
// NeighborSampler runs on a GPU where there is one, with the same draws, so
// the same hops for the same seed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tiergraph/error.h"
#include "tiergraph/graph.h"

namespace tiergraph {

struct SampleOptions {
  std::vector<int> fanouts;  // per hop from the seeds, e.g. {25, 15}; -1 takes every in-neighbour
  bool replace = false;
  uint64_t seed = 0;
};

// Ids are 0-based (a file's id minus Graph::id_base()). dst_nodes: this hop's
// destinations (the seeds, then the previous hop's src_nodes); src_nodes:
// dst_nodes first, in order, then each new node once; edge i runs from
// src_nodes[edge_src[i]] to dst_nodes[edge_dst[i]].
struct SampledHop {
  std::vector<uint64_t> dst_nodes;
  std::vector<uint64_t> src_nodes;
  std::vector<uint64_t> edge_src;
  std::vector<uint64_t> edge_dst;
};

// Throws Error kUsage for no fanouts, a fanout of 0 or below -1, a seed out
// of range or given twice, or an empty graph handle. A directed graph gets
// its in-edges built on first use (as run() does).
TIERGRAPH_API std::vector<SampledHop> sample_neighbors(const Graph& graph, const uint64_t* seeds, size_t num_seeds,
                                                       const SampleOptions& options);

struct SamplerOptions {
  std::vector<int> fanouts;    // as SampleOptions
  bool replace = false;
  uint64_t seed = 0;           // the first of the sequence of per-call seeds
  std::string where = "auto";  // "auto" (a GPU where usable), "gpu" (required), "cpu"
  bool zero_copy = false;      // GPU: read the in-edges from host memory in place instead of copying them
  int device = 0;              // which GPU
  // GPU: the in-edges split in pieces over these GPUs' memories, read by
  // `device` over the peer link (at most 8; a GPU named twice holds two
  // pieces); empty: all on `device`. Not with zero_copy. The CPU sampler
  // checks the list and ignores it.
  std::vector<int> edge_devices;
};

// A hop in the memory a caller's allocator gave (GPU memory for
// NeighborSampler::sample_into, host memory for sample_to_host): as
// SampledHop, with the edges as one 2 x num_edges array, edge_src's row then
// edge_dst's.
struct HopArrays {
  const uint64_t* dst_nodes = nullptr;
  uint64_t num_dst = 0;
  const uint64_t* src_nodes = nullptr;
  uint64_t num_src = 0;
  const uint64_t* edge_index = nullptr;
  uint64_t num_edges = 0;
};

// `bytes` of GPU memory on the sampler's device, owned by the caller (bytes
// may be 0: any pointer will do, null too).
using DeviceAllocator = std::function<void*(uint64_t bytes)>;
// `bytes` of host memory, owned by the caller (as above for 0).
using HostAllocator = std::function<void*(uint64_t bytes)>;

// The sampler a training loop keeps. Each sample() call draws anew: the k-th
// call uses the k-th seed of a sequence derived from options.seed, so a run
// is reproducible; or give the seed. Throws Error kUsage for bad fanouts or
// `where` at construction, bad seeds per call, and any use of a moved-from
// sampler; kOther where="gpu" finds no usable GPU or its memory is short.
class TIERGRAPH_API NeighborSampler {
 public:
  NeighborSampler(const Graph& graph, const SamplerOptions& options);
  ~NeighborSampler();
  NeighborSampler(NeighborSampler&&) noexcept;
  NeighborSampler& operator=(NeighborSampler&&) noexcept;

  std::vector<SampledHop> sample(const uint64_t* seeds, size_t num_seeds);
  std::vector<SampledHop> sample(const uint64_t* seeds, size_t num_seeds, uint64_t seed);
  // The same hops left in GPU memory from `allocate` (a trainer's caching
  // allocator), which is called once per output in this order: the seeds'
  // copy (hop 0's dst_nodes), then per hop its edge index and its src_nodes
  // (the next hop's dst_nodes). Ordered on `stream` (a cudaStream_t of the
  // sampler's GPU as an integer, 0 for the legacy default stream) as a
  // kernel queued there would be; returns without waiting for the rows,
  // having waited only for each hop's counts (once a hop; twice for a hop
  // of fanout -1 or past 4 M edges). No seed: the next of the
  // sequence, as sample(). GPU samplers only (kUsage otherwise).
  std::vector<HopArrays> sample_into(const uint64_t* seeds, size_t num_seeds, const DeviceAllocator& allocate,
                                     uintptr_t stream, std::optional<uint64_t> seed = std::nullopt);
  // The hops of sample() written into host memory from `allocate` (an array
  // library's: NumPy's), called in sample_into's order, so hop h + 1's
  // dst_nodes are hop h's src_nodes, the same memory. On a GPU sampler one
  // copy out of the pinned staging, where sample() makes two; on the CPU a
  // copy of sample()'s vectors. No seed: the next of the sequence.
  std::vector<HopArrays> sample_to_host(const uint64_t* seeds, size_t num_seeds, const HostAllocator& allocate,
                                        std::optional<uint64_t> seed = std::nullopt);
  bool on_gpu() const;
  const SamplerOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tiergraph
