// The fixed queue length of a small BFS level on several ranks (rank_bfs.cu;
// docs/DISTRIBUTED.md, "Small levels"): a level whose normal frontier is
// small enough that a bound on every rank's queue to every peer is known
// before it expands sends each queue at that length, with its mask, and no
// rank waits on the host for the lengths. Host code alone, so that CI tests
// the bound without a GPU.
#pragma once

#include <algorithm>
#include <cstdint>

namespace tg::dist {

inline constexpr uint64_t kNotSmall = ~uint64_t{0};

// A level's normal frontier as every rank announced it (summed): `vertices`
// queued normals and their nn and nd `edges`, exact where every rank queued
// at most `exact_up_to` (the announcement's sample) and counted at all after
// the first level (the first has one normal, a source's, and no edge count).
// Each normal has at most `threshold` out-edges (more makes a delegate), so
// no rank sends any peer more than min(vertices * TH, edges). Returns that
// bound rounded up to 64 slots, or kNotSmall where it passes `capacity` (a
// multiple of 64 every rank agreed on). Saturating: TH may be 2^64 - 1
// (every vertex normal), where vertices * TH wrapped to a length of 0 on the
// first GPU run of this code (2026-11-26; the length check caught it).
inline uint64_t small_level_queue(uint64_t vertices, uint64_t edges, bool edges_counted, uint64_t exact_up_to,
                                  uint64_t threshold, uint64_t capacity) {
  const uint64_t th = std::max<uint64_t>(threshold, 1);
  uint64_t bound = vertices > capacity / th ? kNotSmall : vertices * th;
  if (edges_counted && vertices <= exact_up_to) bound = std::min(bound, edges);
  if (bound > capacity) return kNotSmall;
  return (bound + 63) / 64 * 64;
}

}  // namespace tg::dist
