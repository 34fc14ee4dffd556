// Edges of weight inf: SSSP never takes one, SSWP finds it unbounded wide.
// Small graphs with answers worked out by hand, on the CPU engine with 1 and
// 2 threads, each answer also passing the verifier; the verifiers refuse
// results that only an inf edge could explain; prepare_request accepts inf
// and refuses negative weights, with the error kinds the CLI maps to exit codes.
#include <gtest/gtest.h>

#include <limits>
#include <tuple>
#include <vector>

#include "algorithms/verifier.h"
#include "core/error.h"
#include "engines/run.h"
#include "graph/builder.h"
#include "support/algorithm_checks.h"
#include "support/thread_count.h"

namespace tg::test {
namespace {

const double kInf = std::numeric_limits<double>::infinity();
const float kInfF = std::numeric_limits<float>::infinity();

AnyGraph graph_of(uint64_t n, const std::vector<std::tuple<uint64_t, uint64_t, float>>& edges, bool in_edges = true) {
  EdgeList e;
  e.num_vertices = n;
  e.name = "inf-test";
  for (auto [u, v, w] : edges) {
    e.src.push_back(u);
    e.dst.push_back(v);
    e.weights.push_back(w);
  }
  BuildOptions options;
  options.in_edges = in_edges;
  return build_graph(std::move(e), options);
}

// 0 -inf-> 1, 0 -2-> 2 -3-> 1 -1-> 3, and 4 only over inf edges (from 0 and 3).
AnyGraph mixed() {
  return graph_of(5, {{0, 1, kInfF}, {0, 2, 2}, {2, 1, 3}, {1, 3, 1}, {0, 4, kInfF}, {3, 4, kInfF}});
}

RunOutput run(const AnyGraph& graph, const std::string& name, uint64_t source, double delta = 0) {
  RunRequest r = make_request(algorithm(name), {source});
  r.options.delta = delta;
  return run_on_cpu(graph, prepare_request(graph, r));
}

template <typename T>
const ResultVector<T>& as(const VertexValues& values) {
  return std::get<ResultVector<T>>(values);
}

TEST(InfWeights, SsspNeverTakesAnInfEdge) {
  AnyGraph g = mixed();
  for (int threads : {1, 2}) {
    ThreadCount scope(threads);
    RunOutput out = run(g, "sssp", 0);
    EXPECT_EQ(as<double>(out.values), (std::vector<double>{0, 5, 2, 6, kInf})) << threads << " threads";
    EXPECT_TRUE(passes_verifier(algorithm("sssp"), g, {0}, out.values, {}));
    EXPECT_TRUE(matches_reference(algorithm("sssp"), g, {0}, out.values, {}));
  }
  // From 1 nothing is reached but 3; 4 stays behind its inf edge.
  RunOutput from1 = run(g, "sssp", 1);
  EXPECT_EQ(as<double>(from1.values), (std::vector<double>{kInf, 0, kInf, 1, kInf}));
  EXPECT_TRUE(passes_verifier(algorithm("sssp"), g, {1}, from1.values, {}));
}

TEST(InfWeights, SswpInfEdgesAreUnboundedWide) {
  AnyGraph g = mixed();
  for (int threads : {1, 2}) {
    ThreadCount scope(threads);
    RunOutput out = run(g, "sswp", 0);
    EXPECT_EQ(as<float>(out.values), (std::vector<float>{kInfF, kInfF, 2, 1, kInfF})) << threads << " threads";
    EXPECT_TRUE(passes_verifier(algorithm("sswp"), g, {0}, out.values, {}));
    EXPECT_TRUE(matches_reference(algorithm("sswp"), g, {0}, out.values, {}));
  }
  RunOutput from2 = run(g, "sswp", 2);
  EXPECT_EQ(as<float>(from2.values), (std::vector<float>{0, 3, kInfF, 1, 1}));
  EXPECT_TRUE(passes_verifier(algorithm("sswp"), g, {2}, from2.values, {}));
}

TEST(InfWeights, OnlyInfEdges) {
  AnyGraph g = graph_of(3, {{0, 1, kInfF}, {1, 2, kInfF}}, false);
  RunRequest r = make_request(algorithm("sssp"), {0});
  EXPECT_EQ(prepare_request(g, r).options.delta, 1.0) << "no finite weight to take a mean of";
  RunOutput d = run(g, "sssp", 0);
  EXPECT_EQ(as<double>(d.values), (std::vector<double>{0, kInf, kInf}));
  EXPECT_TRUE(passes_verifier(algorithm("sssp"), g, {0}, d.values, {}));
  RunOutput w = run(g, "sswp", 0);
  EXPECT_EQ(as<float>(w.values), (std::vector<float>{kInfF, kInfF, kInfF}));
  EXPECT_TRUE(passes_verifier(algorithm("sswp"), g, {0}, w.values, {}));
}

TEST(InfWeights, DefaultDeltaIsTheMeanOfFiniteWeights) {
  RunRequest r = make_request(algorithm("sssp"), {0});
  EXPECT_EQ(prepare_request(mixed(), r).options.delta, 2.0);  // (2 + 3 + 1) / 3
}

TEST(InfWeights, ExtremeDeltasTerminate) {
  AnyGraph g = mixed();
  for (double delta : {1e-300, 1e300, kInf}) {
    RunOutput out = run(g, "sssp", 0, delta);
    EXPECT_EQ(as<double>(out.values), (std::vector<double>{0, 5, 2, 6, kInf})) << "delta " << delta;
    RunOutput wide = run(g, "sswp", 0, delta);  // the source's -inf key stays lowest, width inf too
    EXPECT_EQ(as<float>(wide.values), (std::vector<float>{kInfF, kInfF, 2, 1, kInfF})) << "delta " << delta;
  }
}

TEST(InfWeights, VerifiersRefuseWhatOnlyAnInfEdgeCouldExplain) {
  AnyGraph g = graph_of(2, {{0, 1, kInfF}});
  EXPECT_TRUE(passes_verifier(algorithm("sssp"), g, {0}, ResultVector<double>{0, kInf}, {}));
  Verification d = verify(algorithm("sssp"), g, {0}, ResultVector<double>{0, 5}, {});
  EXPECT_FALSE(d.ok) << "distance 5 over an inf edge";
  EXPECT_TRUE(passes_verifier(algorithm("sswp"), g, {0}, ResultVector<float>{kInfF, kInfF}, {}));
  Verification w = verify(algorithm("sswp"), g, {0}, ResultVector<float>{kInfF, 5}, {});
  EXPECT_FALSE(w.ok) << "width 5 behind an inf edge from the source";
}

TEST(InfWeights, NegativeWeightsAreStillRefused) {
  for (float bad : {-1.0f, -kInfF}) {
    AnyGraph g = graph_of(2, {{0, 1, bad}});
    for (const char* a : {"sssp", "sswp"}) {
      RunRequest r = make_request(algorithm(a), {0});
      try {
        prepare_request(g, r);
        ADD_FAILURE() << "accepted weight " << bad;
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::kInput) << e.what();
        EXPECT_NE(std::string(e.what()).find("non-negative"), std::string::npos) << e.what();
      }
    }
  }
}

// A request for another source takes the prepared one's options (the
// picked widths, the list order), and its own source is still checked.
TEST(PrepareRequest, LikeAnotherTakesItsOptionsAndChecksTheSource) {
  AnyGraph g = mixed();
  const RunRequest first = prepare_request(g, make_request(algorithm("sssp"), {0}));
  EXPECT_GT(first.options.delta, 0);  // picked from the weights
  const RunRequest second = prepare_request_like(g, make_request(algorithm("sssp"), {1}), first);
  EXPECT_EQ(second.sources, Sources{1});
  EXPECT_EQ(second.options.delta, first.options.delta);
  EXPECT_EQ(second.options.delta_narrow, first.options.delta_narrow);
  EXPECT_EQ(second.options.integer_weights, first.options.integer_weights);
  EXPECT_EQ(second.options.lists_by_weight, first.options.lists_by_weight);
  const RunRequest fresh = prepare_request(g, make_request(algorithm("sssp"), {1}));
  EXPECT_EQ(second.options.delta, fresh.options.delta);
  try {
    prepare_request_like(g, make_request(algorithm("sssp"), {5}), first);
    ADD_FAILURE() << "a source out of range passed";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
  }
  EXPECT_THROW(prepare_request_like(g, make_request(algorithm("bfs"), {1}), first), Error);
}

TEST(PrepareRequest, ErrorKinds) {
  auto kind_of = [](const AnyGraph& g, RunRequest r) {
    try {
      prepare_request(g, r);
    } catch (const Error& e) {
      return e.kind();
    }
    ADD_FAILURE() << "no error";
    return ErrorKind::kOther;
  };
  AnyGraph g = mixed();
  RunRequest far = make_request(algorithm("bfs"), {5});
  EXPECT_EQ(kind_of(g, far), ErrorKind::kUsage);
  RunRequest delta = make_request(algorithm("sssp"), {0});
  delta.options.delta = -1;
  EXPECT_EQ(kind_of(g, delta), ErrorKind::kUsage);
  RunRequest damping = make_request(algorithm("pagerank"));
  damping.options.damping = 1.5;
  EXPECT_EQ(kind_of(g, damping), ErrorKind::kUsage);
  EdgeList plain;
  plain.num_vertices = 2;
  plain.src = {0};
  plain.dst = {1};
  RunRequest unweighted = make_request(algorithm("sswp"), {0});
  EXPECT_EQ(kind_of(build_graph(std::move(plain), {}), unweighted), ErrorKind::kInput);
}

}  // namespace
}  // namespace tg::test
