// What a zero-copy placement asks of the resident edge cache for a graph
// (engines/edge_cache_plan.h): the CSRs it places, out-edges first so that
// lists of equal degree are chosen the same way every time, and the heads
// from the in-edges (the out-edges themselves on an undirected graph). The
// GPU engine builds its cache from this request (engines/gpu/placed_graph.cu)
// and the planner predicts with the same plan (planner/planner.cc).
#pragma once

#include "engines/edge_cache_plan.h"
#include "engines/gpu_footprint.h"
#include "graph/graph.h"

namespace tg {

template <typename V>
EdgeCacheRequest edge_cache_request(const Graph<V>& graph, const GpuFootprint& footprint, uint64_t budget) {
  EdgeCacheRequest request;
  request.budget = budget;
  request.entry_bytes = footprint.entry_bytes;
  if (footprint.out_edges) request.csrs.emplace_back(graph.out.offsets.data(), graph.out.offsets.size());
  if (footprint.in_edges) request.heads_of = graph.directed ? static_cast<int>(request.csrs.size()) : 0;
  if (footprint.directed_in) request.csrs.emplace_back(graph.in.offsets.data(), graph.in.offsets.size());
  return request;
}

// A streamed placement's heads cache (engines/gpu_footprint.h:
// streamed_heads_cache): the first `heads` entries of every out-list (a
// symmetric graph's, so its in-lists too), no whole lists.
template <typename V>
EdgeCacheRequest heads_cache_request(const Graph<V>& graph, const GpuFootprint& footprint, int heads) {
  EdgeCacheRequest request;
  request.budget = heads_cache_bytes(size_of(graph), footprint, heads);
  request.entry_bytes = footprint.entry_bytes;
  request.csrs.emplace_back(graph.out.offsets.data(), graph.out.offsets.size());
  request.heads_of = 0;
  request.max_heads = heads;
  request.whole_lists = false;
  return request;
}

}  // namespace tg
