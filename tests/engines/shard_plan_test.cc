// Garaph's shards (engines/shard_plan.h): on in-degree sequences of several
// shapes, the shards cover every vertex once and in order, each within its
// accumulators and its edge limit, with the replication of its mean degree;
// lists past the limit stand alone, listed as long lists.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "engines/shard_plan.h"

namespace tg {
namespace {

std::vector<eid_t> offsets_of(const std::vector<uint64_t>& degrees) {
  std::vector<eid_t> offsets(degrees.size() + 1, 0);
  for (size_t v = 0; v < degrees.size(); ++v) offsets[v + 1] = offsets[v] + degrees[v];
  return offsets;
}

// Every property the plan promises, checked shard by shard.
void expect_valid(const std::vector<uint64_t>& degrees, uint64_t slots, uint64_t max_edges) {
  const std::vector<eid_t> offsets = offsets_of(degrees);
  const uint64_t n = degrees.size();
  const ShardPlan p = plan_shards(offsets.data(), n, slots, max_edges);
  ASSERT_EQ(p.starts.size(), p.replicas.size() + 1);
  ASSERT_EQ(p.starts.front(), 0u);
  ASSERT_EQ(p.starts.back(), n);
  std::vector<uint64_t> long_lists;
  for (size_t i = 0; i < p.shards(); ++i) {
    const uint64_t b = p.starts[i], e = p.starts[i + 1];
    ASSERT_LT(b, e) << "shard " << i;
    const uint64_t edges = offsets[e] - offsets[b];
    const int r = p.replicas[i];
    if (r == 0) {
      EXPECT_EQ(e - b, 1u) << "shard " << i;
      EXPECT_GT(edges, max_edges) << "shard " << i;
      long_lists.push_back(b);
      continue;
    }
    EXPECT_LE(edges, max_edges) << "shard " << i;
    EXPECT_LE((e - b) * r, slots) << "shard " << i;
    EXPECT_EQ(r, shard_replication(edges, e - b)) << "shard " << i;
  }
  EXPECT_EQ(long_lists, p.long_lists);
}

TEST(ShardPlan, ReplicationIsThePowerOfTwoNearestTheMeanDegreeUpTo32) {
  EXPECT_EQ(shard_replication(0, 10), 1);
  EXPECT_EQ(shard_replication(10, 10), 1);
  EXPECT_EQ(shard_replication(14, 10), 1);  // log2 1.4 = 0.49
  EXPECT_EQ(shard_replication(15, 10), 2);  // log2 1.5 = 0.58
  EXPECT_EQ(shard_replication(40, 10), 4);
  EXPECT_EQ(shard_replication(320, 10), 32);
  EXPECT_EQ(shard_replication(1000000, 10), 32);
  EXPECT_EQ(shard_replication(5, 0), 1);
}

TEST(ShardPlan, ShardsCoverEveryVertexWithinTheirLimitsOnManyShapes) {
  std::mt19937_64 rng(7);
  const std::vector<std::pair<uint64_t, uint64_t>> limits = {{32, 64}, {1024, 4096}, {6144, 32768}, {65536, 1 << 20}};
  for (auto [slots, max_edges] : limits) {
    SCOPED_TRACE("slots " + std::to_string(slots) + ", max_edges " + std::to_string(max_edges));
    std::vector<std::vector<uint64_t>> shapes;
    shapes.push_back({});                                // no vertices
    shapes.push_back(std::vector<uint64_t>(1000, 0));    // no edges
    shapes.push_back(std::vector<uint64_t>(5000, 32));   // regular, R = 32
    shapes.push_back({max_edges + 1});                   // one long list alone
    std::vector<uint64_t> star(3000, 1);                 // a hub among leaves, and one past the limit
    star[17] = max_edges;
    star[1500] = 3 * max_edges;
    shapes.push_back(star);
    std::vector<uint64_t> uniform(20000), zipf(20000), mixed(20000);
    std::uniform_int_distribution<uint64_t> small(0, 40);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (size_t v = 0; v < uniform.size(); ++v) {
      uniform[v] = small(rng);
      zipf[v] = static_cast<uint64_t>(std::pow(unit(rng), -1.2));  // heavy tail: some lists past any limit
      mixed[v] = v % 2 ? 0 : zipf[v] * (v % 7);
    }
    shapes.push_back(uniform);
    shapes.push_back(zipf);
    shapes.push_back(mixed);
    for (size_t s = 0; s < shapes.size(); ++s) {
      SCOPED_TRACE("shape " + std::to_string(s));
      expect_valid(shapes[s], slots, max_edges);
    }
  }
}

TEST(ShardPlan, DenseShardsHoldFewerVertices) {
  // 32 entries a vertex: 32 copies each, so a shard of 6144 accumulators
  // holds 192 vertices.
  const std::vector<eid_t> offsets = offsets_of(std::vector<uint64_t>(1000, 32));
  const ShardPlan p = plan_shards(offsets.data(), 1000, 6144, 1 << 20);
  ASSERT_GE(p.shards(), 2u);
  EXPECT_EQ(p.starts[1], 192u);
  EXPECT_EQ(p.replicas[0], 32);
  EXPECT_TRUE(p.long_lists.empty());
}

TEST(ShardPlan, SparseShardsFillTheirAccumulatorsOrTheirEdges) {
  // One entry a vertex: one copy each, 64 vertices a shard of 64; with an
  // edge limit of 10, 10 vertices a shard.
  const std::vector<eid_t> offsets = offsets_of(std::vector<uint64_t>(1000, 1));
  const ShardPlan wide = plan_shards(offsets.data(), 1000, 64, 1 << 20);
  ASSERT_EQ(wide.shards(), 16u);
  for (size_t i = 0; i + 1 < wide.shards(); ++i) EXPECT_EQ(wide.starts[i + 1] - wide.starts[i], 64u);
  const ShardPlan narrow = plan_shards(offsets.data(), 1000, 64, 10);
  EXPECT_EQ(narrow.shards(), 100u);
  EXPECT_EQ(narrow.starts[1], 10u);
}

TEST(ShardPlan, RefusesLimitsOutsideTheirRange) {
  const std::vector<eid_t> offsets = offsets_of({1, 2, 3});
  EXPECT_THROW(plan_shards(offsets.data(), 3, 16, 100), Error);
  EXPECT_THROW(plan_shards(offsets.data(), 3, 65537, 100), Error);
  EXPECT_THROW(plan_shards(offsets.data(), 3, 64, 0), Error);
  EXPECT_THROW(plan_shards(offsets.data(), 3, 64, 100, 3), Error);
  EXPECT_THROW(plan_shards(offsets.data(), 3, 64, 100, 64), Error);
}

TEST(ShardPlan, AFixedReplicationOverridesTheRule) {
  const std::vector<eid_t> offsets = offsets_of(std::vector<uint64_t>(1000, 32));
  const ShardPlan none = plan_shards(offsets.data(), 1000, 6144, 1 << 20, 1);
  ASSERT_EQ(none.shards(), 1u);  // one copy each: all 1000 vertices fit in one shard
  EXPECT_EQ(none.replicas[0], 1);
  const ShardPlan four = plan_shards(offsets.data(), 1000, 64, 1 << 20, 4);
  EXPECT_EQ(four.starts[1], 16u);
  EXPECT_EQ(four.replicas[0], 4);
}

}  // namespace
}  // namespace tg
