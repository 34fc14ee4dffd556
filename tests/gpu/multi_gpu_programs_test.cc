// CC, SSSP and PageRank over several GPUs (`--gpus N`, src/distributed/gpu):
// on 1, 2 and up to 4 GPUs where present, on the test shapes (integer
// weights) and a Kronecker graph, with thresholds that make every vertex a
// delegate (0), none (max), and the paper's rule: CC's labels equal the
// sequential union-find's, SSSP's distances Dijkstra's, PageRank agrees with
// the CPU engine within the registry's agreement, and all pass their
// verifiers. One batch runs them all and BFS, so the drivers' switch from one
// program to the next is tested too.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

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

// 1, 2 and the most present up to 4: each count is a new NCCL group (most of
// a run's time on these graphs); 3 ranks are in the host programs' tests.
std::vector<int> gpu_counts() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return {};
  std::vector<int> counts;
  for (int p : {1, 2, std::min(n, 4)})
    if (p <= n && (counts.empty() || counts.back() < p)) counts.push_back(p);
  return counts;
}

void check_programs(const AnyGraph& graph, const std::vector<std::optional<uint64_t>>& thresholds,
                    const std::string& what, Placement placement = Placement::kAuto) {
  const bool directed = std::visit([](const auto& g) { return g.directed; }, graph);
  std::vector<RunRequest> requests;
  if (!directed) requests.push_back(prepare_request(graph, make_request(*find_algorithm("cc"))));
  requests.push_back(prepare_request(graph, make_request(*find_algorithm("pagerank"))));
  for (uint64_t s : test_sources(graph, 2, 43))
    requests.push_back(prepare_request(graph, make_request(*find_algorithm("sssp"), {s})));
  requests.push_back(prepare_request(graph, make_request(*find_algorithm("bfs"), {0})));
  for (int p : gpu_counts())
    for (std::optional<uint64_t> th : thresholds) {
      GpuOptions options;
      options.gpus = p;
      options.delegate_threshold = th;
      options.placement = placement;
      const std::vector<RunOutput> outputs = run_batch_on_gpu(graph, requests, options);
      ASSERT_EQ(outputs.size(), requests.size());
      for (size_t i = 0; i < requests.size(); ++i) {
        const RunRequest& r = requests[i];
        const std::string where = what + ", " + r.algorithm->name() + ", " + std::to_string(p) + " GPUs, TH " +
                                  (th ? std::to_string(*th) : std::string("default"));
        if (r.algorithm->name() == "cc")
          EXPECT_EQ(to_std_vector(std::get<ResultVector<uint64_t>>(outputs[i].values)), reference_cc(graph)) << where;
        else if (r.algorithm->name() == "sssp")
          EXPECT_EQ(to_std_vector(std::get<ResultVector<double>>(outputs[i].values)), reference_sssp(graph, r.source()))
              << where << ", from " << r.source();
        else
          EXPECT_TRUE(agrees(*r.algorithm, outputs[i].values, cpu_result(graph, r, what))) << where;
        EXPECT_TRUE(passes_verifier(*r.algorithm, graph, r.sources, outputs[i].values, r.options)) << where;
        ASSERT_TRUE(outputs[i].stats.distributed.has_value()) << where;
        EXPECT_EQ(outputs[i].stats.distributed->gpus, p);
        EXPECT_EQ(outputs[i].stats.distributed->parts_in_host_memory, is_zero_copy(placement) ? p : 0) << where;
        EXPECT_EQ(outputs[i].stats.distributed->levels.size(), outputs[i].stats.iterations) << where;
        // PageRank over parts in host memory reads every stored edge's entry
        // (4 or 8 bytes) once a round, over the links; nothing where in GPU memory.
        const uint64_t host_bytes = outputs[i].stats.distributed->host_bytes_read();
        if (r.algorithm->name() == "pagerank" && is_zero_copy(placement)) {
          const uint64_t round_edges = num_edges(graph) * outputs[i].stats.iterations;
          EXPECT_GE(host_bytes, 4 * round_edges) << where;
          EXPECT_LE(host_bytes, 8 * round_edges) << where;
        } else if (r.algorithm->name() == "pagerank") {
          EXPECT_EQ(host_bytes, 0u) << where;
        }
        EXPECT_GT(outputs[i].stats.phase("compute"), 0.0) << where;
      }
    }
}

const std::vector<std::optional<uint64_t>> kThresholds = {0, std::nullopt, std::numeric_limits<uint64_t>::max()};

class MultiGpuProgramsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MultiGpuProgramsTest, EqualTheReference) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const Shape& shape = find_shape(GetParam());
  // Directed with its CSC: the partition reads out-edges only, the CPU
  // engine's PageRank, the reference, pulls over in-edges.
  for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
    SCOPED_TRACE(orientation_name(o));
    check_programs(build_variant(with_weights(shape.edges, WeightKind::kInteger, 9), o, false), kThresholds,
                   GetParam() + "/" + orientation_name(o));
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, MultiGpuProgramsTest, ::testing::ValuesIn(gpu_shapes()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// Kronecker with weights 1..255; directed ones with 64-bit ids and their
// CSC (the CPU engine's PageRank, the reference, pulls).
AnyGraph kron(int scale, uint64_t seed, bool undirected) {
  BuildOptions options;
  options.random_weights = WeightRange{1, 255};
  options.force_64bit_ids = !undirected;
  options.in_edges = !undirected;
  return kronecker(scale, seed, undirected, options);
}

// Hubs of thousands of edges (lists that span many push chunks), both kinds
// of edges crossing ranks, 64-bit ids on the directed graph.
TEST(MultiGpuPrograms, KroneckerWithMiddleThresholds) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  for (bool undirected : {true, false})
    check_programs(kron(14, 12, undirected), {4, 32, std::nullopt}, undirected ? "kron14 undirected" : "kron14 directed");
}

// Every rank's lists left in host memory and read by zero-copy (registered
// in place), the rest as in GPU memory.
TEST(MultiGpuPrograms, PartsInHostMemory) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  check_programs(kron(12, 14, true), {std::nullopt, 8}, "kron12 in host memory", Placement::kZeroCopyAligned);
}

TEST(MultiGpuPrograms, CcOnADirectedGraphIsRefused) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const AnyGraph graph = build_variant(find_shape("path").edges, Orientation::kDirectedNoCsc, false);
  GpuOptions options;
  options.gpus = 1;
  const std::vector<RunRequest> requests = {prepare_request(graph, make_request(*find_algorithm("cc")))};
  try {
    run_batch_on_gpu(graph, requests, options);
    FAIL() << "cc ran on a directed graph";
  } catch (const tg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("undirected"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tg::test::gpu
