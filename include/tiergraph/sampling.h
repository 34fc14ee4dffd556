// Neighbour sampling for GNN mini-batches: from seed nodes, hop by hop, up to
// fanouts[hop] in-neighbours per node, uniformly, with or without
// replacement, deterministic for a seed (whatever the thread count). One
// SampledHop per hop, as GNN code consumes them (DGL's blocks, PyG's
// per-layer edge indexes). sample_neighbors runs on the CPU; a
// NeighborSampler runs on a GPU where there is one, with the same draws, so
// the same hops for the same seed.
#pragma once

#include <cstdint>
#include <memory>
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
};

// The sampler a training loop keeps. Each sample() call draws anew: the k-th
// call uses the k-th seed of a sequence derived from options.seed, so a run
// is reproducible; or give the seed. Throws Error kUsage for bad fanouts or
// `where` at construction, bad seeds per call; kOther where="gpu" finds no
// usable GPU or its memory is short.
class TIERGRAPH_API NeighborSampler {
 public:
  NeighborSampler(const Graph& graph, const SamplerOptions& options);
  ~NeighborSampler();
  NeighborSampler(NeighborSampler&&) noexcept;
  NeighborSampler& operator=(NeighborSampler&&) noexcept;

  std::vector<SampledHop> sample(const uint64_t* seeds, size_t num_seeds);
  std::vector<SampledHop> sample(const uint64_t* seeds, size_t num_seeds, uint64_t seed);
  bool on_gpu() const;
  const SamplerOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tiergraph
