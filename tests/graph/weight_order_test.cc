// Lists ordered by weight (graph/weight_order.h): each list keeps its edges
// and comes out ascending by weight, ties by id; the check tells an ordered
// graph from an unordered one, and an unweighted graph is never ordered.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "graph/weight_order.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

template <typename V>
std::vector<std::pair<weight_t, V>> list_of(const Csr<V>& csr, uint64_t u) {
  std::vector<std::pair<weight_t, V>> l;
  for (eid_t j = csr.offsets[u]; j < csr.offsets[u + 1]; ++j) l.emplace_back(csr.weights[j], csr.neighbors[j]);
  return l;
}

TEST(WeightOrder, ListsKeepTheirEdgesInWeightOrder) {
  for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
    const EdgeList edges = with_weights(find_shape("random_1").edges, WeightKind::kInteger, 3);
    const AnyGraph before = build_variant(edges, o, false);
    AnyGraph after = build_variant(edges, o, false);
    EXPECT_FALSE(lists_ordered_by_weight(before)) << orientation_name(o);
    order_lists_by_weight(after);
    EXPECT_TRUE(lists_ordered_by_weight(after)) << orientation_name(o);
    const auto& b = std::get<Graph<vid32_t>>(before);
    const auto& a = std::get<Graph<vid32_t>>(after);
    for (const auto [bc, ac] : {std::pair{&b.out, &a.out}, std::pair{&b.in, &a.in}}) {
      if (!bc->built()) continue;
      ASSERT_EQ(bc->offsets.size(), ac->offsets.size());
      for (uint64_t u = 0; u < b.num_vertices; ++u) {
        auto want = list_of(*bc, u);
        std::sort(want.begin(), want.end());  // by weight, then id
        EXPECT_EQ(list_of(*ac, u), want) << orientation_name(o) << ", vertex " << u;
      }
    }
  }
}

// light_sublists: each list's entries under the bound, in their order, on
// many shapes and bounds (none, some, all); both id widths.
TEST(LightSublists, EachListsEntriesUnderTheBoundInOrder) {
  for (const char* shape : {"random_1", "kron_large", "star_out"}) {
    const EdgeList edges = with_weights(find_shape(shape).edges, WeightKind::kInteger, 7);
    for (bool wide : {false, true}) {
      const AnyGraph any = build_variant(edges, Orientation::kDirected, wide);
      std::visit(
          [&](const auto& g) {
            using V = typename std::decay_t<decltype(g)>::vertex_t;
            for (weight_t below : {0.0f, 1.0f, 3.5f, 1e9f}) {
              const Csr<V> light = light_sublists(g.out, g.num_vertices, below);
              ASSERT_EQ(light.offsets.size(), g.num_vertices + 1);
              eid_t kept = 0;
              for (uint64_t u = 0; u < g.num_vertices; ++u) {
                std::vector<std::pair<weight_t, V>> want;
                for (auto [w, v] : list_of(g.out, u))
                  if (w < below) want.emplace_back(w, v);
                EXPECT_EQ(list_of(light, u), want) << shape << ", vertex " << u << ", below " << below;
                kept += want.size();
              }
              EXPECT_EQ(light.num_edges(), kept);
              if (below > 1e8f) EXPECT_EQ(kept, g.out.num_edges());
              if (below == 0.0f) EXPECT_EQ(kept, 0u);
            }
          },
          any);
    }
  }
}

TEST(WeightOrder, UnweightedIsNeverOrdered) {
  const AnyGraph graph = build_variant(find_shape("random_1").edges, Orientation::kUndirected, false);
  EXPECT_FALSE(lists_ordered_by_weight(graph));
}

TEST(WeightOrder, ALargeGraphIsCheckedPastItsFirstLists) {
  // More vertices than the check looks at alone, one list out of order near the end.
  EdgeList e;
  e.num_vertices = 10000;
  for (uint64_t v = 0; v + 1 < e.num_vertices; ++v) {
    e.src.push_back(v);
    e.dst.push_back(v + 1);
    e.weights.push_back(1.0f);
  }
  e.src.push_back(9990);
  e.dst.push_back(0);
  e.weights.push_back(2.0f);  // 9990's list by id: (0, 2) then (9991, 1): out of weight order
  BuildOptions options;
  AnyGraph path = build_graph(std::move(e), options);
  EXPECT_FALSE(lists_ordered_by_weight(path));
  order_lists_by_weight(path);
  EXPECT_TRUE(lists_ordered_by_weight(path));
}

// -0 and +0 weigh the same: their ties go by id, whichever sign comes first.
TEST(WeightOrder, SignedZerosTieById) {
  EdgeList e;
  e.num_vertices = 6;
  e.directed = true;
  for (auto [dst, w] : {std::pair{1u, 1.0f}, std::pair{2u, 0.0f}, std::pair{5u, -0.0f}}) {
    e.src.push_back(0);
    e.dst.push_back(dst);
    e.weights.push_back(w);
  }
  AnyGraph graph = build_graph(std::move(e), BuildOptions{});
  order_lists_by_weight(graph);
  const auto& g = std::get<Graph<vid32_t>>(graph);
  const std::vector<std::pair<weight_t, vid32_t>> got = list_of(g.out, 0);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].second, 2u);
  EXPECT_FALSE(std::signbit(got[0].first));
  EXPECT_EQ(got[1].second, 5u);
  EXPECT_TRUE(std::signbit(got[1].first));
  EXPECT_EQ(got[2].second, 1u);
}

}  // namespace
}  // namespace tg::test
