// The GPU sampler's in-edges split over GPUs (issue 11, part 3: sampling
// "from a graph split over GPUs"): the neighbour array cut into pieces at
// list boundaries, piece k in the memory of edge_devices[k], read by the
// sampler's GPU over the peer link. Plain C++: the cut and the checks that
// need no GPU (tested in CI); the pieces' placement is sampling/gpu/.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"

namespace tg::sampling {

constexpr int kMaxEdgePieces = 8;

// The P + 1 vertex bounds of P pieces: piece k holds the whole in-lists of
// vertices bounds[k] .. bounds[k + 1] - 1, the cuts where the entries before
// them first reach k / P of all (no list is cut, so a hub's piece may hold
// more). `offsets` has n + 1 entries.
std::vector<uint64_t> cut_lists(std::span<const eid_t> offsets, int pieces);

// Usage errors naming edge_devices: more than kMaxEdgePieces, a negative
// device, or the split asked for beside zero_copy (the in-edges are either
// in host memory or in the GPUs' memories). An empty list is no split.
void check_edge_devices(std::span<const int> edge_devices, bool zero_copy);

}  // namespace tg::sampling
