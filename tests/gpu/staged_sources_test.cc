// Sources' values staged in shared memory by the gather kernels
// (kernels/gather.cuh, GatherArgs::staged_sources): the rule that picks the
// count (no GPU needed), and PageRank with 1, 100 and 5000 sources staged
// (TG_STAGED_SOURCES) on every GPU shape, orientation, id width and
// placement whose kernels stage, exactly as the same run with none staged
// (the same values summed in the same order) and as the CPU engine. The
// default on graphs numbered hubs first runs in GpuVertexOrder's tests
// (gpu_engine_test.cc). Skipped without a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "engines/gpu/staged_source_rule.h"
#include "gpu/gpu_checks.h"

namespace tg::test::gpu {
namespace {

TEST(GpuStagedSources, RuleStagesTheHubsInGpuMemoryOnly) {
  using tg::gpu::kStagedSourceBytes;
  using tg::gpu::staged_sources_for;
  const uint64_t n = uint64_t{1} << 25;
  EXPECT_EQ(staged_sources_for(true, true, true, n, 4, -1), kStagedSourceBytes / 4);
  EXPECT_EQ(staged_sources_for(true, true, true, n, 8, -1), kStagedSourceBytes / 8);
  EXPECT_EQ(staged_sources_for(true, false, true, n, 4, -1), 0u) << "ids not hubs first";
  EXPECT_EQ(staged_sources_for(false, true, true, n, 4, -1), 0u) << "over a link";
  EXPECT_EQ(staged_sources_for(true, true, true, 100, 4, -1), 100u) << "no more than the graph's vertices";
  EXPECT_EQ(staged_sources_for(false, false, true, n, 4, 37), 37u) << "forced";
  EXPECT_EQ(staged_sources_for(true, true, true, n, 4, 0), 0u) << "forced off";
  EXPECT_EQ(staged_sources_for(true, true, false, n, 4, 37), 0u) << "kernels that do not stage";
  EXPECT_EQ(staged_sources_for(true, true, true, n, 4, int64_t{1} << 40), tg::gpu::kMaxStagedSourceBytes / 4);
}

// TG_STAGED_SOURCES for one scope.
class StagedSources {
 public:
  explicit StagedSources(uint64_t count) { setenv("TG_STAGED_SOURCES", std::to_string(count).c_str(), 1); }
  ~StagedSources() { unsetenv("TG_STAGED_SOURCES"); }
};

TEST(GpuStagedSources, PageRankAsUnstagedAndAsOnCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  for (Placement p : {Placement::kDevice, Placement::kUvm, Placement::kZeroCopyMerged, Placement::kZeroCopyAligned})
    for (bool ids64 : {false, true})
      for (const std::string& shape : gpu_shapes())
        for (Orientation o : all_orientations()) {
          if (o == Orientation::kDirectedNoCsc) continue;  // the gather reads the CSC
          AnyGraph graph = gpu_graph(shape, a, o, ids64);
          const std::vector<RunRequest> requests = gpu_requests(graph, a, 1);
          GpuOptions options;
          options.placement = p;
          options.edge_cache = EdgeCacheMode::kOff;
          const std::string what = shape + ", " + orientation_name(o);
          SCOPED_TRACE(what + ", " + std::string(name_of(p)) + (ids64 ? ", 64-bit ids" : ""));
          std::vector<RunOutput> unstaged;
          {
            StagedSources none(0);
            unstaged = run_batch_on_gpu(graph, requests, options);
          }
          for (uint64_t count : {1, 100, 5000}) {
            StagedSources staged(count);
            std::vector<RunOutput> gpu = run_batch_on_gpu(graph, requests, options);
            expect_as_on_cpu(graph, requests, gpu, what);
            for (size_t i = 0; i < gpu.size(); ++i)
              EXPECT_TRUE(gpu[i].values == unstaged[i].values) << count << " staged";
          }
        }
}

}  // namespace
}  // namespace tg::test::gpu
