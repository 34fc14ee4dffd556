// Neighbour sampling for GNN mini-batches: from seed nodes, hop by hop, up to
// fanouts[hop] in-neighbours per node, uniformly, with or without
// replacement, deterministic for a seed (whatever the thread count). One
// SampledHop per hop, as GNN code consumes them (DGL's blocks, PyG's
// per-layer edge indexes). On the CPU so far; the GPU sampler of issue 11
// will give the same kind of output.
#pragma once

#include <cstdint>
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

}  // namespace tiergraph
