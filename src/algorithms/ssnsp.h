// Single-source number of shortest paths (in hops): for every vertex, how many
// distinct shortest hop paths lead to it from the source (the first phase of
// Brandes' betweenness centrality). Level-synchronous BFS: a vertex first
// reached at level d sums the counts of its in-neighbours at level d - 1,
// which are final by then. Counts are doubles: exact below 2^53.
// Verified by ssnsp_verifier.cc.
//
// The accumulative form (AlgorithmOptions::accumulative), for engines that
// read edges out of order, finds the depths first (BFS relaxation) and then
// pushes counts down the shortest-path DAG (edges with depth[v] = depth[u] +
// 1) as deltas: a vertex may pass its count on in several parts, which add up
// to the same integers whatever the order (exact below 2^53, as above).
#pragma once

#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/bfs.h"
#include "core/atomics.h"
#include "engines/engine.h"

namespace tg {

template <typename V>
struct SsnspStep {
  static constexpr bool needs_weights = false;
  int32_t* depth;
  double* paths;
  int32_t level;

  // Still open at this level: unreached, or reached at this very level.
  TG_HD bool cond(V v) const { return depth[v] == kUnreached || depth[v] == level; }
  TG_HD bool update(V u, V v, weight_t) const {
    bool first = depth[v] == kUnreached;
    depth[v] = level;
    paths[v] += paths[u];
    return first;
  }
  TG_HD bool update_atomic(V u, V v, weight_t) const {
    bool first = compare_and_swap(&depth[v], kUnreached, level);
    if (first || atomic_load(&depth[v]) == level) atomic_add(&paths[v], paths[u]);
    return first;
  }
};

struct SsnspOutput {
  std::vector<int32_t> depth;
  std::vector<double> paths;
};

// Delta push of counts over the shortest-path DAG; depth is final.
template <typename V>
struct SsnspCount {
  static constexpr bool needs_weights = false;
  const int32_t* depth;
  double* paths;
  double* pending;  // received, not yet passed on
  double* send;     // what u's edges carry in this step

  TG_HD void begin(V u) const {
    double p = pending[u];
    pending[u] = 0;
    paths[u] += p;
    send[u] = p;
  }
  TG_HD bool cond(V) const { return true; }
  TG_HD bool update(V u, V v, weight_t) const {
    if (send[u] == 0 || depth[v] != depth[u] + 1) return false;
    pending[v] += send[u];
    return true;
  }
  TG_HD bool update_atomic(V u, V v, weight_t) const {
    if (send[u] == 0 || depth[v] != depth[u] + 1) return false;
    atomic_add(&pending[v], send[u]);
    return true;
  }
};

template <typename Engine>
SsnspOutput ssnsp_accumulative(Engine& engine, typename Engine::vertex_t source) {
  using V = typename Engine::vertex_t;
  auto depth = engine.template make_array<int32_t>(kUnreached);
  engine.set(depth, source, 0);
  bfs_steps(engine, engine.single(source), engine.data(depth), true);

  auto paths = engine.template make_array<double>(0.0);
  auto pending = engine.template make_array<double>(0.0);
  auto send = engine.template make_array<double>(0.0);
  engine.set(pending, source, 1.0);
  const SsnspCount<V> count{engine.data(depth), engine.data(paths), engine.data(pending), engine.data(send)};
  for (auto frontier = engine.single(source); engine.size(frontier) > 0;) {
    frontier = engine.edge_map(frontier, count, EdgeMapOptions{});
    engine.stats().iterations++;
  }
  return {engine.to_host(depth), engine.to_host(paths)};
}

template <typename Engine>
SsnspOutput ssnsp(Engine& engine, typename Engine::vertex_t source, const AlgorithmOptions& options) {
  using V = typename Engine::vertex_t;
  if (options.accumulative) return ssnsp_accumulative(engine, source);
  auto depth = engine.template make_array<int32_t>(kUnreached);
  auto paths = engine.template make_array<double>(0.0);
  engine.set(depth, source, 0);
  engine.set(paths, source, 1.0);
  auto frontier = engine.single(source);
  for (int32_t level = 1; engine.size(frontier) > 0; ++level) {
    frontier = engine.edge_map(frontier, SsnspStep<V>{engine.data(depth), engine.data(paths), level}, EdgeMapOptions{});
    engine.stats().iterations++;
  }
  return {engine.to_host(depth), engine.to_host(paths)};
}

}  // namespace tg
