#include "sampling/edge_pieces.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace tg::sampling {

std::vector<uint64_t> cut_lists(std::span<const eid_t> offsets, int pieces) {
  const uint64_t n = offsets.size() - 1, edges = offsets.back();
  std::vector<uint64_t> bounds(static_cast<size_t>(pieces) + 1, n);
  bounds[0] = 0;
  for (int k = 1; k < pieces; ++k) {
    // Exact in 128 bits: edges x k passes 2^64 past 2^61 edges.
    const eid_t target = static_cast<eid_t>(static_cast<unsigned __int128>(edges) * static_cast<unsigned>(k) /
                                            static_cast<unsigned>(pieces));
    const uint64_t v = static_cast<uint64_t>(std::lower_bound(offsets.begin(), offsets.end(), target) - offsets.begin());
    bounds[static_cast<size_t>(k)] = std::clamp(v, bounds[static_cast<size_t>(k) - 1], n);
  }
  return bounds;
}

void check_edge_devices(std::span<const int> edge_devices, bool zero_copy) {
  if (edge_devices.empty()) return;
  if (zero_copy)
    throw usage_error("edge_devices: the in-edges are split over GPUs or read from host memory (zero_copy), not both");
  if (edge_devices.size() > static_cast<size_t>(kMaxEdgePieces))
    throw usage_error("edge_devices: " + std::to_string(edge_devices.size()) + " pieces, at most " +
                      std::to_string(kMaxEdgePieces));
  for (int d : edge_devices)
    if (d < 0) throw usage_error("edge_devices: device " + std::to_string(d) + " is negative");
}

}  // namespace tg::sampling
