// Uniform neighbour sampling for GNN mini-batches (issue 11, part 3), on the
// CPU: from the seed nodes, hop by hop, each node draws up to fanout[hop] of
// its in-neighbours (the sources of the edges into it: the nodes whose
// messages it aggregates), with or without replacement. It is the reference
// the GPU sampler (sampling/gpu_sampler.h) is checked against, and what runs
// without a GPU; both draw through sampling/draws.h.
//
// Deterministic: a node's draws depend only on (seed, hop, node), through
// counter-based hashing (core/hash.h), never on thread count or order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace tg {

struct SampleOptions {
  std::vector<int> fanouts;  // per hop from the seeds; -1 takes every in-neighbour
  bool replace = false;      // with replacement: exactly fanout draws where a node has any in-neighbour
  uint64_t seed = 0;
};

// One hop, as GNN code consumes it (DGL's blocks, PyG's per-layer edge
// indexes): dst_nodes are this hop's destinations (the seeds, then the
// previous hop's src_nodes); src_nodes list dst_nodes first, in order, then
// each newly reached node once, in order of first draw; edge i runs from
// src_nodes[edge_src[i]] to dst_nodes[edge_dst[i]], grouped by destination.
struct SampledHop {
  std::vector<uint64_t> dst_nodes;
  std::vector<uint64_t> src_nodes;
  std::vector<uint64_t> edge_src;  // index into src_nodes
  std::vector<uint64_t> edge_dst;  // index into dst_nodes
};

// Throws a usage error (one line) for no fanouts, a fanout of 0 or below -1,
// a seed that is not a vertex, or one given twice. The graph must have its in-edges (an
// undirected graph always does; ensure_in_edges builds a directed one's).
std::vector<SampledHop> sample_neighbors(const AnyGraph& graph, const std::vector<uint64_t>& seeds,
                                         const SampleOptions& options);

// The checks above, for a graph of n vertices (the GPU sampler makes them too).
void check_sample_request(uint64_t n, const std::vector<uint64_t>& seeds, const SampleOptions& options);

// Refuses (kOutOfMemory, naming the hop, its edges and the bytes) a hop whose
// arrays in host memory would take more than the host's available memory,
// before any is allocated: a fanout of 2^31 - 1 with replacement allocated
// until the kernel killed the process. `who` begins the message.
void check_hop_fits_host(const std::string& who, int hop, uint64_t edges, uint64_t bytes);

}  // namespace tg
