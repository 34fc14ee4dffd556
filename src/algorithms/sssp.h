// Single-source shortest paths on non-negative weights: delta-stepping
// [Meyer and Sanders, J. Algorithms 2003] in its near/far form (as in
// Davidson et al., IPDPS 2014): the near frontier holds vertices whose
// distance is below the current threshold and is relaxed until empty; vertices
// beyond it wait in the far set until the threshold moves up by delta.
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

struct DistanceBelow {
  const double* dist;
  double threshold;
  template <typename V>
  TG_HD bool operator()(V v) const {
    return dist[v] < threshold;
  }
};

struct DistanceOf {
  const double* dist;
  template <typename V>
  TG_HD double operator()(V v) const {
    return dist[v];
  }
};

struct DistanceAtLeast {
  const double* dist;
  double threshold;
  template <typename V>
  TG_HD bool operator()(V v) const {
    return dist[v] >= threshold;
  }
};

template <typename Engine>
std::vector<double> sssp(Engine& engine, typename Engine::vertex_t source, double delta) {
  using V = typename Engine::vertex_t;
  auto dist_array = engine.template make_array<double>(kInfDistance);
  engine.set(dist_array, source, 0.0);
  double* dist = engine.data(dist_array);
  const EdgeMapOptions push{Direction::kPush, true};

  double threshold = delta;
  auto near = engine.single(source);
  auto far = engine.filter(near, DistanceAtLeast{dist, kInfDistance});  // empty
  while (true) {
    while (engine.size(near) > 0) {
      auto changed = engine.edge_map(near, SsspRelax<V>{dist}, push);
      engine.stats().iterations++;
      near = engine.filter(changed, DistanceBelow{dist, threshold});
      far = engine.merge(far, engine.filter(changed, DistanceAtLeast{dist, threshold}));
    }
    if (engine.size(far) == 0) break;
    // Jump over empty buckets to the one holding the nearest waiting vertex.
    double nearest = engine.min_over(far, DistanceOf{dist});
    threshold = (std::floor(nearest / delta) + 1) * delta;
    // Rounding guard; nextafter as well, since with a delta below half an ulp
    // of nearest, nearest + delta == nearest and the loop would never advance.
    if (!(threshold > nearest)) threshold = std::nextafter(nearest + delta, kInfDistance);
    near = engine.filter(far, DistanceBelow{dist, threshold});
    far = engine.filter(far, DistanceAtLeast{dist, threshold});
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

  // delta 0: the mean of the finite edge weights, a bucket holding about one
  // edge's reach (one inf edge would make every bucket infinitely wide, and
  // delta-stepping would degrade to Bellman-Ford).
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
        },
        any);
  }
  template <typename Engine>
  static std::vector<value_t> run(Engine& engine, const Sources& sources, const AlgorithmOptions& options) {
    return sssp(engine, static_cast<typename Engine::vertex_t>(sources.at(0)), options.delta);
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
