// Breadth-first search: hop depth of every vertex from a source.
//
// Level-synchronous over a frontier. The engine picks push (top-down) or pull
// (bottom-up) per level by frontier size, which makes this Beamer's
// direction-optimizing BFS [Beamer, Asanovic, Patterson, SC 2012] whenever the
// graph's in-edges are available. Verified by bfs_verifier.cc.
//
// The operator is a min-relaxation (depth[v] = min(depth[v], depth[u] + 1)),
// not a stamp of the driver's level, so the result does not depend on the
// order edges are read in: asynchronous engines may run it too.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/describe.h"
#include "checkpoint/vertex_state.h"
#include "core/atomics.h"
#include "engines/engine.h"

namespace tg {

template <typename V>
struct BfsStep {
  static constexpr bool needs_weights = false;
  int32_t* depth;
  // Out of order (AlgorithmOptions::accumulative), a vertex may be reached by
  // a longer path first, so reached vertices must stay open to be lowered.
  // In synchronous steps a reached vertex is final, and pull stops early.
  bool relax_reached = false;
  // In synchronous steps, the depth of every frontier vertex: a pull then
  // writes it without reading depth[u], a random read per vertex reached.
  int32_t level = 0;

  TG_HD bool cond(V v) const { return relax_reached || depth[v] == kUnreached; }
  void prefetch(V v) const { __builtin_prefetch(depth + v); }
  // In synchronous steps every frontier vertex has the same depth, so only
  // the first update of a target succeeds.
  TG_HD bool claims_once() const { return !relax_reached; }
  TG_HD bool update(V u, V v, weight_t) const {
    int32_t next = (relax_reached ? depth[u] : level) + 1;
    if (depth[v] != kUnreached && depth[v] <= next) return false;
    depth[v] = next;
    return true;
  }
  // Reads before the CAS, so an edge into a vertex that is already as close
  // costs no atomic.
  TG_HD bool update_atomic(V u, V v, weight_t) const {
    int32_t next = atomic_load(&depth[u]) + 1;
    int32_t old = atomic_load(&depth[v]);
    while (old == kUnreached || next < old) {
      if (compare_and_swap(&depth[v], old, next)) return true;
      old = atomic_load(&depth[v]);
    }
    return false;
  }
};

// The direction a BFS leaves to the engine's policy, or top-down only.
inline Direction bfs_direction(const AlgorithmOptions& options) {
  return options.push_only ? Direction::kPush : Direction::kAuto;
}

// BFS steps from the frontier (its depths already set; in synchronous steps
// all 0, as for the source alone) until it empties.
template <typename Engine, typename Frontier>
void bfs_steps(Engine& engine, Frontier frontier, int32_t* depth, bool relax_reached,
               Direction direction = Direction::kAuto) {
  using V = typename Engine::vertex_t;
  for (int32_t level = 0; engine.size(frontier) > 0; ++level) {
    frontier = engine.edge_map(frontier, BfsStep<V>{depth, relax_reached, level}, EdgeMapOptions{direction});
    engine.stats().iterations++;
  }
}

// The vertices at one depth (a level's frontier, rebuilt).
struct AtDepth {
  const int32_t* depth;
  int32_t level;
  template <typename V>
  TG_HD bool operator()(V v) const {
    return depth[v] == level;
  }
};

// bfs_steps with checkpoints (checkpoint/vertex_state.h); an iteration is a
// level. After level L the depths are the whole state: synchronous steps
// reach a vertex first by a shortest path, so the next frontier is exactly
// the vertices at depth L + 1, refiltered from the depths on resuming (the
// same set, so the same steps and edges whatever its order). The one other
// input of the next step is whether the last one pulled (the hysteresis of
// engines/direction.h), saved as the one scalar and asked for again.
template <typename Engine>
void bfs_steps_checkpointed(Engine& engine, typename Engine::vertex_t source, int32_t* depth,
                            const AlgorithmOptions& options) {
  using V = typename Engine::vertex_t;
  auto frontier = engine.single(source);
  int32_t level = 0;
  const Direction direction = bfs_direction(options);
  Direction first = direction;
  if (const std::optional<SavedState> saved = resume_vertex_data(engine, options, depth, 1, "bfs")) {
    level = saved->iteration;
    engine.stats().iterations += level;
    frontier = engine.filter(engine.all(), AtDepth{depth, level});
    if (direction == Direction::kAuto && saved->scalars[0] != 0 && engine.can_pull() &&
        engine.size(frontier) > engine.num_vertices() / kPullUntilFrontierBelow)
      first = Direction::kPull;  // as the engine that pulled the last step would
  }
  for (; engine.size(frontier) > 0; ++level) {
    const uint64_t pulls = engine.stats().pull_steps;
    frontier = engine.edge_map(frontier, BfsStep<V>{depth, false, level}, EdgeMapOptions{first});
    first = direction;
    engine.stats().iterations++;
    save_vertex_data(engine, options, level + 1, {engine.stats().pull_steps > pulls ? 1.0 : 0.0}, depth);
  }
}

template <typename Engine>
ResultVector<int32_t> bfs(Engine& engine, typename Engine::vertex_t source, const AlgorithmOptions& options) {
  auto depth = engine.template make_array<int32_t>(kUnreached);
  engine.set(depth, source, 0);
  if constexpr (Checkpointable<Engine>) {
    if (options.checkpoint != nullptr) {
      bfs_steps_checkpointed(engine, source, engine.data(depth), options);
      return engine.to_host(depth);
    }
  } else {
    refuse_checkpoint(options);
  }
  bfs_steps(engine, engine.single(source), engine.data(depth), options.accumulative, bfs_direction(options));
  return engine.to_host(depth);
}

// bfs_verifier.cc
Verification verify_bfs(const AnyGraph& graph, uint64_t source, std::span<const int32_t> depth);

struct Bfs {
  using value_t = int32_t;
  static constexpr AlgorithmTraits traits{
      .name = "bfs",
      .summary = "hop depth of every vertex from the source (-1 unreached); direction-optimizing",
      .sources = SourceUse::kOne,
      .unreached = kUnreached,
      .unreached_marks_reach = true,
  };
  // Pulls (bottom-up steps) wherever the in-edges are there, unless told to
  // push only.
  static EdgeReads reads(const AlgorithmOptions& options) {
    return {Need::kYes, options.push_only ? Need::kNo : Need::kIfPresent, false};
  }
  template <typename V>
  using operators = OperatorList<BfsStep<V>>;

  template <typename Engine>
  static ResultVector<value_t> run(Engine& engine, const Sources& sources, const AlgorithmOptions& options) {
    return bfs(engine, static_cast<typename Engine::vertex_t>(sources.at(0)), options);
  }
  static Verification verify(const AnyGraph& graph, const Sources& sources, std::span<const value_t> depth,
                             const AlgorithmOptions&) {
    return verify_bfs(graph, sources[0], depth);
  }
  // The checkpoint's key (the source is part of it). The accumulative form
  // relaxes depths out of order: its frontier is not the depths' to rebuild.
  static std::string checkpoint_options(const AlgorithmOptions& options, const Sources& sources) {
    if (options.accumulative)
      throw usage_error("--checkpoint/--resume: bfs cannot resume with --accumulative exactly (it relaxes out of order)");
    return "source " + (sources.empty() ? std::string("none") : std::to_string(sources[0]));
  }
  static std::string describe(const AnyGraph&, std::span<const value_t> depth) {
    int32_t deepest = depth.empty() ? 0 : *std::max_element(depth.begin(), depth.end());
    return describe::reached_of(depth, kUnreached) + ", deepest level " + std::to_string(deepest);
  }
};

}  // namespace tg
