// Tier scores (features/tier_scores.h) against plain references over the
// edge list, and the order and relabelling they feed (graph/relabel.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/error.h"
#include "features/tier_scores.h"
#include "graph/builder.h"
#include "graph/relabel.h"
#include "support/reference.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

// (src, dst) of every stored edge.
std::vector<std::pair<uint64_t, uint64_t>> edges_of(const AnyGraph& graph) {
  std::vector<std::pair<uint64_t, uint64_t>> e;
  std::visit(
      [&](const auto& g) {
        for (uint64_t u = 0; u < g.num_vertices; ++u)
          for (eid_t i = g.out.offsets[u]; i < g.out.offsets[u + 1]; ++i) e.emplace_back(u, g.out.neighbors[i]);
      },
      graph);
  return e;
}

// Algorithm 2 of the dissertation, over the edge list.
std::vector<double> plain_weighted_reverse_pagerank(const AnyGraph& graph, const std::vector<uint64_t>& train,
                                                    int iterations, double d) {
  const uint64_t n = num_vertices(graph);
  const auto edges = edges_of(graph);
  std::vector<double> score(n, 1.0 / static_cast<double>(n)), in_degree(n, 0);
  for (const auto& [u, v] : edges) in_degree[v] += 1;
  for (uint64_t t : train) score[t] *= static_cast<double>(n) / static_cast<double>(train.size());
  for (int it = 0; it < iterations; ++it) {
    for (uint64_t v = 0; v < n; ++v) score[v] = in_degree[v] > 0 ? score[v] / in_degree[v] : 0;
    std::vector<double> pulled(n, 0);
    for (const auto& [u, v] : edges) pulled[u] += score[v];
    for (uint64_t u = 0; u < n; ++u) score[u] = (1 - d) / static_cast<double>(n) + d * pulled[u];
  }
  return score;
}

AnyGraph reversed_copy(const Shape& shape, Orientation o) {
  EdgeList e = shape.edges;
  std::swap(e.src, e.dst);
  return build_variant(e, o, false);
}

class TierScoresTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TierScoresTest, EachScoreEqualsItsReference) {
  const Shape& shape = find_shape(GetParam());
  for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
    const AnyGraph graph = build_variant(shape.edges, o, false);
    const uint64_t n = num_vertices(graph);
    if (n == 0) continue;
    const std::string where = GetParam() + " " + orientation_name(o);

    const std::vector<double> degree = tier_scores(graph, {TierScore::kDegree});
    for (uint64_t v = 0; v < n; ++v)
      EXPECT_EQ(degree[v], std::visit([&](const auto& g) { return static_cast<double>(g.out.degree(v)); }, graph)) << where;

    // PageRank of the reversed graph, built from the reversed edge list.
    const std::vector<double> rpr = tier_scores(graph, {TierScore::kReversePageRank});
    const std::vector<double> expected =
        reference_pagerank(o == Orientation::kUndirected ? graph : reversed_copy(shape, o), AlgorithmOptions{});
    for (uint64_t v = 0; v < n; ++v) EXPECT_NEAR(rpr[v], expected[v], 1e-6) << where << ", vertex " << v;

    std::vector<uint64_t> train;
    for (uint64_t v = 0; v < n; v += 3) train.push_back(v);
    for (const std::vector<uint64_t>& t : {std::vector<uint64_t>{}, train}) {
      const std::vector<double> w =
          tier_scores(graph, {TierScore::kWeightedReversePageRank, t, 5, 0.85});
      const std::vector<double> plain = plain_weighted_reverse_pagerank(graph, t, 5, 0.85);
      for (uint64_t v = 0; v < n; ++v) EXPECT_NEAR(w[v], plain[v], 1e-12 * std::max(1.0, plain[v])) << where;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, TierScoresTest, ::testing::ValuesIn(shape_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(TierScores, OrderIsDescendingWithTiesByIdAndRefusalsAreOneLine) {
  const std::vector<double> s = {1, 3, 3, 0, 2};
  EXPECT_EQ(order_by_score(s), (std::vector<uint64_t>{1, 2, 4, 0, 3}));
  const AnyGraph graph = build_variant(find_shape("path").edges, Orientation::kUndirected, false);
  auto refusal = [&](const TierScoreOptions& o) -> std::string {
    try {
      tier_scores(graph, o);
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      return e.what();
    }
    return "";
  };
  EXPECT_NE(refusal({TierScore::kWeightedReversePageRank, {999999}}).find("train id 999999"), std::string::npos);
  EXPECT_NE(refusal({TierScore::kWeightedReversePageRank, {}, 0}).find("iterations 0"), std::string::npos);
  EXPECT_NE(refusal({TierScore::kReversePageRank, {}, 5, 1.0}).find("damping"), std::string::npos);
  EXPECT_EQ(parse_tier_score("weighted-reverse-pagerank"), TierScore::kWeightedReversePageRank);
  EXPECT_FALSE(parse_tier_score("pagerank").has_value());
}

// Relabelling by a random permutation maps every edge (with its weight) and
// nothing else; the in-edges follow; a non-permutation is refused.
TEST(Relabel, EveryEdgeMapsAndNothingElse) {
  for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
    EdgeList e = with_weights(find_shape("kron_large").edges, WeightKind::kInteger, 3);
    const AnyGraph graph = build_variant(e, o, false);
    const uint64_t n = num_vertices(graph);
    std::vector<uint64_t> order(n);
    std::iota(order.begin(), order.end(), uint64_t{0});
    std::shuffle(order.begin(), order.end(), std::mt19937_64(5));
    std::vector<uint64_t> new_of(n);
    for (uint64_t i = 0; i < n; ++i) new_of[order[i]] = i;
    const AnyGraph r = relabel(graph, order);
    auto weighted_edges = [](const AnyGraph& g, bool in) {
      std::multiset<std::tuple<uint64_t, uint64_t, weight_t>> s;
      std::visit(
          [&](const auto& x) {
            const auto& c = in ? x.in_edges() : x.out;
            for (uint64_t u = 0; u < x.num_vertices; ++u)
              for (eid_t i = c.offsets[u]; i < c.offsets[u + 1]; ++i) s.emplace(u, c.neighbors[i], c.weights[i]);
          },
          g);
      return s;
    };
    for (bool in : {false, true}) {
      std::multiset<std::tuple<uint64_t, uint64_t, weight_t>> mapped;
      for (const auto& [u, v, w] : weighted_edges(graph, in)) mapped.emplace(new_of[u], new_of[v], w);
      EXPECT_EQ(weighted_edges(r, in), mapped) << orientation_name(o) << (in ? " in-edges" : " out-edges");
    }
  }
  const AnyGraph small = build_variant(find_shape("path").edges, Orientation::kUndirected, false);
  const uint64_t n = num_vertices(small);
  std::vector<uint64_t> bad(n, 0);
  EXPECT_THROW(relabel(small, bad), Error);
  EXPECT_THROW(relabel(small, std::vector<uint64_t>(n - 1, 0)), Error);
}

}  // namespace
}  // namespace tg::test
