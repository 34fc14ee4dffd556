// The chunked gather with the first sources' values in a cluster's shared
// memory (engines/gpu/staged_values.h, TG_STAGED_VALUES): PageRank on every
// shape (in-hubs longer than a chunk among them) with the staging forced at
// several sizes, each against the CPU engine, and the staged count reported;
// the rule itself without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "engines/gpu/staged_values.h"
#include "gpu/gpu_checks.h"

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

class ForcedStaging {
 public:
  explicit ForcedStaging(const char* values) { setenv("TG_STAGED_VALUES", values, 1); }
  ~ForcedStaging() { unsetenv("TG_STAGED_VALUES"); }
};

TEST(GpuStagedValues, PageRankMatchesCpuOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  GpuOptions o;
  o.placement = Placement::kDevice;
  // 2: one value a block; 1000: more than the small shapes' vertices; 32768:
  // within a block's bytes for float and double contributions alike.
  for (const char* forced : {"2", "1000", "32768"}) {
    ForcedStaging env(forced);
    pagerank_on_every_shape(o, std::string(", TG_STAGED_VALUES=") + forced,
                            [&](const RunOutput& out, const AnyGraph& graph) {
                              ASSERT_TRUE(out.stats.gpu);
                              const uint64_t n = num_vertices(graph);
                              const uint64_t per = std::min<uint64_t>(std::atoi(forced) / 2, n / 2);
                              if (out.stats.iterations > 0) EXPECT_EQ(out.stats.gpu->staged_values, 2 * per);
                            });
  }
}

}  // namespace
}  // namespace tg::test::gpu
