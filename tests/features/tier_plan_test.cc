// The tier plan (features/tier_plan.h): the top fraction of rows by score in
// GPU slots hottest first, the map from row to slot, and the hit counts,
// against plain sorting and counting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "core/error.h"
#include "features/tier_plan.h"

namespace tg::test {
namespace {

// Rows by descending score, ties by ascending id, the first floor(f * n).
std::vector<int64_t> plain_hot_rows(const std::vector<double>& scores, double fraction) {
  std::vector<int64_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return scores[a] > scores[b]; });
  order.resize(static_cast<size_t>(std::floor(fraction * static_cast<double>(scores.size()))));
  return order;
}

TEST(TierPlan, TheHottestRowsTakeTheGpuSlotsInOrder) {
  std::mt19937_64 rng(3);
  for (uint64_t n : {0, 1, 7, 1000})
    for (double fraction : {0.0, 0.1, 0.3, 0.5, 1.0}) {
      std::vector<double> scores(n);
      for (double& s : scores) s = static_cast<double>(rng() % 50);  // many ties
      const features::TierPlan plan = features::plan_tiers(scores, n, fraction);
      const std::vector<int64_t> expected = plain_hot_rows(scores, fraction);
      ASSERT_EQ(plan.hot_rows, expected) << n << " rows, fraction " << fraction;
      ASSERT_EQ(plan.num_rows(), n);
      ASSERT_EQ(plan.gpu_rows(), expected.size());
      for (uint64_t row = 0; row < n; ++row) {
        const auto at = std::find(expected.begin(), expected.end(), static_cast<int64_t>(row));
        const int64_t slot = at == expected.end() ? -1 : at - expected.begin();
        ASSERT_EQ(plan.slot_of_row[row], slot) << "row " << row;
      }
    }
}

TEST(TierPlan, WithoutScoresTheFirstRowsAreHot) {
  const features::TierPlan plan = features::plan_tiers({}, 10, 0.3);
  EXPECT_EQ(plan.hot_rows, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(plan.slot_of_row, (std::vector<int64_t>{0, 1, 2, -1, -1, -1, -1, -1, -1, -1}));
}

TEST(TierPlan, RefusesBadFractionsAndScoreCounts) {
  for (double bad : {-0.1, 1.01, std::numeric_limits<double>::quiet_NaN()}) {
    try {
      features::plan_tiers({}, 10, bad);
      ADD_FAILURE() << "fraction " << bad << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUsage);
      EXPECT_NE(std::string(e.what()).find("is outside [0, 1]"), std::string::npos) << e.what();
    }
  }
  const std::vector<double> three = {1, 2, 3};
  EXPECT_THROW(features::plan_tiers(three, 4, 0.5), Error);
}

TEST(TierPlan, CountsHitsPerTier) {
  std::mt19937_64 rng(9);
  std::vector<double> scores(500);
  for (double& s : scores) s = static_cast<double>(rng() % 1000);
  for (double fraction : {0.0, 0.25, 1.0}) {
    const features::TierPlan plan = features::plan_tiers(scores, scores.size(), fraction);
    const std::vector<int64_t> hot = plain_hot_rows(scores, fraction);
    for (size_t count : {size_t{0}, size_t{100}, size_t{100000}}) {  // the last counts in parallel
      std::vector<int64_t> ids(count);
      for (int64_t& id : ids) id = static_cast<int64_t>(rng() % scores.size());
      uint64_t gpu = 0;
      for (int64_t id : ids) gpu += std::find(hot.begin(), hot.end(), id) != hot.end() ? 1 : 0;
      const features::TierCounts c = features::count_tiers(plan, ids);
      EXPECT_EQ(c.gpu_hits, gpu) << fraction << ", " << count;
      EXPECT_EQ(c.host_hits, count - gpu) << fraction << ", " << count;
    }
  }
}

}  // namespace
}  // namespace tg::test
