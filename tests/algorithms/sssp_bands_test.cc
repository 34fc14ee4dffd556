// SSSP by weight band (settle_in_order_by_band, algorithms/sssp.h): where
// every list is ordered by weight, a bucket's rounds relax its light edges
// and its settled vertices their heavy edges once. The GPU's resident
// placements run it (tests/gpu); here a CPU engine that says it walks bands
// (its edge_map reads whole lists, and the operator turns the other edges
// away) runs the same loop: every distance equals the reference's, on every
// shape, orientation, weight kind, source and several widths.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "algorithms/sssp.h"
#include "engines/cpu/cpu_engine.h"
#include "graph/weight_order.h"
#include "support/algorithm_checks.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

template <typename V>
class BandCpuEngine : public CpuEngine<V> {
 public:
  using CpuEngine<V>::CpuEngine;
  bool walks_weight_bands() const { return true; }
};
static_assert(WalksWeightBands<BandCpuEngine<vid32_t>>);
static_assert(!WalksWeightBands<CpuEngine<vid32_t>>);

TEST(SsspBands, DistancesEqualTheReferenceOnOrderedLists) {
  const AlgorithmInfo& sssp_info = algorithm("sssp");
  int runs = 0;
  for (const Shape& shape : all_shapes())
    for (Orientation o : {Orientation::kDirectedNoCsc, Orientation::kUndirected})
      for (WeightKind kind : all_weight_kinds()) {
        AnyGraph graph = build_variant(with_weights(shape.edges, kind, 11), o, false);
        order_lists_by_weight(graph);
        const std::string what = shape.name + "/" + orientation_name(o) + "/" + weight_kind_name(kind);
        if (num_edges(graph) > 0) ASSERT_TRUE(lists_ordered_by_weight(graph)) << what;
        for (uint64_t source : test_sources(graph, 1, 5))
          for (double width : {0.5, 2.0, 7.0}) {
            AlgorithmOptions options;
            options.lists_by_weight = true;
            const ResultVector<double> dist = std::visit(
                [&](const auto& g) {
                  using V = typename std::decay_t<decltype(g)>::vertex_t;
                  BandCpuEngine<V> engine(g);
                  return sssp(engine, static_cast<V>(source), width, options);
                },
                graph);
            EXPECT_TRUE(matches_reference(sssp_info, graph, {source}, VertexValues(dist), options))
                << what << ", source " << source << ", width " << width;
            ++runs;
          }
      }
  EXPECT_GT(runs, 500);
}

}  // namespace
}  // namespace tg::test
