// Betweenness centrality (bc.h): hand-computed dependencies on small graphs,
// sums over several sources, and a verifier that refuses corrupted results.
// Every shape and engine runs it through the registry's test matrices too
// (shapes_test.cc, accumulative_test.cc, the GPU tests).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "algorithms/bc.h"
#include "algorithms/verifier.h"
#include "engines/cpu/cpu_engine.h"
#include "engines/run.h"
#include "support/algorithm_checks.h"
#include "support/reference.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

const AlgorithmInfo& bc_info() { return algorithm("bc"); }

AnyGraph graph_of(uint64_t n, bool directed, const std::vector<std::pair<uint64_t, uint64_t>>& edges) {
  EdgeList e;
  e.num_vertices = n;
  e.directed = directed;
  for (auto [u, v] : edges) {
    e.src.push_back(u);
    e.dst.push_back(v);
  }
  return build_variant(e, directed ? Orientation::kDirected : Orientation::kUndirected, false);
}

ResultVector<double> run_bc(const AnyGraph& graph, const Sources& sources) {
  RunOutput out = run_on_cpu(graph, prepare_request(graph, make_request(bc_info(), sources)));
  return std::get<ResultVector<double>>(out.values);
}

TEST(Bc, HandComputedDependencies) {
  // Path 0 - 1 - 2 - 3: from 0, vertex 1 lies on the paths to 2 and 3, vertex 2 on the path to 3.
  AnyGraph path = graph_of(4, false, {{0, 1}, {1, 2}, {2, 3}});
  EXPECT_EQ(run_bc(path, {0}), (std::vector<double>{0, 2, 1, 0}));
  // Summed over every source: the betweenness, each ordered pair once.
  EXPECT_EQ(run_bc(path, {0, 1, 2, 3}), (std::vector<double>{0, 4, 4, 0}));
  // Diamond 0 -> {1, 2} -> 3: two shortest paths to 3 share the dependency.
  AnyGraph diamond = graph_of(4, true, {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
  EXPECT_EQ(run_bc(diamond, {0}), (std::vector<double>{0, 0.5, 0.5, 0}));
  // Star with centre 0 and 5 leaves, from leaf 1: the centre carries the 4 other leaves.
  AnyGraph star = graph_of(6, false, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}});
  EXPECT_EQ(run_bc(star, {1}), (std::vector<double>{4, 0, 0, 0, 0, 0}));
  // Unreached vertices and the source stay 0.
  AnyGraph apart = graph_of(5, true, {{0, 1}, {1, 2}, {3, 4}});
  EXPECT_EQ(run_bc(apart, {0}), (std::vector<double>{0, 1, 0, 0, 0}));
}

TEST(Bc, SeveralSourcesSumTheSingleRuns) {
  AnyGraph graph = build_variant(find_shape("kron_1").edges, Orientation::kDirected, false);
  Sources sources = test_sources(graph, 3, 17);
  ASSERT_GE(sources.size(), 3u);
  ResultVector<double> sum(num_vertices(graph), 0.0);
  for (uint64_t s : sources) {
    const ResultVector<double> one = run_bc(graph, {s});
    for (size_t v = 0; v < sum.size(); ++v) sum[v] += one[v];
  }
  VertexValues together = run_bc(graph, sources);
  EXPECT_TRUE(agrees(bc_info(), together, sum));
  EXPECT_TRUE(passes_verifier(bc_info(), graph, sources, together, {}));
}

TEST(Bc, AccumulativeFormFindsTheSameLevels) {
  AnyGraph graph = build_variant(find_shape("tied_layers").edges, Orientation::kUndirected, false);
  AlgorithmOptions accumulative;
  accumulative.accumulative = true;
  EXPECT_TRUE(runs_correctly(run_on_cpu, bc_info(), graph, {0}, accumulative));
  EXPECT_TRUE(runs_correctly(run_on_cpu, bc_info(), graph, {0, 5, 90}, accumulative));
}

TEST(Bc, OneOrManySourcesOnly) {
  AnyGraph graph = graph_of(3, false, {{0, 1}, {1, 2}});
  EXPECT_THROW(prepare_request(graph, make_request(bc_info(), {})), Error);
  EXPECT_THROW(prepare_request(graph, make_request(bc_info(), {0, 7})), Error);
  EXPECT_EQ(bc_info().traits.sources, SourceUse::kMany);
}

// ---- the verifier must fail on what a buggy engine might return ----

struct Corruption {
  std::string name;
  std::string shape;
  Orientation orientation;
  Sources sources;
  std::function<void(ResultVector<double>&)> corrupt;
};

// Test names show the case, not its bytes.
void PrintTo(const Corruption& c, std::ostream* os) { *os << c.name; }

class BcVerifierRejects : public ::testing::TestWithParam<Corruption> {};

TEST_P(BcVerifierRejects, Corruption) {
  const Corruption& c = GetParam();
  AnyGraph graph = build_variant(find_shape(c.shape).edges, c.orientation, false);
  VertexValues values = reference(bc_info(), graph, c.sources, {});
  ASSERT_TRUE(passes_verifier(bc_info(), graph, c.sources, values, {})) << "the correct result must pass";
  c.corrupt(std::get<ResultVector<double>>(values));
  Verification v = verify(bc_info(), graph, c.sources, values, {});
  EXPECT_FALSE(v.ok) << "the verifier accepted a corrupted result: " << v.message;
  EXPECT_EQ(v.message.find('\n'), std::string::npos) << v.message;
}

INSTANTIATE_TEST_SUITE_P(
    Verifier, BcVerifierRejects,
    ::testing::Values(
        Corruption{"source_not_zero", "path", Orientation::kDirected, {0}, [](auto& d) { d[0] = 1; }},
        Corruption{"plus_one", "tied_layers", Orientation::kDirected, {0}, [](auto& d) { d[10] += 1; }},
        Corruption{"relative_1e-6", "kron_1", Orientation::kUndirected, {0}, [](auto& d) {
                     for (double& x : d)
                       if (x > 0) {
                         x *= 1 + 1e-6;
                         break;
                       }
                   }},
        Corruption{"unreached_nonzero", "pieces", Orientation::kDirected, {3}, [](auto& d) { d[1] = 0.5; }},
        Corruption{"leaf_nonzero", "path", Orientation::kDirected, {0}, [](auto& d) { d[7] = 1; }},
        Corruption{"negative", "grid", Orientation::kUndirected, {0}, [](auto& d) { d[6] = -d[6] - 1; }},
        Corruption{"one_source_of_two", "grid", Orientation::kUndirected, {0, 19},
                   [](auto& d) { d = std::get<ResultVector<double>>(reference(bc_info(), build_variant(find_shape("grid").edges, Orientation::kUndirected, false), {0}, {})); }},
        Corruption{"sum_off_by_one", "kron_1", Orientation::kDirected, {0, 1, 2}, [](auto& d) { d[d.size() / 2] += 1; }},
        Corruption{"too_few_values", "path", Orientation::kDirected, {0}, [](auto& d) { d.pop_back(); }}),
    [](const ::testing::TestParamInfo<Corruption>& info) {
      std::string name = info.param.name;
      for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

}  // namespace
}  // namespace tg::test
