// Single-source widest path: for every vertex, the largest bottleneck (the
// smallest edge weight on a path) over all paths from the source, by max-min
// relaxation (Subway's SSWP) settled widest first in buckets of width delta
// (algorithms/settle_in_order.h), as delta-stepping settles nearest first: a
// frontier Bellman-Ford relaxes a vertex again each time a wider path
// reaches it (urand:20 on the CPU engine: 2.1 s where buckets take 0.4 s).
// The source has width infinity, unreachable vertices 0. Weights must be
// non-negative.
// Verified by sswp_verifier.cc.
#pragma once

#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/describe.h"
#include "algorithms/settle_in_order.h"
#include "core/atomics.h"
#include "engines/buckets.h"
#include "engines/engine.h"

namespace tg {

template <typename V>
struct SswpRelax {
  static constexpr bool needs_weights = true;
  float* width;

  TG_HD bool cond(V) const { return true; }
  TG_HD bool update(V u, V v, weight_t w) const {
    float candidate = width[u] < w ? width[u] : w;
    if (candidate > width[v]) {
      width[v] = candidate;
      return true;
    }
    return false;
  }
  TG_HD bool update_atomic(V u, V v, weight_t w) const {
    float candidate = width[u] < w ? width[u] : w;
    return atomic_max(&width[v], candidate);
  }
  void prefetch(V v) const { __builtin_prefetch(width + v); }
};

// The bucket of a vertex: widest first, floor(-width / delta); the source's
// width inf has the lowest bucket. A relaxation never widens a vertex beyond
// the vertex it came from, so never below the bucket being settled.
struct WidthBucket {
  const float* width;
  double delta;
  template <typename V>
  TG_HD double operator()(V v) const {
    return bucket_of(-static_cast<double>(width[v]), delta);
  }
  template <typename V>
  void prefetch(V v) const {
    __builtin_prefetch(width + v);
  }
};

template <typename Engine>
ResultVector<float> sswp(Engine& engine, typename Engine::vertex_t source, double delta,
                         const AlgorithmOptions& options) {
  using V = typename Engine::vertex_t;
  auto width = engine.template make_array<float>(0.0f);
  engine.set(width, source, kInfWidth);
  settle_in_order(engine, engine.single(source), WidthBucket{engine.data(width), delta},
                  SswpRelax<V>{engine.data(width)}, engine.data(width), 0.0f, options, "sswp");
  return engine.to_host(width);
}

// sswp_verifier.cc
Verification verify_sswp(const AnyGraph& graph, uint64_t source, std::span<const float> width);

struct Sswp {
  using value_t = float;
  static constexpr AlgorithmTraits traits{
      .name = "sswp",
      .summary = "widest-path bottleneck from the source (source inf, unreached 0)",
      .sources = SourceUse::kOne,
      .weights = true,
      .unreached = 0,
      .unreached_marks_reach = true,
      .agreement = {.relative = 1e-9},
  };
  static EdgeReads reads(const AlgorithmOptions&) { return {Need::kYes, Need::kNo, true}; }
  template <typename V>
  using operators = OperatorList<SswpRelax<V>>;

  // delta 0: picked from the finite edge weights. A width is always one of
  // the weights (a minimum, never a sum), so widths span low..high however
  // long the paths: the narrow width splits that range in 256 buckets (with
  // GAP's integer weights 1..255, one bucket per weight: each edge relaxed
  // once; urand:20 on the CPU engine in 0.40 s, where SSSP's narrow width, 4,
  // relaxed twice the edges in 0.52-0.72 s, 64 took 1.9 s and the frontier
  // Bellman-Ford 2.1 s). An engine that prefers few steps gets the mean
  // weight: two or three buckets.
  static void prepare(const AnyGraph& any, AlgorithmOptions& options) {
    if (!bucket_width_automatic(options)) return;
    const WeightSummary w = summarize_weights(any);
    options.delta = w.mean;
    options.delta_narrow = w.high > w.low ? (w.high - w.low) / 256 : w.mean;
  }
  template <typename Engine>
  static ResultVector<value_t> run(Engine& engine, const Sources& sources, const AlgorithmOptions& options) {
    return sswp(engine, static_cast<typename Engine::vertex_t>(sources.at(0)), bucket_width<Engine>(options), options);
  }
  static Verification verify(const AnyGraph& graph, const Sources& sources, std::span<const value_t> width,
                             const AlgorithmOptions&) {
    return verify_sswp(graph, sources[0], width);
  }
  // The checkpoint's key (settle_in_order_checkpointed: an iteration is a bucket).
  static std::string checkpoint_options(const AlgorithmOptions& options, const Sources& sources) {
    return settle_in_order_key(options, sources);
  }
  static std::string describe(const AnyGraph&, std::span<const value_t> width) {
    return describe::reached_of(width, 0.0);
  }
};

}  // namespace tg
