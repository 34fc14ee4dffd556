#include "engines/gpu_footprint.h"

namespace tg {

GpuFootprint gpu_footprint(const GraphSize& g, const EdgeReads& reads, bool streamed) {
  GpuFootprint f;
  const bool has_in = !g.directed || g.in_edges;
  f.in_edges = has_in && (reads.in_edges >= Need::kIfPresent || (reads.in_edges == Need::kIfFree && !g.directed));
  f.directed_in = f.in_edges && g.directed;
  f.out_edges = reads.out_edges != Need::kNo || (f.in_edges && !g.directed);
  f.weights = reads.weights && g.weighted;
  f.entry_bytes = static_cast<uint64_t>(g.id_bytes) + (f.weights ? sizeof(weight_t) : 0);
  f.edge_bytes = (f.out_edges ? g.edges * f.entry_bytes : 0) + (f.directed_in ? g.edges * f.entry_bytes : 0);
  // Offsets, up to two 8-byte values per vertex, the engine's queues and
  // bitmaps, and a few live frontiers. subgraph / stream add the SubCSR
  // builder's arrays (active list, sort buffer, sub-offsets, scattered
  // sub-offsets) or the streamer's (identity, sorted list), and a second
  // dedupe bitmap and queue for --async, for gathers over packed lists
  // (graph/packed_lists.h) their offsets and a queue of the longer lists, and
  // for pushes over packed lists their offsets and packed sub-offsets.
  const uint64_t n = g.vertices, id = static_cast<uint64_t>(g.id_bytes), bitmap = (n + 31) / 32 * 4;
  f.vertex_bytes = (n + 1) * sizeof(eid_t) * (f.directed_in ? 2 : 1) + n * (16 + 5 * id) + 6 * bitmap +
                   (streamed ? n * (3 * id + 16) + 2 * bitmap + (f.in_edges ? n * (sizeof(eid_t) + id) : 0) +
                               (reads.out_edges != Need::kNo ? n * 2 * sizeof(eid_t) : 0)
                             : 0);
  return f;
}

uint64_t edge_cache_budget(Placement placement, EdgeCacheMode mode, uint64_t budget, uint64_t room) {
  if (mode == EdgeCacheMode::kOff || !is_zero_copy(placement)) return 0;
  return budget < room ? budget : room;
}

uint64_t heads_cache_bytes(const GraphSize& g, const GpuFootprint& f, int heads) {
  return g.vertices * static_cast<uint64_t>(heads) * f.entry_bytes;
}

int streamed_heads_cache(const GraphSize& g, const EdgeReads& reads, const GpuFootprint& f, EdgeCacheMode mode,
                         uint64_t budget, uint64_t room) {
  if (mode == EdgeCacheMode::kOff || reads.pushed_heads <= 0 || g.directed || !f.out_edges || g.edges == 0) return 0;
  const uint64_t usable = budget < room ? budget : room, bytes = heads_cache_bytes(g, f, reads.pushed_heads);
  const bool fits = bytes <= usable / 100 * kHeadsCacheBudgetPercent && usable - bytes >= kHeadsCacheLeavesAtLeast;
  return fits ? reads.pushed_heads : 0;
}

}  // namespace tg
