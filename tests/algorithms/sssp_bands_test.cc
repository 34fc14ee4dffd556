// SSSP by weight band (settle_in_order_by_band, algorithms/sssp.h): where
// every list is ordered by weight, a bucket's rounds relax its light edges
// and its settled vertices their heavy edges once. The GPU's resident
// placements run it (tests/gpu); here a CPU engine that honours the band
// hint as engines/engine.h states it (the edges inside the band alone, and
// short lists whole by the band from 0 and not at all by the others) runs
// the same loop: every distance equals the reference's, on every shape,
// orientation, weight kind, source and several widths.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "algorithms/sssp.h"
#include "checkpoint/checkpoint.h"
#include "engines/cpu/cpu_engine.h"
#include "engines/buckets.h"
#include "formats/load_graph.h"
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
  std::atomic<uint64_t>* relaxed;  // edges read, for the work test below
  std::atomic<uint64_t>* turned;   // of those, the ones op.cond turned away (a final target)
  bool reads(V u, V v, weight_t w) const {
    const WeightBand band = op.band();
    const bool r = offsets[u + 1] - offsets[u] <= kWhole ? band.from <= 0 : band.holds(w);
    if (!r) return false;
    relaxed->fetch_add(1, std::memory_order_relaxed);
    if (op.cond(v)) return true;
    turned->fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  bool cond(V) const { return true; }  // asked in reads, after the band, as a GPU warp asks
  bool update(V u, V v, weight_t w) const { return reads(u, v, w) && op.update(u, v, w); }
  bool update_atomic(V u, V v, weight_t w) const { return reads(u, v, w) && op.update_atomic(u, v, w); }
};

template <typename V>
class BandCpuEngine : public CpuEngine<V> {
 public:
  BandCpuEngine(const Graph<V>& g) : CpuEngine<V>(g), offsets_(g.out.offsets.data()) {}
  bool walks_weight_bands() const { return true; }
  template <typename Op>
  typename CpuEngine<V>::Frontier edge_map(const typename CpuEngine<V>::Frontier& f, const Op& op, EdgeMapOptions options) {
    if constexpr (HasWeightBand<Op>)
      return CpuEngine<V>::edge_map(f, BandOnly<V, Op>{op, offsets_, &relaxed_, &turned_}, options);
    else return CpuEngine<V>::edge_map(f, op, options);
  }
  uint64_t relaxed() const { return relaxed_.load(); }
  uint64_t turned_away() const { return turned_.load(); }

 private:
  const eid_t* offsets_;
  std::atomic<uint64_t> relaxed_{0}, turned_{0};
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

// The work: on kron:16 with GAP's weights 1..255, the split relaxes each
// edge about once at narrow widths (every reached vertex's heavy edges
// once, its light ones once per change in its bucket), where the generic
// loop of the same engine relaxes whole lists each time. Before the buckets
// dropped the entries that fell into the bucket just settled, the split
// relaxed 2.0 edges an edge here (each bucket's heavy edges twice).
TEST(SsspBands, EachEdgeAboutOnceAtNarrowWidths) {
  LoadOptions lo;
  lo.build.random_weights = WeightRange{1, 255};
  lo.lists_by_weight = true;
  const AnyGraph graph = load_graph("kron:16", lo);
  const auto& g = std::get<Graph<vid32_t>>(graph);
  for (double width : {16.0, 32.0})
    for (vid32_t source : {vid32_t{1}, vid32_t{100}}) {
      AlgorithmOptions options;
      options.lists_by_weight = true;
      BandCpuEngine<vid32_t> split(g);
      const ResultVector<double> dist = sssp(split, source, width, options);
      ASSERT_TRUE(matches_reference(algorithm("sssp"), graph, {source}, VertexValues(dist), options));
      const double per_edge = double(split.relaxed()) / double(g.num_edges());
      EXPECT_LT(per_edge, 1.3) << "width " << width << ", source " << source;
      EXPECT_GT(per_edge, 0.5) << "width " << width << ", source " << source;  // most vertices are reached
      // Final targets turned away unread (settle_in_order_by_band's marks).
      const double turned = double(split.turned_away()) / double(split.relaxed());
      std::printf("width %g, source %u: %.3f edges relaxed an edge, %.3f of them to final targets\n", width, source,
                  per_edge, turned);
      EXPECT_GT(turned, 0.3) << "width " << width << ", source " << source;
    }
}

// The automatic width: the mean weight halved for an engine that prefers
// few steps and splits by band, scaled where the engine asks (a quarter on
// the subgraph placement); a width the user gave, lists by id, or a
// work-bound engine's narrow width are left as they are. ScaledWidthEngine
// prefers few steps and scales a picked width (ScalesBucketWidth), as the
// GPU engine's subgraph placement does.
template <typename V>
class ScaledWidthEngine : public CpuEngine<V> {
 public:
  static constexpr bool kPrefersFewSteps = true;
  ScaledWidthEngine(const Graph<V>& g, double scale) : CpuEngine<V>(g), scale_(scale) {}
  double bucket_width_scale() const { return scale_; }

 private:
  double scale_;
};

template <typename V>
class FewStepsBandEngine : public BandCpuEngine<V> {
 public:
  static constexpr bool kPrefersFewSteps = true;
  using BandCpuEngine<V>::BandCpuEngine;
};

TEST(SsspBands, PickedWideWidthHalvedWhereTheRunSplitsScaledWhereTheEngineAsks) {
  const AnyGraph graph = build_variant(with_weights(find_shape("path").edges, WeightKind::kInteger, 3),
                                       Orientation::kUndirected, false);
  const auto& g = std::get<Graph<vid32_t>>(graph);
  AlgorithmOptions picked;
  picked.delta = 128;
  picked.delta_narrow = 2;
  picked.lists_by_weight = true;
  AlgorithmOptions given = picked, by_id = picked;
  given.delta_narrow = 0;
  by_id.lists_by_weight = false;
  FewStepsBandEngine<vid32_t> few(g);
  BandCpuEngine<vid32_t> narrow(g);
  CpuEngine<vid32_t> plain(g);
  EXPECT_EQ(sssp_width(few, picked), 64.0);
  EXPECT_EQ(sssp_width(few, given), 128.0);
  EXPECT_EQ(sssp_width(few, by_id), 128.0);
  EXPECT_EQ(sssp_width(narrow, picked), 2.0);
  EXPECT_EQ(sssp_width(plain, picked), 2.0);
  ScaledWidthEngine<vid32_t> quarter(g, 0.25);  // a CPU engine walks no bands: a quarter, not halved
  EXPECT_EQ(sssp_width(quarter, picked), 32.0);
  EXPECT_EQ(sssp_width(quarter, given), 128.0);
  EXPECT_EQ(sssp_width(quarter, by_id), 32.0);
}

// A checkpoint names a bucket of the width that saved it: a run at another
// width (the subgraph placement's quarter, resumed on the device placement)
// resumes from every reached vertex and ends at the reference's distances.
// Saved every K buckets at width 2 (the picked 8 at a quarter), resumed at 8.
TEST(SsspBands, CheckpointOfAnotherWidthResumesExactly) {
  const AnyGraph graph = build_variant(with_weights(find_shape("kron_large").edges, WeightKind::kInteger, 5),
                                       Orientation::kUndirected, false);
  const auto& g = std::get<Graph<vid32_t>>(graph);
  AlgorithmOptions options;
  options.delta = 8;  // weights 1..9
  options.delta_narrow = 1;
  const CheckpointKey key = checkpoint_key(graph, "sssp", "width test", true);
  int resumed_with_work = 0;
  for (int every : {2, 3, 4, 5}) {
    const std::string dir = ::testing::TempDir() + "/tg_sssp_widths_" + std::to_string(every);
    std::filesystem::remove_all(dir);
    const Checkpointer saving(dir, every, false, key), resuming(dir, every, true, key);
    ScaledWidthEngine<vid32_t> narrow(g, 0.25), wide(g, 1);
    AlgorithmOptions first = options, second = options;
    first.checkpoint = &saving;
    second.checkpoint = &resuming;
    const vid32_t source = 0;
    const ResultVector<double> all = sssp(narrow, source, sssp_width(narrow, first), first);
    ASSERT_TRUE(matches_reference(algorithm("sssp"), graph, {source}, VertexValues(all), options)) << every;
    // The last checkpoint holds the state after the last multiple of K buckets settled.
    const ResultVector<double> rest = sssp(wide, source, sssp_width(wide, second), second);
    EXPECT_TRUE(matches_reference(algorithm("sssp"), graph, {source}, VertexValues(rest), options)) << every;
    resumed_with_work += wide.stats().edges_traversed > 0;
  }
  EXPECT_GT(resumed_with_work, 0);  // some checkpoint fell before the run's end
}

// The marks' bound: no value of bucket b lies below bucket_floor(b), and
// mark_final's bound is the candidate of that floor and the least heavy
// weight as the relax rounds it, with the floor taken to float rounding down.
TEST(SsspBands, BucketFloorIsBelowEveryMemberAndTheMarkBoundRoundsDown) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> value(0, 1e6);
  for (double width : {0.1, 0.5, 1.0, 3.0, 64.0, 64.7, 1e-3}) {
    for (int i = 0; i < 20000; ++i) {
      const double x = value(rng);
      const double b = bucket_of(x, width);
      ASSERT_LE(bucket_floor(b, width), x) << x << " at width " << width;
      ASSERT_GE(x, bucket_floor(b, width) - width);  // and not far below
    }
    const double exact = 3 * width;  // whatever float makes of it
    ASSERT_LE(bucket_floor(3, width), exact);
  }
  float dist[1] = {0};
  const SsspRelax<vid32_t, float> relax{dist};
  const double lowest = 16777217.0;  // not a float: float takes it down to 16777216
  EXPECT_EQ(relax.mark_final(nullptr, lowest, 1.0f).bound, 16777216.0f + 1.0f);
  const float below = relax.mark_final(nullptr, 0.1, 0.0f).bound;  // 0.1f is above 0.1
  EXPECT_EQ(below, std::nextafter(0.1f, 0.0f));
  EXPECT_LE(double(below), 0.1);
}

// FrontierBuckets: an entry whose key fell into the bucket just popped
// (settled with it) is not popped again as that bucket.
TEST(FrontierBucketsPop, DropsEntriesThatFellIntoTheLastBucket) {
  const AnyGraph graph = build_variant(find_shape("path").edges, Orientation::kUndirected, false);
  const auto& g = std::get<Graph<vid32_t>>(graph);
  CpuEngine<vid32_t> engine(g);
  auto keys = engine.make_array<double>(kNoBucket);
  const auto key = [k = engine.data(keys)](vid32_t v) { return k[v]; };
  engine.set(keys, vid32_t{0}, 0.0);
  engine.set(keys, vid32_t{1}, 3.0);
  engine.set(keys, vid32_t{2}, 5.0);
  auto buckets = make_buckets(engine, key);
  buckets.insert(engine.filter(engine.all(), [&](vid32_t v) { return key(v) < kNoBucket; }));
  auto [b0, first] = buckets.pop();
  EXPECT_EQ(b0, 0.0);
  EXPECT_EQ(engine.size(first), 1u);
  engine.set(keys, vid32_t{1}, 0.0);  // fell into bucket 0 while it was settled
  auto [b1, next] = buckets.pop();
  EXPECT_EQ(b1, 5.0);
  EXPECT_EQ(engine.size(next), 1u);
  EXPECT_EQ(buckets.pop().first, kNoBucket);
}

}  // namespace
}  // namespace tg::test
