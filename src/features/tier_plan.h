// Which feature rows live in GPU memory (issue 11, part 2; the dissertation's
// Section 4.2): the top gpu_fraction of rows by score, hottest in the first
// GPU slot, the rest read from host memory. The plan is a map from row id to
// GPU slot, so feature rows stay where the caller put them (no reordering of
// the caller's matrix); a graph relabelled by the same order
// (graph/relabel.h) would make the map an id range.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tg::features {

struct TierPlan {
  std::vector<int64_t> hot_rows;     // row ids held in GPU memory, slot i holds hot_rows[i]
  std::vector<int64_t> slot_of_row;  // one per row: its GPU slot, or -1 (host)
  uint64_t num_rows() const { return slot_of_row.size(); }
  uint64_t gpu_rows() const { return hot_rows.size(); }
};

// floor(gpu_fraction * num_rows) rows in the GPU tier, by descending score,
// ties by ascending id (order_by_score); scores empty: rows in id order (a
// matrix already reordered hottest first). Throws a usage error for a
// fraction outside [0, 1] (or NaN) or scores of another length.
TierPlan plan_tiers(std::span<const double> scores, uint64_t num_rows, double gpu_fraction);

// What one gather reads from each tier.
struct TierCounts {
  uint64_t gpu_hits = 0, host_hits = 0;
};
TierCounts count_tiers(const TierPlan& plan, std::span<const int64_t> ids);  // ids must be rows

}  // namespace tg::features
