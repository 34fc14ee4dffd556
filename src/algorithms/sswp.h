// Single-source widest path: for every vertex, the largest bottleneck (the
// smallest edge weight on a path) over all paths from the source. Frontier
// Bellman-Ford with max-min relaxation, as in Subway's SSWP. The source has
// width infinity, unreachable vertices 0. Weights must be non-negative.
// Verified by sswp_verifier.cc.
#pragma once

#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/describe.h"
#include "core/atomics.h"
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
};

template <typename Engine>
std::vector<float> sswp(Engine& engine, typename Engine::vertex_t source) {
  using V = typename Engine::vertex_t;
  auto width = engine.template make_array<float>(0.0f);
  engine.set(width, source, kInfWidth);
  auto frontier = engine.single(source);
  while (engine.size(frontier) > 0) {
    frontier = engine.edge_map(frontier, SswpRelax<V>{engine.data(width)}, EdgeMapOptions{Direction::kPush, true});
    engine.stats().iterations++;
  }
  return engine.to_host(width);
}

// sswp_verifier.cc
Verification verify_sswp(const AnyGraph& graph, uint64_t source, const std::vector<float>& width);

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

  template <typename Engine>
  static std::vector<value_t> run(Engine& engine, const Sources& sources, const AlgorithmOptions&) {
    return sswp(engine, static_cast<typename Engine::vertex_t>(sources.at(0)));
  }
  static Verification verify(const AnyGraph& graph, const Sources& sources, const std::vector<value_t>& width,
                             const AlgorithmOptions&) {
    return verify_sswp(graph, sources[0], width);
  }
  static std::string describe(const AnyGraph&, const std::vector<value_t>& width) {
    return describe::reached_of(width, 0.0);
  }
};

}  // namespace tg
