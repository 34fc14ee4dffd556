#include "distributed/level_record.h"

#include <algorithm>

namespace tg::dist {

namespace {

// The fields of a level record each array carries, in order.
constexpr size_t kSlowest = 10;  // compute, communication, then their phases, host read time
constexpr size_t kFastest = 2;   // compute, communication
constexpr size_t kSummed = 5;    // bytes sent, normals received, ranks pulling, delegate frontier edges, host bytes

}  // namespace

PackedLevels pack_levels(const std::vector<gpu::LevelRecord>& levels) {
  PackedLevels p;
  p.levels = levels.size();
  for (const gpu::LevelRecord& l : levels) {
    p.slowest.insert(p.slowest.end(), {l.compute_s, l.communication_s, l.normals_s, l.delegates_s, l.visit_s,
                                       l.settle_s, l.normals_exchange_s, l.delegates_exchange_s, l.frontier_share_s,
                                       l.host_read_s});
    p.fastest.insert(p.fastest.end(), {l.compute_s, l.communication_s});
    p.summed.insert(p.summed.end(), {l.bytes_sent, l.normals_received, uint64_t{l.pulled ? 1u : 0u},
                                     l.delegate_frontier_edges, l.host_bytes_read});
  }
  return p;
}

void reduce_levels(PackedLevels& into, const PackedLevels& other) {
  const size_t n = std::min(into.levels, other.levels);
  for (size_t i = 0; i < n * kSlowest; ++i) into.slowest[i] = std::max(into.slowest[i], other.slowest[i]);
  for (size_t i = 0; i < n * kFastest; ++i) into.fastest[i] = std::min(into.fastest[i], other.fastest[i]);
  for (size_t i = 0; i < n * kSummed; ++i) into.summed[i] += other.summed[i];
}

std::vector<DistributedLevel> unpack_levels(const PackedLevels& reduced, const std::vector<gpu::LevelRecord>& any_rank) {
  std::vector<DistributedLevel> out(reduced.levels);
  for (size_t i = 0; i < reduced.levels; ++i) {
    const double* slow = &reduced.slowest[kSlowest * i];
    const double* fast = &reduced.fastest[kFastest * i];
    const uint64_t* sum = &reduced.summed[kSummed * i];
    DistributedLevel& l = out[i];
    l.compute_s = slow[0];
    l.communication_s = slow[1];
    l.normals_s = slow[2];
    l.delegates_s = slow[3];
    l.visit_s = slow[4];
    l.settle_s = slow[5];
    l.normals_exchange_s = slow[6];
    l.delegates_exchange_s = slow[7];
    l.frontier_share_s = slow[8];
    l.host_read_s = slow[9];
    l.compute_min_s = fast[0];
    l.communication_min_s = fast[1];
    l.bytes_exchanged = sum[0];
    l.normals_exchanged = sum[1];
    l.ranks_pulling = static_cast<int>(sum[2]);
    l.delegate_frontier_edges = sum[3];
    l.host_bytes_read = sum[4];
    if (i < any_rank.size()) {
      l.delegate_frontier = any_rank[i].delegate_frontier;
      l.normals_pulled = any_rank[i].normals_pulled;
      l.exchange = any_rank[i].exchange;
      l.normal_frontier_edges = any_rank[i].normal_frontier_edges;
    }
  }
  return out;
}

}  // namespace tg::dist
