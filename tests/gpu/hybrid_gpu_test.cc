// The hybrid engine on a GPU (`--engine hybrid`): every algorithm on the
// GPU shapes in each orientation against the CPU engine and the verifier,
// on the device, zero-copy and subgraph placements, with the CPU's share fixed at 0,
// a half and 1 and chosen by the cost model; a generated Kronecker graph
// with a measured split; the refusals. Skipped without a GPU.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>

#include "core/error.h"
#include "formats/load_graph.h"
#include "gpu/gpu_checks.h"

namespace tg::test::gpu {
namespace {

HybridOptions with_share(std::optional<double> share) {
  HybridOptions h;
  h.cpu_share = share;
  h.pages = 7;
  return h;
}

GpuOptions placed(Placement p) {
  GpuOptions o;
  o.placement = p;
  return o;
}

void check(const AnyGraph& graph, const RunRequest& r, Placement p, std::optional<double> share,
           const std::string& what) {
  SCOPED_TRACE(what + ", " + r.algorithm->name() + " from " + describe_sources(r.sources) + ", share " +
               (share ? std::to_string(*share) : std::string("model")));
  RunOutput out = run_on_hybrid(graph, r, placed(p), with_share(share));
  EXPECT_EQ(out.engine, EngineKind::kHybrid);
  EXPECT_EQ(out.placement, p);
  EXPECT_TRUE(agrees(*r.algorithm, out.values, cpu_result(graph, r, what)));
  EXPECT_TRUE(passes_verifier(*r.algorithm, graph, r.sources, out.values, r.options));
  ASSERT_TRUE(out.stats.hybrid);
  const HybridStats& h = *out.stats.hybrid;
  // Every gather's edges, on one side or the other.
  if (r.algorithm->reads(r.options).in_edges == Need::kYes) {
    const uint64_t in_edges = num_in_edges(graph);
    EXPECT_EQ(h.edges_gpu + h.edges_cpu, out.stats.iterations * in_edges);
  }
  if (share && *share > 0 && *share < 1 && num_vertices(graph) > 1 &&
      r.algorithm->reads(r.options).in_edges == Need::kYes)
    EXPECT_EQ(h.gathers, out.stats.iterations);
  if (share && *share == 0) EXPECT_EQ(h.edges_cpu, 0u);
}

using Param = std::tuple<Placement, std::string>;
class HybridGpuMatrix : public ::testing::TestWithParam<Param> {};

TEST_P(HybridGpuMatrix, MatchesCpuOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const auto& [placement, name] = GetParam();
  const AlgorithmInfo& a = algorithm(name);
  const bool gathers = a.reads({}).in_edges == Need::kYes;
  std::vector<std::optional<double>> shares = {std::nullopt};
  if (gathers || name == "cc") shares = {0.0, 0.5, 1.0, std::nullopt};  // gathers and CC's links are split
  uint64_t seed = 3;
  for (const std::string& shape : gpu_shapes())
    for (Orientation o : all_orientations()) {
      if (o == Orientation::kDirectedNoCsc && gathers) continue;
      AnyGraph graph = gpu_graph(shape, a, o, false);
      for (const RunRequest& r : gpu_requests(graph, a, seed++))
        for (const auto& share : shares) check(graph, r, placement, share, shape + ", " + orientation_name(o));
    }
}

INSTANTIATE_TEST_SUITE_P(Hybrid, HybridGpuMatrix,
                         ::testing::Combine(::testing::Values(Placement::kDevice, Placement::kZeroCopyAligned,
                                                              Placement::kSubgraph),
                                            ::testing::ValuesIn(algorithm_names())),
                         [](const auto& info) {
                           return std::string(name_of(std::get<0>(info.param))).substr(0, 8) + "_" +
                                  std::get<1>(info.param);
                         });

TEST(HybridGpu, KroneckerPageRankSplitsAndAgrees) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  LoadOptions lo;
  lo.build.in_edges = true;
  AnyGraph graph = load_graph("kron:16", lo);
  RunRequest r = prepare_request(graph, make_request(algorithm("pagerank")));
  for (Placement p : {Placement::kDevice, Placement::kZeroCopyAligned, Placement::kSubgraph})
    for (std::optional<double> share : {std::optional<double>(0.4), std::optional<double>()}) {
      RunOutput out = run_on_hybrid(graph, r, placed(p), HybridOptions{.cpu_share = share});
      EXPECT_TRUE(agrees(*r.algorithm, out.values, cpu_result(graph, r, "kron:16")));
      ASSERT_TRUE(out.stats.hybrid);
      const HybridStats& h = *out.stats.hybrid;
      SCOPED_TRACE(std::string(name_of(p)) + ": " + details_json(out.stats).dump());
      EXPECT_EQ(h.edges_gpu + h.edges_cpu, out.stats.iterations * num_edges(graph));
      if (share) {
        EXPECT_EQ(h.gathers, out.stats.iterations);
        EXPECT_NEAR(h.last_cpu_share, 0.4, 0.05);
        EXPECT_GT(h.exchange_bytes, 0u);
      }
    }
}

// Over subgraph at a quarter budget most in-edge partitions are streamed,
// and the GPU's share [0, k) copies a partition across the cut only up to
// the cut (PartitionStreamer::run's `below`): the results agree at every
// share, and the edge bytes over the link fall with the GPU's share, below
// what whole partitions would move.
TEST(HybridGpu, SubgraphStreamsOnlyTheGpuShare) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  LoadOptions lo;
  lo.build.in_edges = true;
  AnyGraph graph = load_graph("kron:16", lo);
  RunRequest r = prepare_request(graph, make_request(algorithm("pagerank")));
  GpuOptions g = placed(Placement::kSubgraph);
  g.memory_budget = num_edges(graph) * sizeof(vid32_t) / 4;
  const VertexValues& values = cpu_result(graph, r, "kron:16");
  uint64_t last_bytes = UINT64_MAX;
  for (double share : {0.0, 0.2, 0.5, 0.8}) {
    RunOutput out = run_on_hybrid(graph, r, g, HybridOptions{.cpu_share = share});
    SCOPED_TRACE("share " + std::to_string(share) + ": " + details_json(out.stats).dump());
    EXPECT_TRUE(agrees(*r.algorithm, out.values, values));
    ASSERT_TRUE(out.stats.stream);
    EXPECT_GT(out.stats.stream->partitions, 4u) << "the budget streams most partitions";
    EXPECT_LT(out.stats.bytes_moved, last_bytes);
    last_bytes = out.stats.bytes_moved;
  }
}

// CC's links split between the GPU and the CPU threads (forest steps,
// docs/HYBRID.md) at a fixed share: the push of every edge, CC's form on a
// directed graph over subgraph (which cannot pull). On a symmetric graph
// every placement samples (subgraph by pushes of the lists' heads) and then
// links the edges outside the largest component: no step from every vertex
// that a share would split, so the GPU runs them alone.
TEST(HybridGpu, KroneckerCcSplitsItsLinks) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph graph = load_graph("kron:16", LoadOptions{});
  RunRequest r = prepare_request(graph, make_request(algorithm("cc")));
  for (Placement p : {Placement::kDevice, Placement::kZeroCopyAligned, Placement::kSubgraph})
    for (std::optional<double> share : {std::optional<double>(0.4), std::optional<double>()}) {
      RunOutput out = run_on_hybrid(graph, r, placed(p), HybridOptions{.cpu_share = share});
      EXPECT_TRUE(agrees(*r.algorithm, out.values, cpu_result(graph, r, "kron:16")));
      EXPECT_TRUE(passes_verifier(*r.algorithm, graph, r.sources, out.values, r.options));
      ASSERT_TRUE(out.stats.hybrid);
      SCOPED_TRACE(std::string(name_of(p)) + ": " + details_json(out.stats).dump());
      EXPECT_EQ(out.stats.hybrid->forest_steps, 0u);
      EXPECT_EQ(out.stats.iterations, 2u);  // the sample, then the rest
    }
  for (const std::string& shape : {"kron_large", "urand_1"}) {
    AnyGraph directed = gpu_graph(shape, algorithm("cc"), Orientation::kDirected, false);
    RunRequest d = prepare_request(directed, make_request(algorithm("cc")));
    RunOutput out = run_on_hybrid(directed, d, placed(Placement::kSubgraph), HybridOptions{.cpu_share = 0.4});
    SCOPED_TRACE(shape + ": " + details_json(out.stats).dump());
    EXPECT_TRUE(agrees(*d.algorithm, out.values, cpu_result(directed, d, "hybrid cc, directed " + shape)));
    EXPECT_TRUE(passes_verifier(*d.algorithm, directed, d.sources, out.values, d.options));
    ASSERT_TRUE(out.stats.hybrid);
    EXPECT_EQ(out.stats.hybrid->forest_steps, 1u);
    EXPECT_GT(out.stats.hybrid->edges_cpu, 0u);
    EXPECT_EQ(out.stats.iterations, 1u);  // every edge linked once
  }
}

TEST(HybridGpu, RefusesAsyncAndSeveralGpus) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph graph = gpu_graph("random_1", algorithm("pagerank"), Orientation::kUndirected, false);
  RunRequest r = prepare_request(graph, make_request(algorithm("pagerank")));
  GpuOptions async = placed(Placement::kSubgraph);
  async.async = true;
  EXPECT_THROW(run_on_hybrid(graph, r, async, {}), Error);
  GpuOptions two;
  two.gpus = 2;
  EXPECT_THROW(run_on_hybrid(graph, r, two, {}), Error);
}

}  // namespace
}  // namespace tg::test::gpu
