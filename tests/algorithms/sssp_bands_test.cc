// SSSP by weight band (settle_in_order_by_band, algorithms/sssp.h): where
// every list is ordered by weight, a bucket's rounds relax its light edges
// and its settled vertices their heavy edges once. The GPU's resident
// placements run it (tests/gpu); here a CPU engine that honours the band
// hint as engines/engine.h states it (the edges inside the band alone, and
// short lists whole by the band from 0 and not at all by the others) runs
// the same loop: every distance equals the reference's, on every shape,
// orientation, weight kind, source and several widths.
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

// An operator relaxing only what an engine honouring its band reads: lists
// of up to kWhole entries whole in the band from 0 and not at all in the
// others (the GPU's rule is a warp's group of 32 from an aligned start:
// any rule that is the same in every band will do), longer ones inside it.
template <typename V, typename Op>
struct BandOnly {
  static constexpr bool needs_weights = true;
  static constexpr eid_t kWhole = 3;
  Op op;
  const eid_t* offsets;
  bool reads(V u, weight_t w) const {
    const WeightBand band = op.band();
    if (offsets[u + 1] - offsets[u] <= kWhole) return band.from <= 0;
    return band.holds(w);
  }
  bool cond(V v) const { return op.cond(v); }
  bool update(V u, V v, weight_t w) const { return reads(u, w) && op.update(u, v, w); }
  bool update_atomic(V u, V v, weight_t w) const { return reads(u, w) && op.update_atomic(u, v, w); }
};

template <typename V>
class BandCpuEngine : public CpuEngine<V> {
 public:
  BandCpuEngine(const Graph<V>& g) : CpuEngine<V>(g), offsets_(g.out.offsets.data()) {}
  bool walks_weight_bands() const { return true; }
  template <typename Op>
  typename CpuEngine<V>::Frontier edge_map(const typename CpuEngine<V>::Frontier& f, const Op& op, EdgeMapOptions options) {
    if constexpr (HasWeightBand<Op>) return CpuEngine<V>::edge_map(f, BandOnly<V, Op>{op, offsets_}, options);
    else return CpuEngine<V>::edge_map(f, op, options);
  }

 private:
  const eid_t* offsets_;
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
