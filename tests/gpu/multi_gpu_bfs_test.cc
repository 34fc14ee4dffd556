// BFS over several GPUs (`--gpus N`, src/distributed/gpu): on every GPU count
// this machine has (1 on the H100 machine, 1 and 2 on the x2 machine), on the
// test shapes in both orientations and a Kronecker graph, with thresholds
// that make every vertex a delegate (0), none (max), and the paper's rule,
// the depths equal the sequential reference's and pass the verifier.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "algorithms/algorithm.h"
#include "core/error.h"
#include "engines/run.h"
#include "generators/generators.h"
#include "graph/builder.h"
#include "gpu/gpu_checks.h"
#include "support/kronecker.h"
#include "support/reference.h"

namespace tg::test::gpu {
namespace {

int gpu_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
  return n;
}

// How many levels of all runs went bottom-up on some rank, how many
// pulled the normal frontier too, and how many crossed ranks each way
// (DistributedLevel::exchange; several GPUs only).
struct Pulls {
  int levels = 0, normals = 0;
  std::map<std::string, int> exchanges;
  void add(const Pulls& other) {
    levels += other.levels;
    normals += other.normals;
    for (const auto& [how, n] : other.exchanges) exchanges[how] += n;
  }
};
Pulls check_on_gpus(const AnyGraph& graph, const std::vector<std::optional<uint64_t>>& thresholds, int sources,
                    const std::string& what, AlgorithmOptions algorithm_options = {}) {
  Pulls pulled;
  const AlgorithmInfo& bfs = *find_algorithm("bfs");
  std::vector<RunRequest> requests;
  for (uint64_t s : test_sources(graph, sources, 41))
    requests.push_back(prepare_request(graph, make_request(bfs, {s}, algorithm_options)));
  if (requests.empty()) return pulled;
  for (int p = 1; p <= std::min(gpu_count(), 4); ++p)
    for (std::optional<uint64_t> th : thresholds) {
      GpuOptions options;
      options.gpus = p;
      options.delegate_threshold = th;
      const std::vector<RunOutput> outputs = run_batch_on_gpu(graph, requests, options);
      EXPECT_EQ(outputs.size(), requests.size());
      if (outputs.size() != requests.size()) return pulled;
      for (size_t i = 0; i < requests.size(); ++i) {
        const std::string where = what + ", " + std::to_string(p) + " GPUs, TH " +
                                  (th ? std::to_string(*th) : std::string("default")) + ", source " +
                                  std::to_string(requests[i].source());
        const auto& depth = std::get<ResultVector<int32_t>>(outputs[i].values);
        EXPECT_EQ(to_std_vector(depth), reference_bfs(graph, requests[i].source())) << where;
        EXPECT_TRUE(passes_verifier(bfs, graph, requests[i].sources, outputs[i].values, requests[i].options)) << where;
        if (!outputs[i].stats.distributed.has_value()) {
          ADD_FAILURE() << where << ": no distributed record";
          continue;
        }
        EXPECT_EQ(outputs[i].stats.distributed->gpus, p);
        EXPECT_EQ(outputs[i].stats.distributed->levels.size(), outputs[i].stats.iterations);
        EXPECT_GT(outputs[i].stats.phase("compute"), 0.0) << where;
        for (const DistributedLevel& l : outputs[i].stats.distributed->levels) {
          pulled.levels += l.ranks_pulling > 0 ? 1 : 0;
          pulled.normals += l.normals_pulled ? 1 : 0;
          if (p > 1) ++pulled.exchanges[l.exchange];
          else EXPECT_EQ(l.exchange, "") << where;
        }
      }
    }
  return pulled;
}

const std::vector<std::optional<uint64_t>> kThresholds = {0, 2, std::nullopt, std::numeric_limits<uint64_t>::max()};

class MultiGpuBfsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MultiGpuBfsTest, DepthsEqualTheReference) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const Shape& shape = find_shape(GetParam());
  for (Orientation o : {Orientation::kDirectedNoCsc, Orientation::kUndirected}) {
    SCOPED_TRACE(orientation_name(o));
    check_on_gpus(build_variant(shape.edges, o, false), kThresholds, 2, GetParam());
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, MultiGpuBfsTest, ::testing::ValuesIn(gpu_shapes()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// Thresholds that leave both delegates and nn edges, hubs whose lists run to
// thousands of edges, and 64-bit ids.
TEST(MultiGpuBfs, KroneckerWithMiddleThresholds) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  for (bool undirected : {true, false})
    check_on_gpus(kronecker(14, 11, undirected, BuildOptions{.force_64bit_ids = !undirected}), {4, 32, std::nullopt}, 4,
                  undirected ? "kron14 undirected" : "kron14 directed");
}

// The normal frontier bottom-up at every level (TG_MGPU_NORMALS_PULL=always;
// rank_bfs.cu's rule takes it only at the large levels): the same depths,
// and the levels say so on undirected graphs and never on directed ones,
// where nothing pulls.
class MultiGpuNormalsPull : public ::testing::Test {
 protected:
  void SetUp() override { setenv("TG_MGPU_NORMALS_PULL", "always", 1); }
  void TearDown() override { unsetenv("TG_MGPU_NORMALS_PULL"); }
};

TEST_F(MultiGpuNormalsPull, DepthsEqualTheReference) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  for (const char* name : {"path", "grid", "pieces", "big_star", "tied_layers", "random_1", "kron_large"})
    for (Orientation o : {Orientation::kDirectedNoCsc, Orientation::kUndirected}) {
      const std::string what = std::string(name) + "/" + orientation_name(o) + ", normals pulled";
      const Pulls pulls = check_on_gpus(build_variant(find_shape(name).edges, o, false), kThresholds, 2, what);
      if (o == Orientation::kUndirected) EXPECT_GT(pulls.normals, 0) << what;
      else EXPECT_EQ(pulls.normals, 0) << what;
    }
  EXPECT_GT(check_on_gpus(kronecker(14, 11, true), {4, 32, std::nullopt}, 4, "kron14 undirected, normals pulled").normals, 0);
}

// --push-only (AlgorithmOptions::push_only): no level pulls, neither the
// delegates nor the normals, even where the normals would be forced to;
// the same depths.
TEST_F(MultiGpuNormalsPull, PushOnlyNeverPulls) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  AlgorithmOptions push_only;
  push_only.push_only = true;
  for (bool undirected : {true, false}) {
    const Pulls pulls = check_on_gpus(kronecker(14, 11, undirected), {4, 32, std::nullopt}, 4,
                                      undirected ? "kron14 undirected, push only" : "kron14 directed, push only", push_only);
    EXPECT_EQ(pulls.levels, 0);
    EXPECT_EQ(pulls.normals, 0);
  }
}

// Past the run's peak a level of few normals sends its queues at a fixed
// length with the rows of lengths alone ("tail"), and the reached masks
// only where some rank reached a delegate ("tail+mask"); with
// TG_MGPU_TAIL_LEVELS=0 such levels go as before (lengths first). The same
// depths either way (check_on_gpus).
TEST(MultiGpuBfs, TailLevelsSendMasksOnlyWhereReached) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  if (gpu_count() < 2) GTEST_SKIP() << "one GPU: no level crosses ranks";
  Pulls with;
  for (const char* name : {"path", "grid", "pieces", "tied_layers", "random_1", "kron_large"})
    for (Orientation o : {Orientation::kDirectedNoCsc, Orientation::kUndirected})
      with.add(check_on_gpus(build_variant(find_shape(name).edges, o, false), kThresholds, 2,
                             std::string(name) + "/" + orientation_name(o) + ", tail levels"));
  for (bool undirected : {true, false})
    with.add(check_on_gpus(kronecker(14, 11, undirected), {4, 32, std::nullopt}, 4, "kron14, tail levels"));
  EXPECT_GT(with.exchanges["tail"], 0);
  EXPECT_GT(with.exchanges["tail+mask"], 0);
  EXPECT_GT(with.exchanges["small"], 0);
  setenv("TG_MGPU_TAIL_LEVELS", "0", 1);
  Pulls without;
  for (bool undirected : {true, false})
    without.add(check_on_gpus(kronecker(14, 11, undirected), {4, 32, std::nullopt}, 4, "kron14, no tail levels"));
  unsetenv("TG_MGPU_TAIL_LEVELS");
  EXPECT_EQ(without.exchanges.count("tail") + without.exchanges.count("tail+mask"), 0u);
  EXPECT_GT(without.exchanges["quiet"] + without.exchanges["queues"], 0);
}

// The rule alone pulls the normals at some large level of a Kronecker graph.
TEST(MultiGpuBfs, TheRulePullsTheNormalsOnKronecker) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  EXPECT_GT(check_on_gpus(kronecker(16, 5, true), {std::nullopt}, 4, "kron16 undirected").normals, 0);
}

TEST(MultiGpuBfs, MoreGpusThanPresentIsRefused) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const AnyGraph graph = build_variant(find_shape("path").edges, Orientation::kUndirected, false);
  GpuOptions options;
  options.gpus = gpu_count() + 1;
  const std::vector<RunRequest> requests = {prepare_request(graph, make_request(*find_algorithm("bfs"), {0}))};
  try {
    run_batch_on_gpu(graph, requests, options);
    FAIL() << "ran on " << options.gpus << " GPUs";
  } catch (const tg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("present"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tg::test::gpu
