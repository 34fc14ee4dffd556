// Single-source shortest paths on non-negative weights: delta-stepping
// [Meyer and Sanders, J. Algorithms 2003]: vertices wait in buckets of
// distance width delta (engines/buckets.h); the lowest bucket is relaxed
// until none of its vertices changes, what moves to a later bucket waits
// there. On the CPU the buckets are per-thread bins, as in GAP; elsewhere a
// near and a far frontier (Davidson et al., IPDPS 2014).
// An edge of weight inf is never taken: its candidate, inf, is never below a
// distance, so only vertices of finite distance ever enter near or far.
// Verified by sssp_verifier.cc.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/describe.h"
#include "core/atomics.h"
#include "core/error.h"
#include "engines/buckets.h"
#include "engines/engine.h"

namespace tg {

template <typename V>
struct SsspRelax {
  static constexpr bool needs_weights = true;
  double* dist;

  TG_HD bool cond(V) const { return true; }
  TG_HD bool update(V u, V v, weight_t w) const {
    double candidate = dist[u] + w;
    if (candidate < dist[v]) {
      dist[v] = candidate;
      return true;
    }
    return false;
  }
  TG_HD bool update_atomic(V u, V v, weight_t w) const { return atomic_min(&dist[v], dist[u] + w); }
};

// The bucket of a vertex: floor(dist / delta), inf while unreached.
struct DistanceBucket {
  const double* dist;
  double delta;
  template <typename V>
  TG_HD double operator()(V v) const {
    return bucket_of(dist[v], delta);
  }
};

template <typename Engine>
std::vector<double> sssp(Engine& engine, typename Engine::vertex_t source, double delta) {
  using V = typename Engine::vertex_t;
  auto dist_array = engine.template make_array<double>(kInfDistance);
  engine.set(dist_array, source, 0.0);
  double* dist = engine.data(dist_array);
  const EdgeMapOptions push{Direction::kPush, true};
  const DistanceBucket key{dist, delta};

  auto buckets = make_buckets(engine, key);
  buckets.insert(engine.single(source));
  while (true) {
    auto [b, near] = buckets.pop();
    if (engine.size(near) == 0) break;
    // Settle bucket b: relax until none of its vertices changes; what moved
    // to a later bucket waits there.
    while (engine.size(near) > 0) {
      auto changed = engine.edge_map(near, SsspRelax<V>{dist}, push);
      engine.stats().iterations++;
      near = engine.filter(changed, KeyIs<DistanceBucket>{key, b});
      // A relaxation never lowers a distance below the bucket being settled.
      buckets.insert(engine.filter(changed, KeyAbove<DistanceBucket>{key, b}));
    }
  }
  return engine.to_host(dist_array);
}

// sssp_verifier.cc
Verification verify_sssp(const AnyGraph& graph, uint64_t source, const std::vector<double>& dist);

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
  static EdgeReads reads(const AlgorithmOptions&) { return {Need::kYes, Need::kNo, true}; }
  template <typename V>
  using operators = OperatorList<SsspRelax<V>>;

  // delta 0: picked from the finite edge weights (one inf edge would make
  // every bucket infinitely wide, and delta-stepping degrade to
  // Bellman-Ford). Two widths, for two kinds of engine:
  //  - the mean weight, a bucket holding about one edge's reach: few, wide
  //    steps, what an engine that pays per step wants (the GPU: launches and
  //    copies per step; kron:25 in 77 ms on the H100);
  //  - the mean weight over the average out-degree (Meyer and Sanders' delta
  //    of order 1/d): narrow buckets, each edge relaxed about once, what a
  //    work-bound engine wants (the CPU engine on kron:20 and urand:20 with
  //    GAP's weights 1..255: width 4 in 158-169 ms where the mean, 128, took
  //    456 ms; GAP itself is tuned with -d 2).
  static void prepare(const AnyGraph& any, AlgorithmOptions& options) {
    if (options.delta < 0 || std::isnan(options.delta)) throw usage_error("--delta must be positive");
    if (options.delta > 0) return;
    std::visit(
        [&](const auto& graph) {
          const weight_t* w = graph.out.weights.data();
          const eid_t m = w != nullptr ? graph.num_edges() : 0;
          double sum = 0;
          eid_t finite = 0;
#pragma omp parallel for reduction(+ : sum, finite)
          for (eid_t e = 0; e < m; ++e)
            if (std::isfinite(w[e])) {
              sum += w[e];
              ++finite;
            }
          double mean = finite > 0 ? sum / static_cast<double>(finite) : 1.0;
          options.delta = std::isfinite(mean) && mean > 0 ? mean : 1.0;
          const double degree = graph.num_vertices > 0 ? double(graph.num_edges()) / double(graph.num_vertices) : 1.0;
          options.delta_narrow = degree > 1 ? options.delta / degree : options.delta;
        },
        any);
  }
  template <typename Engine>
  static std::vector<value_t> run(Engine& engine, const Sources& sources, const AlgorithmOptions& options) {
    double delta = options.delta;
    if (options.delta_narrow > 0 && !PrefersFewSteps<Engine>) delta = options.delta_narrow;
    return sssp(engine, static_cast<typename Engine::vertex_t>(sources.at(0)), delta);
  }
  static Verification verify(const AnyGraph& graph, const Sources& sources, const std::vector<value_t>& dist,
                             const AlgorithmOptions&) {
    return verify_sssp(graph, sources[0], dist);
  }
  static std::string describe(const AnyGraph&, const std::vector<value_t>& dist) {
    double far = 0;
    for (double x : dist)
      if (std::isfinite(x) && x > far) far = x;
    char buf[64];
    std::snprintf(buf, sizeof buf, ", farthest at distance %g", far);
    return describe::reached_of(dist, kInfDistance) + buf;
  }
};

}  // namespace tg
