// The GPU sampler (sampling/gpu_sampler.h) against the CPU one: on every
// test shape, directed and undirected, 32- and 64-bit ids, the graph in GPU
// memory and read from host memory by zero-copy, with and without
// replacement, one to three hops (fanout -1 included), the hops must be
// identical, local numbering included; a batch crossing the numbering's
// 2^32 limit is not reached here, bad seeds are refused as on the CPU.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "gpu/gpu_checks.h"
#include "sampling/gpu_sampler.h"
#include "sampling/neighbor_sampler.h"
#include "support/shapes.h"

namespace tg::test::gpu {
namespace {

void expect_same(const std::vector<SampledHop>& cpu, const std::vector<SampledHop>& gpu, const std::string& what) {
  ASSERT_EQ(cpu.size(), gpu.size()) << what;
  for (size_t k = 0; k < cpu.size(); ++k) {
    EXPECT_EQ(cpu[k].dst_nodes, gpu[k].dst_nodes) << what << ", hop " << k;
    EXPECT_EQ(cpu[k].src_nodes, gpu[k].src_nodes) << what << ", hop " << k;
    EXPECT_EQ(cpu[k].edge_src, gpu[k].edge_src) << what << ", hop " << k;
    EXPECT_EQ(cpu[k].edge_dst, gpu[k].edge_dst) << what << ", hop " << k;
  }
}

// Up to `count` distinct vertices, in a random order.
std::vector<uint64_t> random_seeds(uint64_t n, uint64_t count, uint64_t seed) {
  std::vector<uint64_t> all(n);
  for (uint64_t i = 0; i < n; ++i) all[i] = i;
  std::shuffle(all.begin(), all.end(), std::mt19937_64(seed));
  all.resize(std::min(n, count));
  return all;
}

TEST(GpuSampler, SameHopsAsTheCpuOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const std::vector<std::vector<int>> fanout_sets = {{3}, {2, 2}, {-1}, {5, 3, 2}, {1, -1}};
  int checked = 0;
  for (const Shape& shape : all_shapes())
    for (Orientation orientation : {Orientation::kDirected, Orientation::kUndirected})
      for (bool ids64 : {false, true}) {
        if (ids64 && shape.name.find("kron") == std::string::npos && shape.name != "path") continue;
        const AnyGraph graph = build_variant(shape.edges, orientation, ids64);
        const uint64_t n = num_vertices(graph);
        for (bool zero_copy : {false, true}) {
          GpuNeighborSampler sampler(graph, {0, zero_copy});
          for (const auto& fanouts : fanout_sets)
            for (bool replace : {false, true}) {
              const SampleOptions o{fanouts, replace, 1234u + static_cast<uint64_t>(checked)};
              const std::vector<uint64_t> seeds = random_seeds(n, 64, o.seed);
              const std::string what = shape.name + " " + orientation_name(orientation) + (ids64 ? " ids64" : "") +
                                       (zero_copy ? " zero-copy" : " in GPU memory") + (replace ? " replace" : "") +
                                       ", " + std::to_string(fanouts.size()) + " hops, first fanout " +
                                       std::to_string(fanouts[0]);
              expect_same(sample_neighbors(graph, seeds, o), sampler.sample(seeds, o), what);
              ++checked;
            }
        }
      }
  EXPECT_GT(checked, 500);
}

TEST(GpuSampler, RefusesWhatTheCpuRefuses) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const AnyGraph graph = build_variant(find_shape("path").edges, Orientation::kUndirected, false);
  GpuNeighborSampler sampler(graph, {});
  const uint64_t n = num_vertices(graph);
  EXPECT_THROW(sampler.sample({n}, {{2}, false, 1}), Error);
  EXPECT_THROW(sampler.sample({1, 1}, {{2}, false, 1}), Error);
  EXPECT_THROW(sampler.sample({1}, {{0}, false, 1}), Error);
  EXPECT_THROW(sampler.sample({1}, {{}, false, 1}), Error);
  EXPECT_TRUE(sampler.sample({}, {{2}, false, 1})[0].src_nodes.empty());
}

}  // namespace
}  // namespace tg::test::gpu
