// The tier plan (features/tier_plan.h, features/tier_place.h): the top
// fraction of rows by score in this GPU's slots hottest first, the next
// fraction dealt round-robin over the peers, the map from row to tier, GPU
// and slot, and the hit counts, against a plain sort and a plain deal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "features/tier_plan.h"
#include "support/usage_errors.h"

namespace tg::test {
namespace {

using features::Tier;

// Rows by descending score, ties by ascending id.
std::vector<int64_t> plain_order(const std::vector<double>& scores) {
  std::vector<int64_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return scores[a] > scores[b]; });
  return order;
}

uint64_t floor_of(double fraction, uint64_t n) {
  return static_cast<uint64_t>(std::floor(fraction * static_cast<double>(n)));
}

// Where each row should be: the first floor(gpu * n) of the order in GPU
// slots 0, 1, ...; the next floor(peer * n) dealt like cards, the k-th to
// peer k mod P at its next slot; the rest host.
struct Expected {
  std::vector<features::TierPlace> place;
  std::vector<std::vector<int64_t>> peer_rows;
  std::vector<int64_t> gpu_rows;
};
Expected deal(const std::vector<int64_t>& order, double gpu, double peer, uint32_t peers) {
  Expected e;
  const uint64_t n = order.size(), g = floor_of(gpu, n), p = peers == 0 ? 0 : floor_of(peer, n);
  e.place.assign(n, {Tier::kHost, 0, 0});
  e.peer_rows.resize(peers);
  for (uint64_t k = 0; k < g; ++k) {
    e.place[order[k]] = {Tier::kGpu, 0, k};
    e.gpu_rows.push_back(order[k]);
  }
  for (uint64_t k = 0; k < p; ++k) {
    std::vector<int64_t>& hand = e.peer_rows[k % peers];
    e.place[order[g + k]] = {Tier::kPeer, static_cast<uint32_t>(k % peers), hand.size()};
    hand.push_back(order[g + k]);
  }
  return e;
}

void expect_plan(const features::TierPlan& plan, const Expected& e, const std::string& what) {
  ASSERT_EQ(plan.num_rows, e.place.size()) << what;
  EXPECT_EQ(plan.gpu_tier_rows(), e.gpu_rows) << what;
  uint64_t peer_rows = 0;
  for (uint32_t p = 0; p < e.peer_rows.size(); ++p) {
    EXPECT_EQ(plan.peer_tier_rows(p), e.peer_rows[p]) << what << ", peer " << p;
    peer_rows += e.peer_rows[p].size();
  }
  EXPECT_EQ(plan.gpu_rows(), e.gpu_rows.size()) << what;
  EXPECT_EQ(plan.peer_rows(), peer_rows) << what;
  EXPECT_EQ(plan.host_rows(), plan.num_rows - e.gpu_rows.size() - peer_rows) << what;
  for (uint64_t row = 0; row < plan.num_rows; ++row) {
    const features::TierPlace got = plan.place_of_row(row), want = e.place[row];
    ASSERT_EQ(static_cast<int>(got.tier), static_cast<int>(want.tier)) << what << ", row " << row;
    if (want.tier == Tier::kHost) continue;
    ASSERT_EQ(got.peer, want.peer) << what << ", row " << row;
    ASSERT_EQ(got.slot, want.slot) << what << ", row " << row;
  }
}

TEST(TierPlan, TheHottestRowsTakeTheGpuSlotsInOrder) {
  std::mt19937_64 rng(3);
  for (uint64_t n : {0, 1, 7, 1000})
    for (double fraction : {0.0, 0.1, 0.3, 0.5, 1.0}) {
      std::vector<double> scores(n);
      for (double& s : scores) s = static_cast<double>(rng() % 50);  // many ties
      const features::TierPlan plan = features::plan_tiers(scores, n, {fraction, 0.0});
      expect_plan(plan, deal(plain_order(scores), fraction, 0.0, 0),
                  std::to_string(n) + " rows, fraction " + std::to_string(fraction));
    }
}

// Listing 4.1's interleaving: the rows after the GPU tier's dealt
// round-robin, so each peer holds every P-th of them (hot and lukewarm alike).
TEST(TierPlan, ThePeerTierIsDealtRoundRobinOverThePeers) {
  std::mt19937_64 rng(5);
  for (uint64_t n : {1, 7, 10, 1000})
    for (uint32_t peers : {1u, 2u, 3u, 7u})
      for (auto [gpu, peer] : {std::pair{0.0, 0.5}, {0.1, 0.2}, {0.3, 0.7}, {0.0, 1.0}, {0.25, 0.25}}) {
        std::vector<double> scores(n);
        for (double& s : scores) s = static_cast<double>(rng() % 50);
        const std::string what = std::to_string(n) + " rows, " + std::to_string(peers) + " peers, fractions " +
                                 std::to_string(gpu) + " + " + std::to_string(peer);
        expect_plan(features::plan_tiers(scores, n, {gpu, peer}, peers), deal(plain_order(scores), gpu, peer, peers),
                    what);
      }
}

TEST(TierPlan, PeersTakeEqualSharesOfTheHotRows) {
  std::vector<double> scores(10000);
  for (size_t i = 0; i < scores.size(); ++i) scores[i] = static_cast<double>((i * 7919) % 10007);
  const features::TierPlan plan = features::plan_tiers(scores, scores.size(), {0.1, 0.4}, 4);
  const std::vector<int64_t> order = plain_order(scores);
  for (uint32_t p = 0; p < 4; ++p) {
    const std::vector<int64_t> rows = plan.peer_tier_rows(p);
    EXPECT_EQ(rows.size(), 1000u);
    // peer p's slot k holds rank 1000 + 4k + p
    for (size_t k = 0; k < rows.size(); ++k) ASSERT_EQ(rows[k], order[1000 + 4 * k + p]) << "peer " << p;
  }
}

TEST(TierPlan, WithoutScoresTheFirstRowsAreHotAndThereIsNoMap) {
  const features::TierPlan plan = features::plan_tiers({}, 10, {0.3, 0.5}, 2);
  EXPECT_TRUE(plan.rank_of_row.empty());  // rank = row id: the map costs nothing
  EXPECT_EQ(plan.gpu_tier_rows(), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(plan.peer_tier_rows(0), (std::vector<int64_t>{3, 5, 7}));
  EXPECT_EQ(plan.peer_tier_rows(1), (std::vector<int64_t>{4, 6}));
  EXPECT_EQ(plan.peer_tier_rows(2), (std::vector<int64_t>{}));  // no such peer
  expect_plan(plan, deal({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 0.3, 0.5, 2), "no scores");
}

TEST(TierPlan, TheMapHoldsFourBytesARowAndOnlyWhereRowsAreReordered) {
  std::vector<double> scores(100, 1.0);
  scores[42] = 5.0;
  const features::TierPlan plan = features::plan_tiers(scores, 100, {0.01, 0.02}, 2);
  ASSERT_EQ(plan.rank_of_row.size(), 100u);
  static_assert(sizeof(plan.rank_of_row[0]) == 4);
  EXPECT_EQ(plan.rank_of_row[42], 0u);
  EXPECT_EQ(plan.rank_of_row[0], 1u);
  EXPECT_EQ(plan.rank_of_row[1], 2u);
  EXPECT_EQ(plan.rank_of_row[2], features::kHostRank);
  // No device rows: no map either, whatever the scores.
  EXPECT_TRUE(features::plan_tiers(scores, 100, {0.0, 0.5}, 0).rank_of_row.empty());
  // Scores that rank the device rows in id order (a matrix relabelled by its
  // order, ties by id): no map, and every row where a map would put it.
  std::vector<double> sorted(100);
  for (size_t i = 0; i < sorted.size(); ++i) sorted[i] = i < 60 ? 100.0 - static_cast<double>(i) : 1.0;
  const features::TierPlan ordered = features::plan_tiers(sorted, 100, {0.1, 0.5}, 3);
  EXPECT_TRUE(ordered.rank_of_row.empty());
  std::vector<int64_t> ids(100);
  std::iota(ids.begin(), ids.end(), 0);
  expect_plan(ordered, deal(ids, 0.1, 0.5, 3), "relabelled");
}

// Without peers the peer tier is empty and its rows stay in host memory.
TEST(TierPlan, WithoutPeersThePeerRowsStayInHostMemory) {
  std::vector<double> scores(50);
  std::iota(scores.begin(), scores.end(), 0.0);
  const features::TierPlan plan = features::plan_tiers(scores, 50, {0.2, 0.6}, 0);
  EXPECT_EQ(plan.gpu_rows(), 10u);
  EXPECT_EQ(plan.peer_rows(), 0u);
  EXPECT_EQ(plan.host_rows(), 40u);
  expect_plan(plan, deal(plain_order(scores), 0.2, 0.6, 0), "no peers");
}

// Fractions that sum to 1 in decimal but not in binary place every row.
TEST(TierPlan, FractionsSummingToOneHoldEveryRow) {
  for (auto [gpu, peer] : {std::pair{0.7, 0.3}, {0.1, 0.9}, {0.6, 0.4}, {1.0 / 3, 2.0 / 3}})
    for (uint64_t n : {3, 10, 999, 1000}) {
      const features::TierPlan plan = features::plan_tiers({}, n, {gpu, peer}, 3);
      EXPECT_LE(plan.gpu_rows() + plan.peer_rows(), n);
      EXPECT_GE(plan.gpu_rows() + plan.peer_rows() + 2, n) << gpu << " + " << peer << " of " << n;  // floors only
    }
}

TEST(TierPlan, RefusesBadFractionsPeersAndScoreCounts) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (double bad : {-0.1, 1.01, nan}) {
    expect_usage_error([&] { features::plan_tiers({}, 10, {bad, 0.0}); }, "gpu_fraction");
    expect_usage_error([&] { features::plan_tiers({}, 10, {0.0, bad}, 1); }, "peer_fraction");
  }
  expect_usage_error([] { features::plan_tiers({}, 10, {0.6, 0.5}, 1); }, "gpu_fraction 0.6");
  expect_usage_error([] { features::plan_tiers({}, 10, {0.6, 0.5}, 1); }, "is above 1");
  expect_usage_error([] { features::check_fractions({0.5, 0.51}); }, "peer_fraction 0.51");
  expect_usage_error([] { features::plan_tiers({}, 10, {0.0, 0.5}, features::kMaxPeers + 1); }, "peers: 17 devices");
  const std::vector<double> three = {1, 2, 3};
  expect_usage_error([&] { features::plan_tiers(three, 4, {0.5, 0.0}); }, "3 scores for 4 rows");
  // Device tiers of 2^32 - 1 rows would not fit the 4-byte map (no rows are
  // allocated: the plan refuses from the counts).
  expect_usage_error([] { features::plan_tiers({}, uint64_t{1} << 33, {0.25, 0.25}, 1); }, "4-byte map");
}

TEST(TierPlan, CountsHitsPerTier) {
  std::mt19937_64 rng(9);
  std::vector<double> scores(500);
  for (double& s : scores) s = static_cast<double>(rng() % 1000);
  const std::vector<int64_t> order = plain_order(scores);
  for (auto [gpu, peer] : {std::pair{0.0, 0.0}, {0.25, 0.0}, {1.0, 0.0}, {0.1, 0.3}, {0.0, 1.0}})
    for (uint32_t peers : {0u, 2u}) {
      const features::TierPlan plan = features::plan_tiers(scores, scores.size(), {gpu, peer}, peers);
      const Expected e = deal(order, gpu, peer, peers);
      for (size_t count : {size_t{0}, size_t{100}, size_t{100000}}) {  // the last counts in parallel
        std::vector<int64_t> ids(count);
        for (int64_t& id : ids) id = static_cast<int64_t>(rng() % scores.size());
        features::TierCounts want;
        for (int64_t id : ids) {
          const Tier t = e.place[id].tier;
          (t == Tier::kGpu ? want.gpu_hits : t == Tier::kPeer ? want.peer_hits : want.host_hits) += 1;
        }
        const features::TierCounts c = features::count_tiers(plan, ids);
        const std::string what = std::to_string(gpu) + " + " + std::to_string(peer) + ", " + std::to_string(peers) +
                                 " peers, " + std::to_string(count) + " ids";
        EXPECT_EQ(c.gpu_hits, want.gpu_hits) << what;
        EXPECT_EQ(c.peer_hits, want.peer_hits) << what;
        EXPECT_EQ(c.host_hits, want.host_hits) << what;
      }
    }
}

}  // namespace
}  // namespace tg::test
