// The split of a gather between the GPU kernel and CPU threads, and the
// balance of their shares (features/cpu_share.h): every position read
// exactly once, by the side its tier allows, the tail's length as asked;
// the automatic share moving towards equal finishing times and staying in
// its bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <tuple>
#include <vector>

#include "core/error.h"
#include "features/cpu_share.h"
#include "features/tier_plan.h"

namespace tg::test {
namespace {

using features::CpuShareSplit;
using features::ShareBalance;

std::vector<int64_t> random_ids(uint64_t count, uint64_t rows, std::mt19937_64& rng) {
  std::vector<int64_t> ids(count);
  for (int64_t& id : ids) id = static_cast<int64_t>(rng() % rows);
  return ids;
}

// Each position of `ids` read once with its own row: the head in place,
// the tail's rows where the split put them.
void expect_covers(const CpuShareSplit& s, const std::vector<int64_t>& ids, const features::TierPlan& plan) {
  std::vector<int> seen(ids.size(), 0);
  for (uint64_t i = 0; i < s.gpu_count; ++i) ++seen[i];
  if (s.cpu_positions.empty() && s.tail_gpu_ids.empty()) {  // the tail in place
    ASSERT_EQ(s.gpu_count + s.cpu_ids.size(), ids.size());
    for (uint64_t i = 0; i < s.cpu_ids.size(); ++i) {
      EXPECT_EQ(s.cpu_ids[i], ids[s.gpu_count + i]);
      ++seen[s.gpu_count + i];
    }
  } else {
    ASSERT_EQ(s.cpu_positions.size(), s.cpu_ids.size());
    for (uint64_t i = 0; i < s.cpu_ids.size(); ++i) {
      EXPECT_EQ(s.cpu_ids[i], ids[s.cpu_positions[i]]);
      EXPECT_EQ(plan.place_of_row(static_cast<uint64_t>(s.cpu_ids[i])).tier, features::Tier::kHost);
      ++seen[s.cpu_positions[i]];
    }
  }
  ASSERT_EQ(s.tail_gpu_positions.size(), s.tail_gpu_ids.size());
  for (uint64_t i = 0; i < s.tail_gpu_ids.size(); ++i) {
    EXPECT_EQ(s.tail_gpu_ids[i], ids[s.tail_gpu_positions[i]]);
    EXPECT_NE(plan.place_of_row(static_cast<uint64_t>(s.tail_gpu_ids[i])).tier, features::Tier::kHost);
    EXPECT_GE(s.tail_gpu_positions[i], s.gpu_count);
    ++seen[s.tail_gpu_positions[i]];
  }
  for (size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(seen[i], 1) << "position " << i;
}

TEST(CpuShareSplit, AHostOnlyTableGivesTheCpuTheTailInPlace) {
  std::mt19937_64 rng(3);
  const features::TierPlan plan = features::plan_tiers({}, 1000, {});
  const std::vector<int64_t> ids = random_ids(777, 1000, rng);
  for (double share : {0.0, 0.25, 0.5, 1.0}) {
    const CpuShareSplit s = features::split_for_cpu(ids, share, plan.rank_of_row, plan.bounds);
    EXPECT_EQ(s.gpu_count, 777 - static_cast<uint64_t>(std::llround(share * 777))) << share;
    EXPECT_TRUE(s.cpu_positions.empty());
    EXPECT_TRUE(s.tail_gpu_ids.empty());
    expect_covers(s, ids, plan);
  }
}

TEST(CpuShareSplit, RowsInGpuMemoryStayWithTheKernel) {
  std::mt19937_64 rng(5);
  std::vector<double> scores(2000);
  for (double& x : scores) x = static_cast<double>(rng() % 1000);
  for (auto [gpu, peer, peers] : {std::tuple{0.3, 0.0, 0u}, std::tuple{0.2, 0.3, 2u}, std::tuple{1.0, 0.0, 0u}}) {
    const features::TierPlan plan = features::plan_tiers(scores, 2000, {gpu, peer}, peers);
    const std::vector<int64_t> ids = random_ids(5000, 2000, rng);
    for (double share : {0.1, 0.6, 1.0}) {
      const CpuShareSplit s = features::split_for_cpu(ids, share, plan.rank_of_row, plan.bounds);
      expect_covers(s, ids, plan);
      if (gpu == 1.0) EXPECT_TRUE(s.cpu_ids.empty());
      else EXPECT_FALSE(s.cpu_ids.empty());
    }
  }
}

TEST(CheckCpuShare, RefusesNanAndSharesAboveOne) {
  for (double share : {-1.0, 0.0, 0.5, 1.0}) EXPECT_NO_THROW(features::check_cpu_share(share)) << share;
  for (double share : {1.5, std::nan("")}) EXPECT_THROW(features::check_cpu_share(share), Error) << share;
}

TEST(ShareBalance, AFixedShareStays) {
  ShareBalance b(0.4);
  EXPECT_FALSE(b.automatic());
  b.measured(1000, 1.0, 1000, 10.0);
  EXPECT_DOUBLE_EQ(b.share(), 0.4);
  EXPECT_DOUBLE_EQ(ShareBalance(1.5).share(), 1.0);
}

TEST(ShareBalance, AutoMovesTowardsEqualFinishingTimes) {
  ShareBalance b(ShareBalance::kAuto);
  EXPECT_TRUE(b.automatic());
  EXPECT_DOUBLE_EQ(b.share(), ShareBalance::kFirstAutoShare);
  // The GPU side reads 4 rows for the CPU side's 1: balanced at a fifth.
  for (int i = 0; i < 30; ++i) {
    const double share = b.share();
    const uint64_t cpu_rows = static_cast<uint64_t>(share * 1e6), gpu_rows = 1000000 - cpu_rows;
    b.measured(gpu_rows, gpu_rows / 4000.0, cpu_rows, cpu_rows / 1000.0);
  }
  EXPECT_NEAR(b.share(), 0.2, 1e-6);
  // The CPU side twice the GPU's: two thirds, reached halfway each step.
  const double before = b.share();
  b.measured(750, 1.5, 250, 0.25);
  EXPECT_NEAR(b.share(), 0.5 * (before + 2.0 / 3.0), 1e-9);
  // Nothing measured on a side: no change; the bounds hold.
  const double now = b.share();
  b.measured(0, 1.0, 100, 1.0);
  b.measured(100, 1.0, 100, 0.0);
  EXPECT_DOUBLE_EQ(b.share(), now);
  for (int i = 0; i < 50; ++i) b.measured(1, 1000.0, 1000, 1e-3);
  EXPECT_DOUBLE_EQ(b.share(), ShareBalance::kMost);
  for (int i = 0; i < 50; ++i) b.measured(1000, 1e-3, 1, 1000.0);
  EXPECT_DOUBLE_EQ(b.share(), ShareBalance::kLeast);
}

}  // namespace
}  // namespace tg::test
