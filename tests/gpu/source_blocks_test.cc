// Source-blocked gathers on the device placement (engines/gpu/source_blocks.h,
// --source-blocks): PageRank with the in-edges cut into 2, 3, 7 and 32 source
// blocks on every GPU shape, each orientation and id width, against the CPU
// engine and the verifier; the hybrid engine's GPU share over them; the
// blocks' statistics; and a graph whose lists are not sorted, which must
// gather in one pass and still agree. Skipped without a GPU.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engines/gpu/source_block_rule.h"
#include "gpu/gpu_checks.h"

namespace tg::test::gpu {
namespace {

GpuOptions blocked(int blocks) {
  GpuOptions o;
  o.placement = Placement::kDevice;
  o.source_blocks = blocks;
  return o;
}

// Every gather edge counted once, whatever the passes.
void expect_blocks(const RunOutput& out, int blocks, uint64_t n) {
  ASSERT_TRUE(out.stats.gpu);
  ASSERT_TRUE(out.stats.gpu->source_blocks) << "a gather ran: the blocks were asked for";
  const SourceBlockStats& b = *out.stats.gpu->source_blocks;
  EXPECT_EQ(b.blocks, blocks) << b.note;
  EXPECT_EQ(b.block_vertices, (n + blocks - 1) / blocks);
  EXPECT_GT(b.bytes, 0u);
}

TEST(GpuSourceBlocks, PageRankMatchesCpuOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  for (int blocks : {2, 3, 7, 32})
    pagerank_on_every_shape(blocked(blocks), ", " + std::to_string(blocks) + " blocks",
                            [&](const RunOutput& out, const AnyGraph& graph) {
                              const uint64_t in_edges = num_in_edges(graph);
                              if (in_edges > 0 && out.stats.iterations > 0) {
                                expect_blocks(out, blocks, num_vertices(graph));
                                EXPECT_EQ(out.stats.edges_traversed, out.stats.iterations * in_edges);
                              }
                            });
}

// The auto rule needs no GPU: a block's 4-byte values fill at most three
// quarters of the L2.
TEST(GpuSourceBlocks, AutoRuleFillsTheL2) {
  const uint64_t h100_l2 = 50u << 20;
  EXPECT_EQ(tg::gpu::source_blocks_for(0, uint64_t{1} << 25, h100_l2), 4);  // kron:25: measured best
  EXPECT_EQ(tg::gpu::source_blocks_for(0, h100_l2 * 3 / 16, h100_l2), 1);   // fits: one pass
  EXPECT_EQ(tg::gpu::source_blocks_for(0, h100_l2 * 3 / 16 + 1, h100_l2), 2);
  EXPECT_EQ(tg::gpu::source_blocks_for(0, uint64_t{1} << 40, h100_l2), tg::gpu::kMaxSourceBlocks);
  EXPECT_EQ(tg::gpu::source_blocks_for(1, uint64_t{1} << 25, h100_l2), 1);
  EXPECT_EQ(tg::gpu::source_blocks_for(5, 10, h100_l2), 5);
  EXPECT_EQ(tg::gpu::source_blocks_for(40, 10, h100_l2), tg::gpu::kMaxSourceBlocks);
  EXPECT_EQ(tg::gpu::source_blocks_for(0, uint64_t{1} << 25, 0), 1);  // no L2 reported: none
}

TEST(GpuSourceBlocks, AutoRuleKeepsOnePassWhereTheFirstBlockHoldsMostEntries) {
  EXPECT_TRUE(tg::gpu::crowded_in_first_block(75, 100));
  EXPECT_FALSE(tg::gpu::crowded_in_first_block(74, 100));
  EXPECT_FALSE(tg::gpu::crowded_in_first_block(50, 100));  // 2 blocks, spread evenly
  EXPECT_FALSE(tg::gpu::crowded_in_first_block(0, 0));
  EXPECT_TRUE(tg::gpu::crowded_in_first_block(uint64_t{1} << 40, uint64_t{1} << 40));
}

// 2^24 vertices need 2 or more blocks on any L2 below 85 MB; a hub pointing at
// every vertex puts each in-list's one entry in the hub's block: numbered
// first, every entry reads the first block (auto then gathers in one pass),
// numbered last, none does (auto builds the blocks). Both agree with the CPU.
TEST(GpuSourceBlocks, AutoGathersInOnePassWhereTheHubIsInTheFirstBlock) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  const uint64_t n = uint64_t{1} << 24;
  for (uint64_t hub : {uint64_t{0}, n - 1}) {
    EdgeList e;
    e.num_vertices = n;
    for (uint64_t v = 0; v < n; ++v)
      if (v != hub) e.src.push_back(hub), e.dst.push_back(v);
    const AnyGraph graph = build_variant(e, Orientation::kDirected, false);
    AlgorithmOptions o;
    o.max_iters = 3;
    const RunRequest r = prepare_request(graph, make_request(a, Sources{}, o));
    RunOutput out = run_on_gpu(graph, r, blocked(0));
    ASSERT_TRUE(out.stats.gpu && out.stats.gpu->source_blocks);
    const SourceBlockStats& b = *out.stats.gpu->source_blocks;
    if (hub == 0) {
      EXPECT_EQ(b.blocks, 0) << b.note;
      EXPECT_NE(b.note.find("first block"), std::string::npos) << b.note;
    } else {
      EXPECT_GE(b.blocks, 2) << b.note;
    }
    EXPECT_TRUE(agrees(a, out.values, run_on_cpu(graph, r).values)) << "hub " << hub;
  }
}

TEST(GpuSourceBlocks, HybridGpuShareGathersByBlocks) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  for (const std::string& shape : {"kron_large", "big_star_in", "urand_1"}) {
    AnyGraph graph = gpu_graph(shape, a, Orientation::kDirected, false);
    const RunRequest r = prepare_request(graph, make_request(a, Sources{}, {}));
    HybridOptions h;
    h.cpu_share = 0.5;
    h.pages = 7;
    RunOutput out = run_on_hybrid(graph, r, blocked(5), h);
    SCOPED_TRACE(shape);
    EXPECT_TRUE(agrees(a, out.values, cpu_result(graph, r, shape + ", directed")));
    EXPECT_TRUE(passes_verifier(a, graph, r.sources, out.values, r.options));
    expect_blocks(out, 5, num_vertices(graph));
  }
}

TEST(GpuSourceBlocks, AutoAndOffGatherInOnePassOnSmallGraphs) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  AnyGraph graph = gpu_graph("kron_large", a, Orientation::kUndirected, false);
  const RunRequest r = prepare_request(graph, make_request(a, Sources{}, {}));
  for (int blocks : {0, 1}) {
    RunOutput out = run_on_gpu(graph, r, blocked(blocks));
    ASSERT_TRUE(out.stats.gpu && out.stats.gpu->source_blocks);
    EXPECT_EQ(out.stats.gpu->source_blocks->blocks, 0);
    EXPECT_NE(out.stats.gpu->source_blocks->note.find(blocks == 0 ? "L2" : "off"), std::string::npos)
        << out.stats.gpu->source_blocks->note;
  }
  // A run that never gathers builds nothing.
  const RunRequest bfs = prepare_request(graph, make_request(algorithm("bfs"), Sources{0}, {}));
  RunOutput out = run_on_gpu(graph, bfs, blocked(4));
  ASSERT_TRUE(out.stats.gpu);
  EXPECT_FALSE(out.stats.gpu->source_blocks);
}

// The blocks' binary searches need sorted lists: a list out of order is
// found during the build, and the gather reads the lists as they are.
TEST(GpuSourceBlocks, UnsortedListsGatherInOnePass) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  AnyGraph graph = gpu_graph("kron_large", a, Orientation::kUndirected, false);
  auto& g = std::get<Graph<uint32_t>>(graph);
  uint64_t swapped = 0;
  for (uint64_t v = 0; v < g.num_vertices && swapped < 10; ++v) {
    const eid_t b = g.out.offsets[v], e = g.out.offsets[v + 1];
    if (e - b >= 2 && g.out.neighbors[b] != g.out.neighbors[e - 1]) {
      std::swap(g.out.neighbors[b], g.out.neighbors[e - 1]);
      ++swapped;
    }
  }
  ASSERT_GT(swapped, 0u);
  const RunRequest r = prepare_request(graph, make_request(a, Sources{}, {}));
  RunOutput out = run_on_gpu(graph, r, blocked(4));
  ASSERT_TRUE(out.stats.gpu && out.stats.gpu->source_blocks);
  EXPECT_EQ(out.stats.gpu->source_blocks->blocks, 0);
  EXPECT_NE(out.stats.gpu->source_blocks->note.find("not sorted"), std::string::npos);
  EXPECT_TRUE(agrees(a, out.values, run_on_cpu(graph, r).values));
  EXPECT_TRUE(passes_verifier(a, graph, r.sources, out.values, r.options));
}

}  // namespace
}  // namespace tg::test::gpu
