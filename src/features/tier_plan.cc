#include "features/tier_plan.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/error.h"
#include "features/tier_scores.h"

namespace tg::features {

TierPlan plan_tiers(std::span<const double> scores, uint64_t num_rows, double gpu_fraction) {
  if (!(gpu_fraction >= 0.0 && gpu_fraction <= 1.0))
    throw usage_error("gpu_fraction " + std::to_string(gpu_fraction) + " is outside [0, 1]");
  if (!scores.empty() && scores.size() != num_rows)
    throw usage_error("tier plan: " + std::to_string(scores.size()) + " scores for " + std::to_string(num_rows) +
                      " rows");
  // floor, with 1.0 giving every row (the product is exact for it).
  const auto product = static_cast<uint64_t>(gpu_fraction * static_cast<double>(num_rows));
  const uint64_t hot = std::min<uint64_t>(num_rows, product);
  TierPlan plan;
  plan.slot_of_row.assign(num_rows, -1);
  if (hot == 0) return plan;
  if (scores.empty()) {
    plan.hot_rows.resize(hot);
    std::iota(plan.hot_rows.begin(), plan.hot_rows.end(), int64_t{0});
  } else {
    const std::vector<uint64_t> order = order_by_score(scores);
    plan.hot_rows.assign(order.begin(), order.begin() + static_cast<int64_t>(hot));
  }
#pragma omp parallel for schedule(static)
  for (int64_t slot = 0; slot < static_cast<int64_t>(hot); ++slot) plan.slot_of_row[plan.hot_rows[slot]] = slot;
  return plan;
}

TierCounts count_tiers(const TierPlan& plan, std::span<const int64_t> ids) {
  const int64_t n = static_cast<int64_t>(ids.size());
  if (plan.gpu_rows() == 0) return {0, static_cast<uint64_t>(n)};
  uint64_t gpu = 0;
#pragma omp parallel for schedule(static) reduction(+ : gpu) if (n >= (int64_t{1} << 16))
  for (int64_t i = 0; i < n; ++i) gpu += plan.slot_of_row[ids[i]] >= 0 ? 1 : 0;
  return {gpu, static_cast<uint64_t>(n) - gpu};
}

}  // namespace tg::features
