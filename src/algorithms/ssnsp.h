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

#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/bfs.h"
#include "algorithms/describe.h"
#include "checkpoint/vertex_state.h"
#include "core/atomics.h"
#include "core/error.h"
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
  ResultVector<int32_t> depth;
  ResultVector<double> paths;
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

// Depths and path counts of every vertex from the source into the engine
// arrays (depth all unreached, paths all 0 on entry), in the form the
// options ask for. The synchronous form appends each level's frontier
// (vertices first reached at that depth) to `levels` when it is given; the
// accumulative form leaves it empty.
template <typename Engine>
void ssnsp_into(Engine& engine, typename Engine::vertex_t source, typename Engine::template array_t<int32_t>& depth_array,
                typename Engine::template array_t<double>& paths_array, const AlgorithmOptions& options,
                std::vector<typename Engine::Frontier>* levels) {
  using V = typename Engine::vertex_t;
  int32_t* depth = engine.data(depth_array);
  double* paths = engine.data(paths_array);
  engine.set(depth_array, source, 0);
  if (options.accumulative) {
    bfs_steps(engine, engine.single(source), depth, true);
    auto pending = engine.template make_array<double>(0.0);
    auto send = engine.template make_array<double>(0.0);
    engine.set(pending, source, 1.0);
    const SsnspCount<V> count{depth, paths, engine.data(pending), engine.data(send)};
    for (auto frontier = engine.single(source); engine.size(frontier) > 0;) {
      frontier = engine.edge_map(frontier, count, EdgeMapOptions{});
      engine.stats().iterations++;
    }
    return;
  }
  engine.set(paths_array, source, 1.0);
  auto frontier = engine.single(source);
  int32_t level = 1;
  // Checkpoints (checkpoint/vertex_state.h; not inside bc, which keeps the
  // levels): an iteration is a level. After level L the depths and counts
  // are the whole state: the next frontier is exactly the vertices at depth
  // L, refiltered from the depths on resuming, and counts are sums of whole
  // numbers, so the same whatever the order they were added in.
  const bool checkpointed = levels == nullptr && options.checkpoint != nullptr;
  if (checkpointed) {
    if (const std::optional<SavedState> saved = resume_vertex_arrays(
            engine, options, {vertex_array(depth), vertex_array(paths)}, 0, "ssnsp")) {
      level = saved->iteration + 1;
      engine.stats().iterations += saved->iteration;
      frontier = engine.filter(engine.all(), AtDepth{depth, saved->iteration});
    }
  }
  if (levels) levels->push_back(frontier);
  for (; engine.size(frontier) > 0; ++level) {
    frontier = engine.edge_map(frontier, SsnspStep<V>{depth, paths, level}, EdgeMapOptions{});
    engine.stats().iterations++;
    if (levels && engine.size(frontier) > 0) levels->push_back(frontier);
    if (checkpointed) save_vertex_arrays(engine, options, level, {}, {vertex_array(depth), vertex_array(paths)});
  }
}

template <typename Engine>
SsnspOutput ssnsp(Engine& engine, typename Engine::vertex_t source, const AlgorithmOptions& options) {
  auto depth = engine.template make_array<int32_t>(kUnreached);
  auto paths = engine.template make_array<double>(0.0);
  ssnsp_into(engine, source, depth, paths, options, nullptr);
  return {engine.to_host(depth), engine.to_host(paths)};
}

// ssnsp_verifier.cc
Verification verify_ssnsp(const AnyGraph& graph, uint64_t source, std::span<const double> paths);

struct Ssnsp {
  using value_t = double;
  static constexpr AlgorithmTraits traits{
      .name = "ssnsp",
      .summary = "number of shortest hop paths from the source (source 1, unreached 0)",
      .sources = SourceUse::kOne,
      .unreached = 0,
      .unreached_marks_reach = true,
      .meaning = ValueMeaning::kCount,
      .agreement = {.relative = 1e-12},
  };
  static EdgeReads reads(const AlgorithmOptions&) { return {Need::kYes, Need::kIfPresent, false}; }
  template <typename V>
  using operators = OperatorList<SsnspStep<V>, BfsStep<V>, SsnspCount<V>>;

  template <typename Engine>
  static ResultVector<value_t> run(Engine& engine, const Sources& sources, const AlgorithmOptions& options) {
    return std::move(ssnsp(engine, static_cast<typename Engine::vertex_t>(sources.at(0)), options).paths);
  }
  static Verification verify(const AnyGraph& graph, const Sources& sources, std::span<const value_t> paths,
                             const AlgorithmOptions&) {
    return verify_ssnsp(graph, sources[0], paths);
  }
  static std::string describe(const AnyGraph&, std::span<const value_t> paths) {
    return describe::reached_of(paths, 0.0);
  }
  // The checkpoint's key (the source is part of it). The accumulative form
  // pushes counts out of order: its state is not the arrays' to rebuild.
  static std::string checkpoint_options(const AlgorithmOptions& options, const Sources& sources) {
    if (options.accumulative)
      throw usage_error("--checkpoint/--resume: ssnsp cannot resume with --accumulative exactly (it relaxes out of order)");
    return "source " + (sources.empty() ? std::string("none") : std::to_string(sources[0]));
  }
};

}  // namespace tg
