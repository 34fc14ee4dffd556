// SubCSR generation on the host: reference steps 1-5 and the OpenMP edge
// compaction of step 6 (see edge_gather.h).
#include "engines/gpu/subgraph/edge_gather.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/error.h"

namespace tg::subgraph {

template <typename V>
std::vector<eid_t> sub_offsets_of(std::span<const eid_t> offsets, std::span<const V> active) {
  std::vector<eid_t> out(active.size() + 1);
  eid_t sum = 0;
  for (size_t i = 0; i < active.size(); ++i) {
    out[i] = sum;
    const uint64_t v = active[i];
    sum += offsets[v + 1] - offsets[v];
  }
  out[active.size()] = sum;
  return out;
}

template <typename V>
void scatter_sub_offsets(std::span<const V> active, std::span<const eid_t> sub_offsets, std::span<eid_t> full) {
  for (size_t i = 0; i < active.size(); ++i) {
    const uint64_t v = active[i];
    full[v] = sub_offsets[i];
    full[v + 1] = sub_offsets[i + 1];
  }
}

template <typename V>
void gather_edges_cpu(const eid_t* offsets, const V* neighbors, const weight_t* weights, std::span<const V> active,
                      std::span<const eid_t> sub_offsets, eid_t edge_begin, eid_t edge_end, V* out_neighbors,
                      weight_t* out_weights, uint64_t chunk_edges) {
  if (sub_offsets.size() != active.size() + 1)
    throw Error("edge gather: " + std::to_string(sub_offsets.size()) + " sub-offsets for " +
                std::to_string(active.size()) + " active vertices (expected one more)");
  const eid_t total = sub_offsets.back();
  if (edge_begin > edge_end || edge_end > total)
    throw Error("edge gather: range [" + std::to_string(edge_begin) + ", " + std::to_string(edge_end) +
                ") outside the SubCSR's " + std::to_string(total) + " edges");
  if (edge_begin == edge_end) return;
  if (chunk_edges == 0) chunk_edges = kGatherChunkEdges;
  const bool with_weights = weights != nullptr && out_weights != nullptr;
  const uint64_t chunks = (edge_end - edge_begin + chunk_edges - 1) / chunk_edges;
  const eid_t* sub = sub_offsets.data();
  const uint64_t count = active.size();

  // Chunks in SubCSR order are in source-address order too (the active list
  // is sorted), so each thread reads ascending addresses. One chunk: no
  // parallel region (small pieces and thin frontiers pay no fork/join).
#pragma omp parallel for schedule(dynamic, 1) if (chunks > 1)
  for (uint64_t c = 0; c < chunks; ++c) {
    const eid_t lo = edge_begin + c * chunk_edges;
    const eid_t hi = std::min<eid_t>(lo + chunk_edges, edge_end);
    // The active vertex whose list holds position lo: the last i < count with
    // sub[i] <= lo (vertices without edges share their successor's start).
    uint64_t i = static_cast<uint64_t>(std::upper_bound(sub, sub + count, lo) - sub) - 1;
    eid_t pos = lo;
    while (pos < hi) {
      while (sub[i + 1] <= pos) ++i;
      const uint64_t v = active[i];
      const eid_t seg_end = std::min<eid_t>(hi, sub[i + 1]);
      const eid_t src = offsets[v] + (pos - sub[i]);
      const eid_t len = seg_end - pos;
      std::memcpy(out_neighbors + (pos - edge_begin), neighbors + src, len * sizeof(V));
      if (with_weights) std::memcpy(out_weights + (pos - edge_begin), weights + src, len * sizeof(weight_t));
      pos = seg_end;
    }
  }
}

#define TG_SUBGRAPH_INSTANTIATE(V)                                                                                     \
  template std::vector<eid_t> sub_offsets_of<V>(std::span<const eid_t>, std::span<const V>);                          \
  template void scatter_sub_offsets<V>(std::span<const V>, std::span<const eid_t>, std::span<eid_t>);                 \
  template void gather_edges_cpu<V>(const eid_t*, const V*, const weight_t*, std::span<const V>,                     \
                                    std::span<const eid_t>, eid_t, eid_t, V*, weight_t*, uint64_t);
TG_SUBGRAPH_INSTANTIATE(uint32_t)
TG_SUBGRAPH_INSTANTIATE(uint64_t)
#undef TG_SUBGRAPH_INSTANTIATE

}  // namespace tg::subgraph
