// Breadth-first search: hop depth of every vertex from a source.
//
// Level-synchronous over a frontier. The engine picks push (top-down) or pull
// (bottom-up) per level by frontier size, which makes this Beamer's
// direction-optimizing BFS [Beamer, Asanovic, Patterson, SC 2012] whenever the
// graph's in-edges are available. Verified by bfs_verifier.cc.
#pragma once

#include <vector>

#include "algorithms/algorithm.h"
#include "core/atomics.h"
#include "engines/engine.h"

namespace tg {

template <typename V>
struct BfsStep {
  static constexpr bool needs_weights = false;
  int32_t* depth;
  int32_t level;

  TG_HD bool cond(V v) const { return depth[v] == kUnreached; }
  TG_HD bool update(V, V v, weight_t) const {
    depth[v] = level;
    return true;
  }
  TG_HD bool update_atomic(V, V v, weight_t) const { return compare_and_swap(&depth[v], kUnreached, level); }
};

template <typename Engine>
std::vector<int32_t> bfs(Engine& engine, typename Engine::vertex_t source) {
  using V = typename Engine::vertex_t;
  auto depth = engine.template make_array<int32_t>(kUnreached);
  engine.set(depth, source, 0);
  auto frontier = engine.single(source);
  for (int32_t level = 1; engine.size(frontier) > 0; ++level) {
    frontier = engine.edge_map(frontier, BfsStep<V>{engine.data(depth), level}, EdgeMapOptions{});
    engine.stats().iterations++;
  }
  return engine.to_host(depth);
}

}  // namespace tg
