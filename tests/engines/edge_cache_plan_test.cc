// The resident edge cache's choice (engines/edge_cache_plan.h), on the host
// alone: heads first (up to 4 entries of every in-list), then whole lists,
// longest first, within the budget; everything when it all fits.
#include "engines/edge_cache_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

namespace tg {
namespace {

std::vector<eid_t> offsets_of(const std::vector<uint64_t>& degrees) {
  std::vector<eid_t> o(degrees.size() + 1, 0);
  std::partial_sum(degrees.begin(), degrees.end(), o.begin() + 1);
  return o;
}

EdgeCacheRequest request(uint64_t budget, const std::vector<std::vector<eid_t>>& csrs, int heads_of,
                         uint64_t entry = 4) {
  EdgeCacheRequest r;
  r.budget = budget;
  r.entry_bytes = entry;
  for (const auto& o : csrs) r.csrs.emplace_back(o.data(), o.size());
  r.heads_of = heads_of;
  return r;
}

// What a plan must always satisfy, whatever the degrees and the budget.
void expect_consistent(const EdgeCachePlan& p, const EdgeCacheRequest& r) {
  EXPECT_LE(p.bytes, r.budget);
  uint64_t bytes = p.head_bytes, lists = 0;
  ASSERT_EQ(p.lists.size(), r.csrs.size());
  for (size_t c = 0; c < r.csrs.size(); ++c) {
    const CachedLists& l = p.lists[c];
    const auto& o = r.csrs[c];
    uint64_t entries = 0, shortest = 0;
    EXPECT_TRUE(std::is_sorted(l.vertices.begin(), l.vertices.end()));
    EXPECT_EQ(std::adjacent_find(l.vertices.begin(), l.vertices.end()), l.vertices.end());
    for (uint64_t v : l.vertices) {
      const uint64_t d = o[v + 1] - o[v];
      EXPECT_GT(d, 0u);
      entries += d;
      shortest = shortest == 0 ? d : std::min(shortest, d);
    }
    if (l.all) {
      EXPECT_TRUE(l.vertices.empty());
      EXPECT_EQ(l.entries, o.back());
      EXPECT_EQ(l.bytes, l.entries * r.entry_bytes);
    } else {
      EXPECT_EQ(l.entries, entries);
      EXPECT_EQ(l.count, l.vertices.size());
      EXPECT_EQ(l.min_degree, shortest);
      if (l.count > 0) EXPECT_EQ(l.bytes, entries * r.entry_bytes + cache_lookup_bytes(o.size() - 1, l.count));
      else EXPECT_EQ(l.bytes, 0u);
    }
    bytes += l.bytes;
    lists += l.count;
  }
  EXPECT_EQ(p.bytes, bytes);
  EXPECT_EQ(p.lists_cached(), lists);
  EXPECT_LE(p.cached_entries, p.total_entries);
  EXPECT_LE(p.heads, kMaxCachedHeads);
  if (p.heads > 0) EXPECT_EQ(p.head_bytes, p.heads * (r.csrs[r.heads_of].size() - 1) * r.entry_bytes);
}

TEST(EdgeCachePlan, BudgetZeroCachesNothing) {
  const std::vector<std::vector<eid_t>> g = {offsets_of({3, 1, 0, 5})};
  const EdgeCacheRequest r = request(0, g, 0);
  const EdgeCachePlan p = plan_edge_cache(r);
  EXPECT_EQ(p.bytes, 0u);
  EXPECT_EQ(p.heads, 0);
  EXPECT_EQ(p.lists_cached(), 0u);
  EXPECT_EQ(p.total_entries, 9u);
  EXPECT_EQ(p.cached_fraction(), 0.0);
  expect_consistent(p, r);
}

TEST(EdgeCachePlan, ABudgetLargerThanTheGraphCopiesEveryListWithoutHeads) {
  const std::vector<std::vector<eid_t>> g = {offsets_of({3, 1, 0, 5}), offsets_of({2, 2, 4, 1})};
  for (uint64_t budget : {uint64_t{18 * 8}, uint64_t{1} << 40}) {
    const EdgeCacheRequest r = request(budget, g, 1, 8);
    const EdgeCachePlan p = plan_edge_cache(r);
    EXPECT_EQ(p.heads, 0);  // each list holds its own head
    ASSERT_EQ(p.lists.size(), 2u);
    EXPECT_TRUE(p.lists[0].all && p.lists[1].all);
    EXPECT_EQ(p.lists[0].count, 3u);  // the non-empty ones
    EXPECT_EQ(p.lists[1].min_degree, 1u);
    EXPECT_EQ(p.bytes, 18u * 8);
    EXPECT_EQ(p.cached_fraction(), 1.0);
    expect_consistent(p, r);
  }
}

TEST(EdgeCachePlan, AllDegreesZeroCachesNothing) {
  const std::vector<std::vector<eid_t>> g = {offsets_of({0, 0, 0})};
  const EdgeCacheRequest r = request(1 << 20, g, 0);
  const EdgeCachePlan p = plan_edge_cache(r);
  EXPECT_EQ(p.bytes, 0u);
  EXPECT_EQ(p.heads, 0);
  EXPECT_EQ(p.total_entries, 0u);
  expect_consistent(p, r);
}

TEST(EdgeCachePlan, HeadsAreFourWhenTheyFitAndFewerOtherwise) {
  // 100 vertices of degree 10: 4000 bytes of entries, a plane of heads 400.
  const std::vector<std::vector<eid_t>> g = {offsets_of(std::vector<uint64_t>(100, 10))};
  struct Case {
    uint64_t budget;
    int heads;
  };
  for (const Case& c : {Case{399, 0}, Case{400, 1}, Case{1199, 2}, Case{1600, 4}, Case{3999, 4}}) {
    const EdgeCacheRequest r = request(c.budget, g, 0);
    const EdgeCachePlan p = plan_edge_cache(r);
    EXPECT_EQ(p.heads, c.heads) << c.budget;
    EXPECT_EQ(p.cached_entries, p.lists[0].entries + (100 - p.lists[0].count) * c.heads) << c.budget;
    expect_consistent(p, r);
  }
  // Heads never longer than the longest in-list (the out-edges' hub keeps
  // the whole from fitting).
  const std::vector<std::vector<eid_t>> short_in = {offsets_of({1000, 0, 0, 0, 0}), offsets_of({2, 1, 2, 0, 1})};
  const EdgeCacheRequest r = request(5 * 4 * 4, short_in, 1);  // four planes' worth
  const EdgeCachePlan p = plan_edge_cache(r);
  EXPECT_EQ(p.heads, 2);
  EXPECT_EQ(p.cached_entries, 6u);
  expect_consistent(p, r);
}

// A streamed placement's heads cache (engines/gpu_footprint.h:
// streamed_heads_cache): heads alone, at most max_heads, never whole lists,
// even where every list would fit the budget.
TEST(EdgeCachePlan, HeadsAloneWhereWholeListsAreNotWanted) {
  const std::vector<std::vector<eid_t>> g = {offsets_of({9, 1, 0, 3, 2})};  // 15 entries, a plane of 20 bytes
  for (uint64_t budget : {uint64_t{40}, uint64_t{1} << 30}) {
    EdgeCacheRequest r = request(budget, g, 0);
    r.whole_lists = false;
    r.max_heads = 2;
    const EdgeCachePlan p = plan_edge_cache(r);
    EXPECT_EQ(p.heads, 2) << budget;
    EXPECT_EQ(p.head_bytes, 40u);
    EXPECT_EQ(p.lists_cached(), 0u);
    EXPECT_FALSE(p.lists[0].all);
    EXPECT_EQ(p.bytes, 40u);
    EXPECT_EQ(p.cached_entries, 2u + 1 + 0 + 2 + 2);
    expect_consistent(p, r);
  }
  EdgeCacheRequest r = request(39, g, 0);  // short of two planes: one
  r.whole_lists = false;
  r.max_heads = 2;
  EXPECT_EQ(plan_edge_cache(r).heads, 1);
  r.max_heads = 9;  // never past kMaxCachedHeads
  r.budget = 1 << 20;
  EXPECT_EQ(plan_edge_cache(r).heads, kMaxCachedHeads);
  // Lists no longer than one entry: still the heads asked for, so that a
  // push of two finds all it reads among them (each list whole in the first).
  const std::vector<std::vector<eid_t>> short_lists = {offsets_of({1, 1, 0, 1})};
  EdgeCacheRequest s = request(1 << 20, short_lists, 0);
  s.whole_lists = false;
  s.max_heads = 2;
  const EdgeCachePlan p = plan_edge_cache(s);
  EXPECT_EQ(p.heads, 2);
  EXPECT_EQ(p.cached_entries, 3u);
  expect_consistent(p, s);
}

TEST(EdgeCachePlan, NoHeadsWithoutInEdges) {
  const std::vector<std::vector<eid_t>> g = {offsets_of({50, 3, 3, 3, 3, 3})};
  const EdgeCacheRequest r = request(cache_lookup_bytes(6, 1) + 50 * 4, g, -1);
  const EdgeCachePlan p = plan_edge_cache(r);
  EXPECT_EQ(p.heads, 0);
  EXPECT_EQ(p.lists[0].vertices, std::vector<uint64_t>{0});  // the hub, all the budget
  expect_consistent(p, r);
}

TEST(EdgeCachePlan, TheLongestListsFirstAndTiesByCsrThenId) {
  // Equal degrees everywhere: the lookup words (8 each, and 8 for the end)
  // and two lists of 3 x 4 bytes + 8 fit, not a third.
  const std::vector<std::vector<eid_t>> one = {offsets_of(std::vector<uint64_t>(8, 3))};
  const uint64_t two = cache_lookup_bytes(8, 0) + 2 * (12 + 8);
  EdgeCacheRequest r = request(two, one, -1);
  EdgeCachePlan p = plan_edge_cache(r);
  EXPECT_EQ(p.lists[0].vertices, (std::vector<uint64_t>{0, 1}));
  expect_consistent(p, r);
  // Across CSRs: the first CSR's lists before the second's of the same degree.
  const std::vector<std::vector<eid_t>> both = {offsets_of({1, 3, 0, 3, 3, 3}), offsets_of({3, 9, 3, 0, 3, 3})};
  r = request(2 * cache_lookup_bytes(6, 0) + (36 + 8) + 2 * (12 + 8), both, -1);
  p = plan_edge_cache(r);
  EXPECT_EQ(p.lists[1].vertices, std::vector<uint64_t>{1});  // the 9 first
  EXPECT_EQ(p.lists[0].vertices, (std::vector<uint64_t>{1, 3}));
  expect_consistent(p, r);
}

TEST(EdgeCachePlan, AListTooLongForTheBudgetIsPassedOverForShorterOnes) {
  const std::vector<std::vector<eid_t>> g = {offsets_of({1000, 5, 5, 2})};
  const EdgeCacheRequest r = request(cache_lookup_bytes(4, 0) + 2 * (20 + 8), g, -1);
  const EdgeCachePlan p = plan_edge_cache(r);
  EXPECT_EQ(p.lists[0].vertices, (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(p.lists[0].min_degree, 5u);
  expect_consistent(p, r);
}

TEST(EdgeCachePlan, HeadsGoWhenTheirListsAreAllCachedAnyway) {
  // The out-edges hold a hub that never fits; the in-edges, after their
  // heads, fit whole: then the heads would repeat them.
  const std::vector<std::vector<eid_t>> g = {offsets_of({400, 0, 0, 0}), offsets_of({1, 1, 1, 100})};
  const EdgeCacheRequest r = request(4 * 4 * 4 + 2 * cache_lookup_bytes(4, 0) + 103 * 4 + 4 * 8, g, 1);
  const EdgeCachePlan p = plan_edge_cache(r);
  EXPECT_TRUE(p.lists[1].all);
  EXPECT_EQ(p.heads, 0);
  EXPECT_EQ(p.head_bytes, 0u);
  expect_consistent(p, r);
}

TEST(EdgeCachePlan, LongListsBeyondTheDegreeTable) {
  // Degrees above 2^16 are counted apart from the short ones.
  const std::vector<std::vector<eid_t>> g = {offsets_of({70000, 3, 80000, 1, 0, 50})};
  const EdgeCacheRequest r = request(cache_lookup_bytes(6, 0) + 80000 * 4 + 8 + 70000 * 4 + 8, g, -1);
  const EdgeCachePlan p = plan_edge_cache(r);
  EXPECT_EQ(p.lists[0].vertices, (std::vector<uint64_t>{0, 2}));
  expect_consistent(p, r);
}

TEST(EdgeCachePlan, RandomGraphsAndBudgetsStayWithinTheBudget) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int csrs = 1 + trial % 2;
    std::vector<std::vector<eid_t>> g;
    const uint64_t n = 1 + rng() % 300;
    uint64_t entries = 0;
    for (int c = 0; c < csrs; ++c) {
      std::vector<uint64_t> d(n);
      for (uint64_t& x : d) x = rng() % 4 == 0 ? rng() % 200 : rng() % 4;  // a few hubs
      g.push_back(offsets_of(d));
      entries += g.back().back();
    }
    const uint64_t entry = trial % 3 == 0 ? 8 : 4;
    const uint64_t budget = rng() % (entries * entry + 64);
    const EdgeCacheRequest r = request(budget, g, static_cast<int>(rng() % (csrs + 1)) - 1, entry);
    const EdgeCachePlan p = plan_edge_cache(r);
    SCOPED_TRACE("trial " + std::to_string(trial));
    expect_consistent(p, r);
    // Greedy by degree: a list longer than a cached one was passed over only
    // because it did not fit in what was left when its turn came, which was
    // at least what is left now (less the lookups of CSRs without a cached
    // list, never built) plus the shorter list taken after it.
    const bool copies = std::any_of(p.lists.begin(), p.lists.end(), [](const CachedLists& l) { return l.all; });
    if (copies) continue;  // the heads may have gone: what is left says nothing
    int64_t left = static_cast<int64_t>(budget - p.bytes);
    for (size_t c = 0; c < g.size(); ++c)
      if (p.lists[c].count == 0 && g[c].back() > 0) left -= static_cast<int64_t>(cache_lookup_bytes(n, 0));
    for (size_t c = 0; c < g.size(); ++c) {
      const CachedLists& l = p.lists[c];
      for (uint64_t v = 0; v < n && l.count > 0; ++v) {
        const uint64_t d = g[c][v + 1] - g[c][v];
        if (d > l.min_degree && !std::binary_search(l.vertices.begin(), l.vertices.end(), v))
          EXPECT_GT(static_cast<int64_t>(d * entry + 8), left + static_cast<int64_t>(l.min_degree * entry + 8))
              << "vertex " << v;
      }
    }
  }
}

}  // namespace
}  // namespace tg
