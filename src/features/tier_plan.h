// Which feature rows live where (issue 11, part 2; the dissertation's
// Sections 4.2-4.3): the top gpu_fraction of rows by score in this GPU's
// memory, the next peer_fraction interleaved over the peer GPUs' memories,
// the rest read from host memory (features/tier_place.h: the rule from a
// row's rank to its tier, GPU and slot). The plan maps row ids to ranks, so
// feature rows stay where the caller put them (no reordering of the caller's
// matrix); where the matrix is already ordered hottest first (no scores, or
// scores that rank the rows in id order: a graph relabelled by its order,
// graph/relabel.h) the rank is the row id and there is no map at all.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "features/tier_place.h"

namespace tg::features {

struct TierFractions {
  double gpu = 0.0;   // of the rows, in this GPU's memory
  double peer = 0.0;  // of the rows, over the peer GPUs; gpu + peer <= 1
};

struct TierPlan {
  uint64_t num_rows = 0;
  TierBounds bounds;
  std::vector<int64_t> ranked_rows;   // the device tiers' rows by rank: ranked_rows[rank] (device ranks only)
  std::vector<uint32_t> rank_of_row;  // one per row (kHostRank: host); empty: rank = row id (4 bytes a row saved)

  uint64_t gpu_rows() const { return bounds.gpu_rows; }
  uint64_t peer_rows() const { return bounds.device_rows - bounds.gpu_rows; }
  uint64_t host_rows() const { return num_rows - bounds.device_rows; }
  uint32_t num_peers() const { return bounds.num_peers; }
  uint64_t rank_of(uint64_t row) const { return rank_of_row.empty() ? row : rank_of_row[row]; }
  TierPlace place_of_row(uint64_t row) const { return place_of_rank(rank_of(row), bounds); }
  // The rows of this GPU's tier in slot order, and of peer p's.
  std::vector<int64_t> gpu_tier_rows() const;
  std::vector<int64_t> peer_tier_rows(uint32_t peer) const;
};

// floor(gpu * num_rows) rows in this GPU's tier and floor(peer * num_rows)
// over num_peers peers, by descending score, ties by ascending id
// (order_by_score); scores empty: rows in id order (a matrix already ordered
// hottest first). With no peers the peer fraction's rows stay in host
// memory. Throws a usage error naming the argument for a fraction outside
// [0, 1] (or NaN), gpu + peer above 1, more than kMaxPeers peers, device
// tiers of 2^32 - 1 rows or more, or scores of another length.
TierPlan plan_tiers(std::span<const double> scores, uint64_t num_rows, TierFractions fractions,
                    uint32_t num_peers = 0);

// Usage errors for fractions plan_tiers refuses (the store checks them
// before it scores the graph).
void check_fractions(TierFractions fractions);

// What one gather reads from each tier.
struct TierCounts {
  uint64_t gpu_hits = 0, peer_hits = 0, host_hits = 0;
};
TierCounts count_tiers(const TierPlan& plan, std::span<const int64_t> ids);  // ids must be rows

}  // namespace tg::features
