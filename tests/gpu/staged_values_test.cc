// The chunked gather with the first sources' values in a cluster's shared
// memory (engines/gpu/staged_values.h, TG_STAGED_VALUES): PageRank on every
// shape (in-hubs longer than a chunk among them) with the staging forced at
// several sizes, each against the CPU engine, and the staged count reported;
// the rule itself without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "engines/gpu/staged_values.h"
#include "gpu/gpu_checks.h"
#include "support/scoped_env.h"

namespace tg::test::gpu {
namespace {

using tg::gpu::staged_per_block_for;

TEST(GpuStagedValues, RuleStagesTheHubsValuesInGpuMemoryOnly) {
  const uint64_t n = uint64_t{1} << 25;
  EXPECT_EQ(staged_per_block_for(true, true, n, 4, -1), 32768u);  // 128 KiB of floats a block
  EXPECT_EQ(staged_per_block_for(true, true, n, 8, -1), 16384u);
  EXPECT_EQ(staged_per_block_for(true, false, n, 4, -1), 0u);  // ids not hubs first: the first are not hot
  EXPECT_EQ(staged_per_block_for(false, true, n, 4, -1), 0u);  // lists over a link: the link bounds
  EXPECT_EQ(staged_per_block_for(true, false, n, 4, 1000), 500u);
  EXPECT_EQ(staged_per_block_for(true, true, n, 4, 0), 0u);
  EXPECT_EQ(staged_per_block_for(false, true, n, 4, 1000), 0u);
  EXPECT_EQ(staged_per_block_for(true, true, 9, 4, -1), 4u);            // both blocks within the graph
  EXPECT_EQ(staged_per_block_for(true, true, n, 4, 1 << 30), 32768u);  // at most a block's bytes
}

TEST(GpuStagedValues, PageRankMatchesCpuOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  GpuOptions o;
  o.placement = Placement::kDevice;
  // 2: one value a block; 1000: more than the small shapes' vertices; 32768:
  // within a block's bytes for float and double contributions alike.
  for (const char* forced : {"2", "1000", "32768"}) {
    ScopedEnv env("TG_STAGED_VALUES", forced);
    pagerank_on_every_shape(o, std::string(", TG_STAGED_VALUES=") + forced,
                            [&](const RunOutput& out, const AnyGraph& graph) {
                              ASSERT_TRUE(out.stats.gpu);
                              const uint64_t n = num_vertices(graph);
                              const uint64_t per = std::min<uint64_t>(std::atoi(forced) / 2, n / 2);
                              if (out.stats.iterations > 0) EXPECT_EQ(out.stats.gpu->staged_values, 2 * per);
                            });
  }
}

// Double contributions (a tolerance finer than 1e-6) stage half as many
// values a block, through the same kernels.
TEST(GpuStagedValues, DoubleContributionsMatchCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  GpuOptions o;
  o.placement = Placement::kDevice;
  ScopedEnv env("TG_STAGED_VALUES", "1000");
  const AlgorithmInfo& a = algorithm("pagerank");
  AlgorithmOptions fine;
  fine.tolerance = 1e-9;
  for (const char* shape : {"big_star_in", "kron_large", "urand_1"}) {
    SCOPED_TRACE(shape);
    const AnyGraph graph = gpu_graph(shape, a, Orientation::kUndirected, false);
    const std::vector<RunRequest> requests = gpu_requests(graph, a, 1, fine);
    const std::vector<RunOutput> gpu = run_batch_on_gpu(graph, requests, o);
    expect_as_on_cpu(graph, requests, gpu, shape);
    ASSERT_TRUE(gpu.at(0).stats.gpu);
    EXPECT_EQ(gpu[0].stats.gpu->staged_values, std::min<uint64_t>(1000, num_vertices(graph) / 2 * 2));
  }
}

}  // namespace
}  // namespace tg::test::gpu
