// What a one-GPU placement holds (engines/gpu_footprint.h), on the host
// alone: the streamed placements' heads cache for CC's sample by pushes.
#include "engines/gpu_footprint.h"

#include <gtest/gtest.h>

namespace tg {
namespace {

// GAP's kron-25 as stored: 33.5 M vertices, 1.05 G directed entries.
GraphSize kron25(bool directed = false) {
  GraphSize g;
  g.vertices = uint64_t{1} << 25;
  g.edges = 1047218294;
  g.directed = directed;
  return g;
}

// CC's sampled form (algorithms/cc.h): out-edges, in-edges where free, two heads pushed.
EdgeReads cc_reads(int heads = 2) { return {Need::kYes, Need::kIfFree, false, 0, heads}; }

TEST(StreamedHeadsCache, TwoHeadsAListWhereTheyFitHalfTheBudget) {
  const GraphSize g = kron25();
  const GpuFootprint f = gpu_footprint(g, cc_reads(), true);
  const uint64_t heads_bytes = heads_cache_bytes(g, f, 2);
  EXPECT_EQ(heads_bytes, g.vertices * 2 * 4);  // 268 MB
  const uint64_t quarter = g.edges * 4 / 4, room = uint64_t{70} << 30;
  EXPECT_EQ(streamed_heads_cache(g, cc_reads(), f, EdgeCacheMode::kAuto, quarter, room), 2);
  // Half the budget is the most it takes; then none, not one head: the
  // other would still cost a request a list.
  const uint64_t least = heads_bytes * 100 / kHeadsCacheBudgetPercent;
  EXPECT_EQ(streamed_heads_cache(g, cc_reads(), f, EdgeCacheMode::kAuto, least + 100, room), 2);
  EXPECT_EQ(streamed_heads_cache(g, cc_reads(), f, EdgeCacheMode::kAuto, least - 1000, room), 0);
  // A small graph's heads within half of a small budget: none where the
  // buffers would keep less than kHeadsCacheLeavesAtLeast.
  GraphSize small = g;
  small.vertices = 1000;  // 8000 bytes of heads
  small.edges = 20000;
  EXPECT_EQ(streamed_heads_cache(small, cc_reads(), f, EdgeCacheMode::kAuto, 16000, room), 0);
  EXPECT_EQ(streamed_heads_cache(small, cc_reads(), f, EdgeCacheMode::kAuto, 8000 + kHeadsCacheLeavesAtLeast, room), 2);
  // The room bounds it as the budget does.
  EXPECT_EQ(streamed_heads_cache(g, cc_reads(), f, EdgeCacheMode::kAuto, quarter, least - 1000), 0);
}

TEST(StreamedHeadsCache, NoneWhereNoRunPushesHeadsAlone) {
  const GraphSize g = kron25();
  const uint64_t budget = uint64_t{8} << 30, room = uint64_t{70} << 30;
  const GpuFootprint f = gpu_footprint(g, cc_reads(), true);
  EXPECT_EQ(streamed_heads_cache(g, cc_reads(0), f, EdgeCacheMode::kAuto, budget, room), 0);  // BFS, Shiloach-Vishkin
  EXPECT_EQ(streamed_heads_cache(g, cc_reads(), f, EdgeCacheMode::kOff, budget, room), 0);   // --edge-cache off
  // A directed graph: CC links every edge on an engine that cannot pull.
  const GraphSize d = kron25(true);
  EXPECT_EQ(streamed_heads_cache(d, cc_reads(), gpu_footprint(d, cc_reads(), true), EdgeCacheMode::kAuto, budget, room),
            0);
  GraphSize empty = g;
  empty.edges = 0;
  EXPECT_EQ(streamed_heads_cache(empty, cc_reads(), f, EdgeCacheMode::kAuto, budget, room), 0);
}

TEST(StreamedHeadsCache, WeightsPlacedBesideTheIdsAreCachedToo) {
  // Weights placed beside the ids (SSSP's reads combined with CC's): each head holds one.
  GraphSize g = kron25();
  g.weighted = true;
  const EdgeReads both = combine(cc_reads(), EdgeReads{Need::kYes, Need::kNo, true});
  EXPECT_EQ(both.pushed_heads, 2);
  const GpuFootprint f = gpu_footprint(g, both, true);
  EXPECT_EQ(heads_cache_bytes(g, f, 2), g.vertices * 2 * (4 + sizeof(weight_t)));
}

// A batch's placement caches the heads only where every run pushes them
// alone: beside another run the cache would take its edge buffers.
TEST(StreamedHeadsCache, ABatchKeepsTheHeadsOnlyWhereEveryRunPushesThem) {
  const EdgeReads sssp{Need::kYes, Need::kNo, true, 32};
  EXPECT_EQ(batch_reads({cc_reads(), cc_reads()}).pushed_heads, 2);
  EXPECT_EQ(batch_reads({cc_reads()}).pushed_heads, 2);
  const EdgeReads mixed = batch_reads({cc_reads(), sssp});
  EXPECT_EQ(mixed.pushed_heads, 0);
  EXPECT_TRUE(mixed.weights);  // the rest combined as before
  EXPECT_EQ(mixed.light_below, 32);
  EXPECT_EQ(mixed.in_edges, Need::kIfFree);
  EXPECT_EQ(batch_reads({sssp, cc_reads()}).pushed_heads, 0);
  EXPECT_EQ(batch_reads({}).pushed_heads, 0);
  EXPECT_EQ(combine(cc_reads(), sssp).pushed_heads, 2);  // combine alone: the most any run pushes
}

}  // namespace
}  // namespace tg
