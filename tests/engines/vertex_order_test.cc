// Runs on a renumbered graph (engines/vertex_order.h, `--vertex-order
// degree`): every algorithm, from the shapes' test sources, renumbered hubs
// first on the CPU engine and put back, equals the sequential reference on the
// graph as built and passes its verifier (cc's labels included: each the
// smallest of the graph's own ids in its component). The order puts higher
// out-degrees first, ties by id; the renumbering keeps every edge with its
// weight, sorts lists by new id, or by weight where they were.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "engines/vertex_order.h"
#include "graph/relabel.h"
#include "graph/weight_order.h"
#include "support/algorithm_checks.h"
#include "support/shapes.h"
#include "support/usage_errors.h"

namespace tg::test {
namespace {

TEST(VertexOrder, EveryAlgorithmMatchesTheReferenceInTheGraphsOwnIds) {
  for (const Shape& shape : all_shapes()) {
    for (Orientation o : all_orientations()) {
      for (const AlgorithmInfo* a : all_algorithms()) {
        SCOPED_TRACE(shape.name + ", " + orientation_name(o) + ", " + a->name());
        const EdgeList edges = a->needs_weights() ? with_weights(shape.edges, WeightKind::kWithInf, 7) : shape.edges;
        const AnyGraph graph = build_variant(edges, o, shape.name.find("kron") != std::string::npos);
        // A form that gathers over in-edges needs the CSC of a directed graph.
        if (o == Orientation::kDirectedNoCsc && a->reads({}).in_edges == Need::kYes) continue;
        const Renumbering r = renumber(graph, VertexOrder::kDegree);
        const EngineRunner renumbered = [&](const AnyGraph&, const RunRequest& q) {
          return run_renumbered(r, q, run_on_cpu);
        };
        if (!a->needs_source()) {
          EXPECT_TRUE(runs_correctly(renumbered, *a, graph, {}));
          continue;
        }
        for (uint64_t s : test_sources(graph, 2, 11)) EXPECT_TRUE(runs_correctly(renumbered, *a, graph, {s}));
      }
    }
  }
}

TEST(VertexOrder, DegreesDescendTiesByIdAndEveryVertexOnce) {
  for (const char* name : {"kron_large", "big_star", "isolated"}) {
    const AnyGraph graph = build_variant(find_shape(name).edges, Orientation::kDirected, false);
    const auto& g = std::get<Graph<vid32_t>>(graph);
    const std::vector<uint64_t> order = degree_order(graph);
    std::vector<uint64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    std::vector<uint64_t> ids(g.num_vertices);
    std::iota(ids.begin(), ids.end(), uint64_t{0});
    EXPECT_EQ(sorted, ids) << name;
    for (size_t i = 1; i < order.size(); ++i) {
      const auto before = g.out.degree(order[i - 1]), here = g.out.degree(order[i]);
      EXPECT_TRUE(before > here || (before == here && order[i - 1] < order[i])) << name << " at " << i;
    }
  }
}

// numbered_by_degree (the GPU's pull threshold reads it): true after the
// renumbering, false for the shapes as built where some degree rises.
TEST(VertexOrder, NumberedByDegreeAfterTheRenumberingOnly) {
  for (const char* name : {"kron_large", "big_star"}) {
    const AnyGraph graph = build_variant(find_shape(name).edges, Orientation::kDirected, false);
    const auto& g = std::get<Graph<vid32_t>>(graph);
    bool rises = false;
    for (uint64_t v = 1; v < g.num_vertices; ++v) rises = rises || g.out.degree(v) > g.out.degree(v - 1);
    EXPECT_EQ(numbered_by_degree(g.out, g.num_vertices), !rises) << name;
    const AnyGraph renumbered = relabel(graph, degree_order(graph));
    const auto& r = std::get<Graph<vid32_t>>(renumbered);
    EXPECT_TRUE(numbered_by_degree(r.out, r.num_vertices)) << name;
  }
  Graph<vid32_t> empty;
  EXPECT_FALSE(numbered_by_degree(empty.out, 3));  // offsets of the wrong length
}

template <typename V>
void expect_lists_sorted(const Csr<V>& c, bool by_weight, const std::string& what) {
  for (uint64_t u = 0; u + 1 < c.offsets.size(); ++u) {
    std::vector<std::tuple<weight_t, V>> by_w;
    std::vector<std::tuple<V, weight_t>> by_id;
    for (eid_t e = c.offsets[u]; e < c.offsets[u + 1]; ++e) {
      by_w.emplace_back(c.weights[e], c.neighbors[e]);
      by_id.emplace_back(c.neighbors[e], c.weights[e]);
    }
    if (by_weight) EXPECT_TRUE(std::is_sorted(by_w.begin(), by_w.end())) << what << ", list " << u;
    else EXPECT_TRUE(std::is_sorted(by_id.begin(), by_id.end())) << what << ", list " << u;
  }
}

TEST(VertexOrder, ListsComeOutByNewIdOrByWeightWhereTheyWere) {
  for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
    for (bool ids64 : {false, true}) {
      for (bool by_weight : {false, true}) {
        const std::string what = std::string(orientation_name(o)) + (ids64 ? ", 64-bit" : ", 32-bit") +
                                 (by_weight ? ", by weight" : ", by id");
        AnyGraph graph = build_variant(with_weights(find_shape("kron_large").edges, WeightKind::kWithInf, 3), o, ids64);
        if (by_weight) order_lists_by_weight(graph);
        const Renumbering r = renumber(graph, VertexOrder::kDegree);
        EXPECT_EQ(lists_ordered_by_weight(r.graph), by_weight) << what;
        std::visit(
            [&](const auto& g) {
              expect_lists_sorted(g.out, by_weight, what + ", out");
              if (g.directed) expect_lists_sorted(g.in, by_weight, what + ", in");
            },
            r.graph);
      }
    }
  }
}

TEST(VertexOrder, AResultOfAnotherSizeIsRefused) {
  const AnyGraph graph = build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false);
  const Renumbering r = renumber(graph, VertexOrder::kDegree);
  RunOutput out;
  out.values = ResultVector<double>(3);
  EXPECT_THROW(to_old_ids(out, algorithm("pagerank"), r), Error);
  expect_usage_error([&] { renumber(graph, VertexOrder::kAsLoaded); }, "needs no renumbering");
}

}  // namespace
}  // namespace tg::test
