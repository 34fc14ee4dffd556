// Single-source shortest paths on non-negative weights: delta-stepping
// [Meyer and Sanders, J. Algorithms 2003]: vertices wait in buckets of
// distance width delta, nearest first (algorithms/settle_in_order.h). On
// the CPU the buckets are per-thread bins, as in GAP; elsewhere a near and a
// far frontier (Davidson et al., IPDPS 2014).
// An edge of weight inf is never taken: its candidate, inf, is never below a
// distance, so only vertices of finite distance ever enter near or far.
// Verified by sssp_verifier.cc.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/describe.h"
#include "checkpoint/vertex_state.h"
#include "algorithms/settle_in_order.h"
#include "core/atomics.h"
#include "engines/buckets.h"
#include "engines/engine.h"
#include "graph/weight_order.h"

namespace tg {

// D: the distance type, double, or float where the sums are exact (below).
// `edges`: the weight band settle_in_order_by_band needs relaxed (the band
// hint of engines/engine.h; all by default). The operator does not turn the
// others away: relaxing an edge is always safe, and an engine that honours
// the hint reads some short lists whole in the light band.
// `final_marks`: where set (settle_in_order_by_band), a byte per vertex, 1
// where the distance is final and no relaxation can lower it: cond turns
// such a target away before its distance is read (on kron:25 a 33.5 MB
// array read in place of 268 MB of distances).
template <typename V, typename D = double>
struct SsspRelax {
  static constexpr bool needs_weights = true;
  D* dist;
  WeightBand edges = {};
  const uint8_t* final_marks = nullptr;

  TG_HD WeightBand band() const { return edges; }
  SsspRelax with_band(WeightBand b) const { return {dist, b, final_marks}; }
  SsspRelax with_final(const uint8_t* marks) const { return {dist, edges, marks}; }
  TG_HD bool cond(V v) const { return final_marks == nullptr || final_marks[v] == 0; }
  TG_HD bool update(V u, V v, weight_t w) const {
    D candidate = dist[u] + w;
    if (candidate < dist[v]) {
      dist[v] = candidate;
      return true;
    }
    return false;
  }
  TG_HD bool update_atomic(V u, V v, weight_t w) const { return atomic_min(&dist[v], D(dist[u] + w)); }
  void prefetch(V v) const { __builtin_prefetch(dist + v); }

  // For settle_in_order_by_band: the marker that sets `marks[v]` where no
  // edge of weight `from` or more out of a vertex at `lowest` or above can
  // lower v's distance: the candidate update_atomic would compute from the
  // two, fl(lowest + from), rounded as it rounds, is at least dist[v] (a
  // rounded sum never falls as either term grows). `lowest` is taken to D
  // rounding down.
  struct MarkFinal {
    const D* dist;
    uint8_t* marks;
    D bound;
    TG_HD void operator()(V v) const {
      if (dist[v] <= bound) marks[v] = 1;
    }
  };
  MarkFinal mark_final(uint8_t* marks, double lowest, weight_t from) const {
    D low = static_cast<D>(lowest);
    if (static_cast<double>(low) > lowest) low = std::nextafter(low, -std::numeric_limits<D>::infinity());
    return {dist, marks, D(low + from)};
  }
};

// The bucket of a vertex: floor(dist / delta), inf while unreached.
template <typename D = double>
struct DistanceBucket {
  const D* dist;
  double delta;
  template <typename V>
  TG_HD double operator()(V v) const {
    return bucket_of(static_cast<double>(dist[v]), delta);
  }
  template <typename V>
  void prefetch(V v) const {
    __builtin_prefetch(dist + v);
  }
};

// Float holds every whole number up to 2^24 exactly.
constexpr float kExactFloatBelow = 16777216.0f;

// 1 for a finite distance at or beyond kExactFloatBelow, else 0.
struct BeyondExactFloat {
  const float* dist;
  template <typename V>
  TG_HD double operator()(V v) const {
    return dist[v] >= kExactFloatBelow && dist[v] != std::numeric_limits<float>::infinity() ? 1.0 : 0.0;
  }
};

// The width of a run split over an engine's light lists (KeepsLightLists),
// and the weight its reads ask them under (EdgeReads::light_below): a picked
// width is a quarter of the mean weight (the subgraph placement's unsplit
// width), a given one itself. kron:25 at a quarter budget on the H200, one
// source: 213.8 ms at a quarter (32), 250.3 at an eighth (16), whose light
// rounds are twice as many (docs/PERF.md, session 31).
constexpr double kLightListsWidthOfMean = 0.25;
inline double light_lists_width(const AlgorithmOptions& options) {
  return options.delta_narrow > 0 ? options.delta * kLightListsWidthOfMean : options.delta;
}

// Whether the run splits each bucket's light and heavy edges
// (settle_in_order_by_band): lists ordered by weight, on an engine that
// reads a band of them alone; or an engine that keeps the light entries
// apart under a weight at or above the run's width.
template <typename Engine>
bool splits_over_light_lists(const Engine& engine, const AlgorithmOptions& options) {
  if constexpr (KeepsLightLists<Engine>) {
    // In weight_t, as the band's ends are (settle_in_order_by_band).
    const weight_t below = engine.light_lists_below();
    return options.checkpoint == nullptr && below > 0 && static_cast<weight_t>(light_lists_width(options)) <= below;
  } else {
    return false;
  }
}
template <typename Engine>
bool splits_by_band(const Engine& engine, const AlgorithmOptions& options) {
  if (splits_over_light_lists(engine, options)) return true;
  if constexpr (WalksWeightBands<Engine>)
    return options.lists_by_weight && options.checkpoint == nullptr && engine.walks_weight_bands();
  else
    return false;
}

// The width a run takes (bucket_width), halved where it is the wide one
// (the mean weight, for an engine that prefers few steps), picked (not
// given), and the run splits by band: the light rounds then read light
// prefixes alone, and narrower buckets pay. kron:25, weights 1..255, the
// H100 (docs/PERF.md, session 16): in GPU memory 90.3 / 91.6 / 100.0 ms at
// widths 32 / 64 / 128 (the mean), over zero-copy at a quarter budget 465.7
// / 423.0 at 32 / 64.
// An engine whose rounds move the lists they re-read scales a picked width
// further (ScalesBucketWidth: the GPU engine's subgraph placement, a quarter).
// Over light lists, the width they were kept apart for (light_lists_width).
template <typename Engine>
double sssp_width(const Engine& engine, const AlgorithmOptions& options) {
  if (splits_over_light_lists(engine, options)) return light_lists_width(options);
  const double width = bucket_width<Engine>(options);
  const bool picked = options.delta_narrow > 0;  // a --delta given leaves it 0
  if (!PrefersFewSteps<Engine> || !picked) return width;
  double scale = splits_by_band(engine, options) ? 0.5 : 1.0;
  if constexpr (ScalesBucketWidth<Engine>) scale *= engine.bucket_width_scale();
  return width * scale;
}

// The distances computed in D; none where float's may not be exact.
template <typename D, typename Engine>
std::optional<ResultVector<double>> sssp_in(Engine& engine, typename Engine::vertex_t source, double delta,
                                            const AlgorithmOptions& options) {
  using V = typename Engine::vertex_t;
  auto dist = engine.template make_array<D>(std::numeric_limits<D>::infinity());
  engine.set(dist, source, D{0});
  const DistanceBucket<D> key{engine.data(dist), delta};
  const SsspRelax<V, D> relax{engine.data(dist)};
  if (splits_by_band(engine, options))
    settle_in_order_by_band(engine, engine.single(source), key, relax, delta);
  else
    settle_in_order(engine, engine.single(source), key, relax, engine.data(dist), std::numeric_limits<D>::infinity(),
                    options, "sssp");
  if constexpr (std::is_same_v<D, float>) {
    if (engine.vertex_sum(BeyondExactFloat{engine.data(dist)}) > 0) return std::nullopt;
  }
  return engine.template to_host<double>(dist);
}

// With whole-number weights (integer_weights) every distance is a whole
// number, and float distances are exact while they stay below 2^24: a path
// whose true length is below 2^24 has every prefix below it, so its sums
// are exact, and a rounded sum (at or above 2^24) never undercuts one below.
// So a run in float whose finite distances all lie below 2^24 equals the
// run in double; otherwise the run is repeated in double. Half the bytes of
// the array every relaxation reads at random (GAP's distances are 4-byte
// integers). Only engines that do not prefer few steps take it: on the GPU
// (its kernels compiled for float too) kron:25 in GPU memory took 67.9 ms
// against 62.4 in double, session 16: a random read costs a 32-byte sector
// whatever the value's size, and neither array fits the L2.
// Checkpoints (settle_in_order_checkpointed: an iteration is a bucket) hold
// the distances of the attempt that saved them, float, or double once float
// fell short; a run that resumes double's skips float's, and a double
// attempt after float's in the same run starts over, saving over float's.
template <typename Engine>
ResultVector<double> sssp(Engine& engine, typename Engine::vertex_t source, double delta,
                          const AlgorithmOptions& options) {
  bool resume_double = true;
  if constexpr (!PrefersFewSteps<Engine>) {
    if (options.integer_weights) {
      const std::optional<uint64_t> saved = saved_state_bytes(engine, options);
      resume_double = saved && *saved == engine.num_vertices() * sizeof(double);
      if (!resume_double)
        if (auto dist = sssp_in<float>(engine, source, delta, options)) return std::move(*dist);
    }
  }
  if (resume_double || options.checkpoint == nullptr) return std::move(*sssp_in<double>(engine, source, delta, options));
  const Checkpointer saving = options.checkpoint->without_resume();
  AlgorithmOptions fresh = options;
  fresh.checkpoint = &saving;
  return std::move(*sssp_in<double>(engine, source, delta, fresh));
}

// sssp_verifier.cc
Verification verify_sssp(const AnyGraph& graph, uint64_t source, std::span<const double> dist);

struct Sssp {
  using value_t = double;
  static constexpr AlgorithmTraits traits{
      .name = "sssp",
      .summary = "shortest-path distance from the source (inf unreached); delta-stepping",
      .sources = SourceUse::kOne,
      .weights = true,
      .unreached = kInfDistance,
      .unreached_marks_reach = true,
      .agreement = {.relative = 1e-9},
  };
  // light_below: the band split's width over light lists (a placement that
  // keeps none ignores it).
  static EdgeReads reads(const AlgorithmOptions& options) {
    return {Need::kYes, Need::kNo, true, static_cast<weight_t>(light_lists_width(options))};
  }
  template <typename V>
  using operators = OperatorList<SsspRelax<V>>;

  // delta 0: picked from the finite edge weights. Two widths, for two kinds
  // of engine (bucket_width):
  //  - the mean weight, a bucket holding about one edge's reach: few, wide
  //    steps, what an engine that pays per step wants (the GPU: launches and
  //    copies per step; kron:25 in 77 ms on the H100);
  //  - half the mean weight over the average out-degree (Meyer and Sanders'
  //    delta of order 1/d): narrow buckets, each edge relaxed about once,
  //    what a work-bound engine wants. The CPU engine on kron:20 and
  //    urand:20 with GAP's weights 1..255 (2 threads): the mean, 128, took
  //    456 ms where 4 took 158-169; with bucket fusion (cpu_ordered.h) a
  //    small bucket costs no barrier, and 2 beat 4 in each of six
  //    interleaved rounds, by 1-26% (GAP itself is tuned with -d 2).
  static void prepare(const AnyGraph& any, AlgorithmOptions& options) {
    options.lists_by_weight = lists_ordered_by_weight(any);
    if (!bucket_width_automatic(options)) return;
    const WeightSummary w = summarize_weights(any);
    options.delta = w.mean;
    options.delta_narrow = w.mean / (2 * w.average_degree);
    options.integer_weights = w.integral;
  }
  template <typename Engine>
  static ResultVector<value_t> run(Engine& engine, const Sources& sources, const AlgorithmOptions& options) {
    return sssp(engine, static_cast<typename Engine::vertex_t>(sources.at(0)), sssp_width(engine, options), options);
  }
  static Verification verify(const AnyGraph& graph, const Sources& sources, std::span<const value_t> dist,
                             const AlgorithmOptions&) {
    return verify_sssp(graph, sources[0], dist);
  }
  // The checkpoint's key: the source and both bucket widths (the one the
  // engine runs with picks the buckets an iteration settles).
  static std::string checkpoint_options(const AlgorithmOptions& options, const Sources& sources) {
    return settle_in_order_key(options, sources);
  }
  static std::string describe(const AnyGraph&, std::span<const value_t> dist) {
    double far = 0;
    for (double x : dist)
      if (std::isfinite(x) && x > far) far = x;
    char buf[64];
    std::snprintf(buf, sizeof buf, ", farthest at distance %g", far);
    return describe::reached_of(dist, kInfDistance) + buf;
  }
};

}  // namespace tg
