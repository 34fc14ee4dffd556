// Garaph's shards on the device placement (engines/shard_plan.h,
// engines/gpu/gather_shards.h, --gather-layout shards): PageRank on every GPU
// shape, orientation and id width against the CPU engine and the verifier;
// in-hubs past a shard's edge limit in several places (the chunked pass); the
// hybrid engine's GPU share over shards (a gather clipped to a range of
// vertices); the shards' statistics; the refusal off the device placement.
// The engine contract's gather (no sums_by_addition hint: the compare-and-
// swap fold, with weights) runs over shards in contract_gpu_test.cu.
// Skipped without a GPU.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "engines/shard_plan.h"
#include "gpu/gpu_checks.h"

namespace tg::test::gpu {
namespace {

GpuOptions sharded() {
  GpuOptions o;
  o.placement = Placement::kDevice;
  o.gather_layout = GatherLayout::kShards;
  return o;
}

// Every gather edge read once a gather, by a shard or the chunked pass.
void expect_shards(const RunOutput& out, uint64_t in_edges) {
  ASSERT_TRUE(out.stats.gpu);
  ASSERT_TRUE(out.stats.gpu->gather_shards) << "a gather ran: the shards were built";
  const ShardStats& h = *out.stats.gpu->gather_shards;
  uint64_t edges = h.long_list_edges;
  for (int k = 0; k < 6; ++k) edges += h.edges_by_replication[k];
  EXPECT_EQ(edges, in_edges);
  EXPECT_EQ(out.stats.edges_traversed, out.stats.iterations * in_edges);
}

TEST(GpuGatherShards, PageRankMatchesCpuOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  pagerank_on_every_shape(sharded(), ", shards", [](const RunOutput& out, const AnyGraph& graph) {
    if (out.stats.iterations > 0) expect_shards(out, num_in_edges(graph));
  });
}

// In-hubs longer than a shard's edge limit go to the chunked warp pass: a
// hub at the first vertex, one in the middle and one at the last, among
// vertices with a few in-edges each.
TEST(GpuGatherShards, InHubsPastTheEdgeLimitAreGatheredByWarps) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  const uint64_t n = 100000;
  EdgeList e;
  e.num_vertices = n;
  for (uint64_t hub : {uint64_t{0}, n / 2, n - 1})
    for (uint64_t v = 0; v < kShardEdges + 5000; ++v) e.src.push_back((v * 7919) % n), e.dst.push_back(hub);
  for (uint64_t v = 0; v < n; ++v)
    for (uint64_t k = 1; k <= v % 5; ++k) e.src.push_back((v + k * 31) % n), e.dst.push_back(v);
  for (bool ids64 : {false, true}) {
    SCOPED_TRACE(ids64 ? "64-bit ids" : "32-bit ids");
    const AnyGraph graph = build_variant(e, Orientation::kDirected, ids64);
    const RunRequest r = prepare_request(graph, make_request(a, Sources{}, {}));
    RunOutput out = run_on_gpu(graph, r, sharded());
    EXPECT_TRUE(agrees(a, out.values, run_on_cpu(graph, r).values));
    EXPECT_TRUE(passes_verifier(a, graph, r.sources, out.values, r.options));
    expect_shards(out, num_in_edges(graph));
    ASSERT_TRUE(out.stats.gpu && out.stats.gpu->gather_shards);
    EXPECT_EQ(out.stats.gpu->gather_shards->long_lists, 3u);
  }
}

// The hybrid engine gathers pages [0, k) on the GPU: the shards clipped to
// that range, its long lists alone in the chunked pass.
TEST(GpuGatherShards, HybridGpuShareGathersByShards) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  for (const std::string& shape : {"kron_large", "big_star_in", "urand_1"})
    for (double share : {0.3, 0.5, 0.9}) {
      AnyGraph graph = gpu_graph(shape, a, Orientation::kDirected, false);
      const RunRequest r = prepare_request(graph, make_request(a, Sources{}, {}));
      HybridOptions h;
      h.cpu_share = share;
      h.pages = 7;
      RunOutput out = run_on_hybrid(graph, r, sharded(), h);
      SCOPED_TRACE(shape + ", CPU share " + std::to_string(share));
      EXPECT_TRUE(agrees(a, out.values, cpu_result(graph, r, shape + ", directed")));
      EXPECT_TRUE(passes_verifier(a, graph, r.sources, out.values, r.options));
      ASSERT_TRUE(out.stats.hybrid);
      // The GPU's share may be no page at all (a CPU share of 0.9 on a star):
      // then it never gathered, and built nothing.
      ASSERT_TRUE(out.stats.gpu);
      EXPECT_EQ(out.stats.gpu->gather_shards.has_value(), out.stats.hybrid->pages_gpu > 0);
    }
}

TEST(GpuGatherShards, OnlyGathersBuildThemAndOnlyOnTheDevicePlacement) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph graph = gpu_graph("kron_large", algorithm("bfs"), Orientation::kUndirected, false);
  const RunRequest bfs = prepare_request(graph, make_request(algorithm("bfs"), Sources{0}, {}));
  RunOutput out = run_on_gpu(graph, bfs, sharded());
  ASSERT_TRUE(out.stats.gpu);
  EXPECT_FALSE(out.stats.gpu->gather_shards);
  EXPECT_TRUE(agrees(algorithm("bfs"), out.values, run_on_cpu(graph, bfs).values));
  GpuOptions zero_copy = sharded();
  zero_copy.placement = Placement::kZeroCopyAligned;
  try {
    run_on_gpu(graph, bfs, zero_copy);
    ADD_FAILURE() << "shards off the device placement ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--gather-layout shards needs the device placement"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tg::test::gpu
