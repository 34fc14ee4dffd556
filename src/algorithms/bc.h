// Betweenness centrality, Brandes' way [Brandes, J. Math. Sociology 2001]:
// for each source s, the number of shortest hop paths to every vertex
// (ssnsp.h, forward), then the dependency of s on every vertex, backward
// over the BFS levels from the deepest:
//
//   delta_s(v) = sum over w with depth[w] = depth[v] + 1 and an edge v -> w of
//                paths[v] / paths[w] * (1 + delta_s(w)).
//
// Level d's frontier pushes over its out-edges once every deeper level is
// final; an update adds to the pushing vertex v (the edge's source), so the
// step reads out-edges only and needs no transpose. delta_s(s) and the
// dependency of unreached vertices are 0. With several sources the
// dependencies are summed: the betweenness of every vertex over those
// sources (unnormalised, each ordered pair counted once). Verified by
// bc_verifier.cc.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/describe.h"
#include "algorithms/ssnsp.h"
#include "core/atomics.h"
#include "engines/engine.h"

namespace tg {

// Adds w's share to the dependency of v (the pushing vertex).
template <typename V>
struct BcDependency {
  static constexpr bool needs_weights = false;
  const int32_t* depth;
  const double* paths;
  double* delta;

  TG_HD bool cond(V) const { return true; }
  TG_HD bool update_atomic(V v, V w, weight_t) const {
    if (depth[w] != depth[v] + 1) return false;
    atomic_add(&delta[v], paths[v] / paths[w] * (1.0 + delta[w]));
    return false;  // no output: the next level is known already
  }
  // Pull would hand w to one thread, but the write goes to v: keep it atomic.
  TG_HD bool update(V v, V w, weight_t x) const { return update_atomic(v, w, x); }
};

struct BcReset {
  int32_t* depth;
  double* paths;
  double* delta;
  template <typename V>
  TG_HD void operator()(V v) const {
    depth[v] = kUnreached;
    paths[v] = 0;
    delta[v] = 0;
  }
};

struct BcAccumulate {
  double* total;
  const double* delta;
  template <typename V>
  TG_HD void operator()(V v) const {
    total[v] += delta[v];
  }
};

struct NegatedDepth {
  const int32_t* depth;
  template <typename V>
  TG_HD double operator()(V v) const {
    return -static_cast<double>(depth[v]);
  }
};

template <typename Engine>
ResultVector<double> bc(Engine& engine, const Sources& sources, const AlgorithmOptions& options) {
  using V = typename Engine::vertex_t;
  using Frontier = typename Engine::Frontier;
  auto total = engine.template make_array<double>(0.0);
  auto depth = engine.template make_array<int32_t>(kUnreached);
  auto paths = engine.template make_array<double>(0.0);
  auto delta = engine.template make_array<double>(0.0);
  const BcDependency<V> dependency{engine.data(depth), engine.data(paths), engine.data(delta)};
  const EdgeMapOptions backward{Direction::kPush, false};
  // Checkpoints (checkpoint/vertex_state.h): an iteration is a source done;
  // the sum over the sources done is the whole state, and the step count so
  // far its one scalar. Each source's dependencies are added to the sum in
  // source order, so a resumed run adds the same values in the same order.
  size_t first = 0;
  if (const std::optional<SavedState> saved =
          resume_vertex_arrays(engine, options, {vertex_array(engine.data(total))}, 1, "bc")) {
    first = static_cast<size_t>(saved->iteration);
    engine.stats().iterations += static_cast<uint64_t>(saved->scalars[0]);
  }
  for (size_t i = first; i < sources.size(); ++i) {
    if (i > first) engine.vertex_map(engine.all(), BcReset{engine.data(depth), engine.data(paths), engine.data(delta)});
    std::vector<Frontier> levels;
    ssnsp_into(engine, static_cast<V>(sources[i]), depth, paths, options, &levels);
    if (levels.empty()) {
      // The accumulative form keeps no levels: find them from the depths.
      const int32_t deepest = static_cast<int32_t>(-engine.min_over(engine.all(), NegatedDepth{engine.data(depth)}));
      for (int32_t d = 0; d <= deepest; ++d) levels.push_back(engine.filter(engine.all(), AtDepth{engine.data(depth), d}));
    }
    // The deepest level has no successors, and level 0 (the source) does
    // not push: its dependency stays 0.
    for (size_t d = levels.size() - 1; d-- > 1;) {
      engine.edge_map(levels[d], dependency, backward);
      engine.stats().iterations++;
    }
    engine.vertex_map(engine.all(), BcAccumulate{engine.data(total), engine.data(delta)});
    save_vertex_arrays(engine, options, static_cast<int>(i + 1), {static_cast<double>(engine.stats().iterations)},
                       {vertex_array(engine.data(total))});
  }
  return engine.to_host(total);
}

// bc_verifier.cc
Verification verify_bc(const AnyGraph& graph, const Sources& sources, std::span<const double> dependency);

struct Bc {
  using value_t = double;
  static constexpr AlgorithmTraits traits{
      .name = "bc",
      .aliases = "betweenness",
      .summary = "Brandes' dependency on the source(s), summed: betweenness centrality (0 at sources, unreached)",
      .sources = SourceUse::kMany,
      .unreached = 0,
      .agreement = {.relative = 1e-9},
  };
  // The forward pass is ssnsp's (pulling where it can); the backward pushes.
  static EdgeReads reads(const AlgorithmOptions& options) { return Ssnsp::reads(options); }
  template <typename V>
  using operators = OperatorList<BcDependency<V>, SsnspStep<V>, BfsStep<V>, SsnspCount<V>>;

  template <typename Engine>
  static ResultVector<value_t> run(Engine& engine, const Sources& sources, const AlgorithmOptions& options) {
    return bc(engine, sources, options);
  }
  static Verification verify(const AnyGraph& graph, const Sources& sources, std::span<const value_t> dependency,
                             const AlgorithmOptions&) {
    return verify_bc(graph, sources, dependency);
  }
  static std::string describe(const AnyGraph& graph, std::span<const value_t> dependency) {
    if (dependency.empty()) return "empty graph";
    return describe::top_vertex(graph, dependency, "dependency") + ", " +
           describe::count(double(describe::reached(dependency, 0.0))) + " vertices above 0";
  }
  // The checkpoint's key: the sources in order, and the form (the two sum
  // the same dependencies, up to rounding).
  static std::string checkpoint_options(const AlgorithmOptions& options, const Sources& sources) {
    std::string key = options.accumulative ? "accumulative, sources" : "sources";
    for (size_t i = 0; i < sources.size(); ++i) key += (i == 0 ? " " : ",") + std::to_string(sources[i]);
    return key;
  }
};

}  // namespace tg
