// PageRank by power iteration in pull form (gather over in-edges), so no
// atomics are needed [Page et al. 1999]. Damping 0.85 by default; the rank of
// vertices without out-edges ("dangling") is spread evenly over all vertices,
// so scores always sum to 1. Stops when the L1 change of an iteration falls
// below the tolerance, or after max_iters. Verified by pagerank_verifier.cc.
//
// The accumulative form (AlgorithmOptions::accumulative, for engines that
// read edges out of order) pushes deltas instead [delta PageRank, as in
// Maiter (Zhang et al., TPDS 2014) and Subway's PR]: every vertex holds a
// score and a pending mass; taking a vertex moves its pending into its score
// and sends d * pending / outdeg along each out-edge. Sums commute, so the
// fixed point is the same whatever the order. Mass that reaches a vertex
// without out-edges is spread over all vertices by the driver.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/describe.h"
#include "algorithms/pagerank_precision.h"
#include "checkpoint/vertex_state.h"
#include "core/atomics.h"
#include "core/error.h"
#include "engines/engine.h"

namespace tg {

// The pull form keeps no score array: each vertex holds only what it sends,
// its contribution y[v] / outdeg(v), and a vertex without out-edges, whose
// slot no edge reads, holds y[v] itself; the score is recovered from it.
// Per vertex an iteration then reads one value and writes one (GAP reads
// and writes a score and writes a contribution).
template <typename C>
TG_HD C contribution_of(double y, eid_t degree) {
  return static_cast<C>(degree > 0 ? y / static_cast<double>(degree) : y);
}
template <typename C>
TG_HD double score_of(C contribution, eid_t degree) {
  return degree > 0 ? static_cast<double>(contribution) * static_cast<double>(degree) : contribution;
}

// Every vertex starts at y = x.
template <typename C>
struct StartContribution {
  C* contrib;
  const eid_t* offsets;
  double x;
  template <typename V>
  TG_HD void operator()(V v) const {
    contrib[v] = contribution_of<C>(x, offsets[v + 1] - offsets[v]);
  }
};

// y[v], recovered from its contribution.
template <typename C>
struct ScoreFromContribution {
  const C* contrib;
  const eid_t* offsets;
  // engines/engine.h: only reads (the hybrid engine's mirror of contrib stays fresh).
  std::array<const void*, 0> written() const { return {}; }
  template <typename V>
  TG_HD double operator()(V v) const {
    return score_of(contrib[v], offsets[v + 1] - offsets[v]);
  }
};

// score[v] = y[v] * scale.
template <typename C>
struct WriteScore {
  const C* contrib;
  const eid_t* offsets;
  double* score;
  double scale;
  template <typename V>
  TG_HD void operator()(V v) const {
    score[v] = score_of(contrib[v], offsets[v + 1] - offsets[v]) * scale;
  }
};

// One iteration of y = (1 - d) / n + d * M y, pulled: reads this iteration's
// contributions, writes the next iteration's (a second array: every vertex
// reads the same iterate whatever the thread order), and returns |change|
// of y[v]. There is no dangling sum to take (see pagerank_pull), so an
// iteration is one pass over the vertices, as GAP's. Contributions of type C
// (float or double) are summed in double.
template <typename V, typename C>
struct PageRankGather {
  using acc_t = double;
  static constexpr bool needs_weights = false;
  static constexpr bool sums_by_addition = true;  // engines/engine.h
  const C* contrib;
  C* next_contrib;
  const eid_t* offsets;  // out-edges: the degree that divides a contribution
  double base;           // (1 - d) / n
  double damping;

  TG_HD acc_t zero() const { return 0.0; }
  // engines/engine.h: apply writes next_contrib only.
  std::array<const void*, 1> written() const { return {next_contrib}; }
  TG_HD acc_t gather(V u, V, weight_t) const { return contrib[u]; }
  // engines/engine.h's GathersSourceValues: the value gather() reads.
  TG_HD const C* source_values() const { return contrib; }
  TG_HD acc_t from_value(C x, V, weight_t) const { return x; }
  void prefetch_source(V u) const { __builtin_prefetch(contrib + u); }
  TG_HD acc_t sum(acc_t a, acc_t b) const { return a + b; }
  TG_HD double apply(V v, acc_t total) const {
    const eid_t degree = offsets[v + 1] - offsets[v];
    const double next = base + damping * total;
    const double last = score_of(contrib[v], degree);
    next_contrib[v] = contribution_of<C>(next, degree);
    return fabs(next - last);  // not a branch: its outcome is random
  }
};

struct PageRankOutput {
  ResultVector<double> score;
  int iterations = 0;
  double last_change = 0;
  bool converged = false;  // the tolerance was met (false: stopped by --max-iters or the push form's step cap)
};

// Delta push: begin(u) moves u's pending into its score and into send[u],
// what each of u's out-edges carries this step. Pending may be negative (the
// driver starts from the uniform vector, see below): a vertex is taken again
// once |pending| reaches eps.
template <typename V>
struct PageRankPush {
  static constexpr bool needs_weights = false;
  double* score;
  double* pending;
  double* send;
  const eid_t* offsets;
  double damping;
  double eps;

  TG_HD void begin(V u) const {
    double p = pending[u];
    pending[u] = 0;
    score[u] += p;
    eid_t degree = offsets[u + 1] - offsets[u];
    // A vertex without out-edges keeps its mass in score; the driver spreads it.
    send[u] = degree > 0 ? damping * p / static_cast<double>(degree) : 0.0;
  }
  TG_HD bool cond(V) const { return true; }
  TG_HD bool update(V u, V v, weight_t) const {
    double s = send[u];
    if (s == 0) return false;
    double p = pending[v] + s;
    pending[v] = p;
    return p >= eps || p <= -eps;
  }
  // The thread whose add lands last sees the final sum, so v joins the
  // output whenever that sum is over the threshold.
  TG_HD bool update_atomic(V u, V v, weight_t) const {
    double s = send[u];
    if (s == 0) return false;
    double p = atomic_add(&pending[v], s) + s;
    return p >= eps || p <= -eps;
  }
};

// score[v] where v has no out-edges (the mass it holds for every vertex).
template <typename V>
struct DanglingScore {
  const double* score;
  const eid_t* offsets;
  TG_HD double operator()(V v) const { return offsets[v + 1] == offsets[v] ? score[v] : 0.0; }
};

// Adds the share to pending[v]; returns |pending[v]|, summed for the stop rule.
struct SpreadPending {
  double* pending;
  double share;
  template <typename V>
  TG_HD double operator()(V v) const {
    double p = pending[v] + share;
    pending[v] = p;
    return p >= 0 ? p : -p;
  }
};

struct PendingAtLeast {
  const double* pending;
  double eps;
  template <typename V>
  TG_HD bool operator()(V v) const {
    return pending[v] >= eps || pending[v] <= -eps;
  }
};

// Moves what is still pending into the score (clamped at 0: a coarse
// tolerance must not leave a negative score); returns |pending|.
struct FlushPending {
  double* score;
  double* pending;
  template <typename V>
  TG_HD double operator()(V v) const {
    double p = pending[v];
    double x = score[v] + p;
    score[v] = x > 0 ? x : 0.0;
    pending[v] = 0;
    return p >= 0 ? p : -p;
  }
};

struct ScoreOf {
  const double* score;
  template <typename V>
  TG_HD double operator()(V v) const {
    return score[v];
  }
};

struct ScaleScore {
  double* score;
  double factor;
  template <typename V>
  TG_HD void operator()(V v) const {
    score[v] *= factor;
  }
};

// The pull form iterates the system without the dangling vertices' mass,
// y = (1 - d) / n + d * M y (M: u -> v with weight 1 / outdeg(u); a column
// of a vertex without out-edges is zero, its mass leaks), and returns
// x = y / |y|_1. That is the PageRank vector with the dangling mass spread
// evenly: its fixed point x* solves (I - d M) x* = c * 1 for the scalar
// c = (1 - d) / n + d * dangling(x*) / n, so x* is proportional to
// (I - d M)^-1 1, as y* is [Del Corso, Gulli, Romani, Internet Math. 2005].
// So no iteration sums the dangling mass: one pass over the vertices each
// (GAP's PageRank leaves dangling mass out altogether).
// Stopping: with e = |y_k - y_(k-1)|_1 and s = |y_k|_1, the residual of
// x = y_k / s is |T(x) - x|_1 <= 2 d e / s (the leaky residual, at most
// d e, plus its sum spread over every vertex, all over s), so the run stops
// once e < tolerance * s / 2: the residual is then within d * tolerance, as
// when the iterates were x themselves and stopped at a change below the
// tolerance. s never falls below 1 - d and moves by at most e an iteration,
// so it is summed once, when e first drops below the tolerance, and lowered
// by each later e.
// Contributions of type C: float halves the bytes of the one array read at
// random, each rounded by at most 2^-24 of itself, so an iterate moves by
// about 6e-8 of its mass in L1 and the result by at most 4e-7 (over 1 - d)
// from the fixed point: under what a tolerance of 1e-6 promises
// (pagerank_contributions_float). kron:20 on 2 threads: 16 ms an iteration
// where double took 20-23.
// Checkpoints of the pull form (checkpoint/checkpoint.h): the contributions,
// the last change and the mass bound are the whole state between iterations,
// so a resumed run repeats the uninterrupted one's arithmetic exactly.
template <typename Engine, typename C>
int resume_pagerank(Engine& engine, const AlgorithmOptions& options, C* contrib, double& change, double& mass) {
  const std::optional<SavedState> saved = resume_vertex_data(engine, options, contrib, 2, "PageRank");
  if (!saved) return 0;
  // The uninterrupted run would have stopped at max_iters: a later state is not its.
  if (saved->iteration > options.max_iters)
    throw input_error(options.checkpoint->path(), "a checkpoint at iteration " + std::to_string(saved->iteration) +
                                                      ", past --max-iters " + std::to_string(options.max_iters));
  change = saved->scalars[0];
  mass = saved->scalars[1];
  engine.stats().iterations += saved->iteration;  // the run's count, as if never interrupted
  return saved->iteration;
}

template <typename Engine, typename C>
void checkpoint_pagerank(Engine& engine, const AlgorithmOptions& options, int iteration, const C* contrib,
                         double change, double mass) {
  if (checkpoint_due(options, iteration)) save_vertex_data(engine, options, iteration, {change, mass}, contrib);
}

template <typename Engine, typename C>
PageRankOutput pagerank_pull(Engine& engine, const AlgorithmOptions& options) {
  using V = typename Engine::vertex_t;
  const double n = static_cast<double>(engine.num_vertices());
  const eid_t* offsets = engine.out_offsets();
  PageRankOutput out;
  auto contrib_array = engine.template make_array<C>(C{0});
  auto next_contrib_array = engine.template make_array<C>(C{0});
  C* contrib = engine.data(contrib_array);
  C* next_contrib = engine.data(next_contrib_array);
  engine.vertex_map(engine.all(), StartContribution<C>{contrib, offsets, 1.0 / n});
  const double base = (1.0 - options.damping) / n;
  double change = 0;
  double mass = -1;  // a lower bound on |y|_1 once summed
  // The end of an iteration, after its checkpoint: the mass bound follows
  // the change, and the run stops once the change is small beside the mass.
  auto converged = [&] {
    if (mass >= 0) mass -= change;
    if (change < options.tolerance) {
      if (mass < 0) mass = engine.vertex_sum(ScoreFromContribution<C>{contrib, offsets});
      if (change < options.tolerance * mass / 2) return true;
    }
    return false;
  };
  out.iterations = resume_pagerank(engine, options, contrib, change, mass);
  // A resumed run ends the saved iteration as the uninterrupted run went on
  // after saving it (a run killed after its last iteration gathers no more).
  bool done = out.iterations > 0 && converged();
  while (!done && out.iterations < options.max_iters) {
    change = engine.gather_apply(PageRankGather<V, C>{contrib, next_contrib, offsets, base, options.damping});
    std::swap(contrib, next_contrib);
    out.iterations++;
    engine.stats().iterations++;
    checkpoint_pagerank(engine, options, out.iterations, contrib, change, mass);
    done = converged();
  }
  out.converged = done;
  const double total = engine.vertex_sum(ScoreFromContribution<C>{contrib, offsets});
  out.last_change = total > 0 ? change / total : change;
  auto score_array = engine.template make_array<double>(0.0);
  engine.vertex_map(engine.all(), WriteScore<C>{contrib, offsets, engine.data(score_array), total > 0 ? 1 / total : 1});
  out.score = engine.to_host(score_array);
  return out;
}

// Invariant (exact arithmetic) after each step, once the mass of dangling
// vertices is spread: pending = T(score) - score, T the PageRank map. It
// starts from the pull form's uniform vector: pending = 1/n and a first step
// over all vertices give score = 1/n and pending = d * M score (dangling part
// included), and a one-off shift of -d/n makes that T(score) - score. This
// pending sums to 0 and shrinks about as fast as the pull form's change; from
// score = 0 its mass would only shrink by d a step (up to 8 times the steps on
// the test graphs).
// A vertex is taken when |pending| is at least the mean residual (see the
// loop), and never below eps = tolerance * (1 - d) / n; the run stops when
// |pending|_1 < n * eps. Then x = score + pending has
// |T(x) - x|_1 = d * |M pending|_1 < d * (1 - d) * tolerance, far inside the
// verifier's 10 * d * tolerance, and lies within d * tolerance of the fixed
// point (L1), closer than the pull form's bound d * tolerance / (1 - d). x is
// then scaled to sum to 1 (it misses by d / (1 - d) * sum(pending)), which
// moves it by as much again at most. last_change reports |pending|_1.
template <typename Engine>
PageRankOutput pagerank_accumulative(Engine& engine, const AlgorithmOptions& options) {
  using V = typename Engine::vertex_t;
  const double n = static_cast<double>(engine.num_vertices());
  const double d = options.damping;
  PageRankOutput out;
  double eps = options.tolerance * (1.0 - d) / n;
  if (!(eps > 0)) eps = std::numeric_limits<double>::min();  // tolerance 0: until the step cap
  auto score_array = engine.template make_array<double>(0.0);
  auto pending_array = engine.template make_array<double>(1.0 / n);
  auto send_array = engine.template make_array<double>(0.0);
  double* score = engine.data(score_array);
  double* pending = engine.data(pending_array);
  const eid_t* offsets = engine.out_offsets();
  // In the first step every vertex holds 1/n and every target would cross
  // any threshold: no re-activation within it (the frontier is re-filtered).
  PageRankPush<V> push{score, pending, engine.data(send_array), offsets, d, std::numeric_limits<double>::infinity()};
  // The cap only guards against a tolerance too fine for doubles.
  const uint64_t max_steps = 100 * static_cast<uint64_t>(std::max(options.max_iters, 1));

  uint64_t steps = 0;
  double spread = 0;      // dangling score already spread over all vertices
  double shift = -d / n;  // the start's one-off correction
  auto frontier = engine.all();
  while (steps < max_steps) {
    frontier = engine.edge_map(frontier, push, EdgeMapOptions{});
    ++steps;
    engine.stats().iterations++;
    // Spread every step: mass left waiting keeps the stop rule from passing.
    const double dangling = engine.vertex_sum(DanglingScore<V>{score, offsets});
    const double share = d * (dangling - spread) / n + shift;
    spread = dangling;
    shift = 0;
    const double residual = engine.vertex_sum(SpreadPending{pending, share});
    if (residual < n * eps) {
      out.converged = true;
      break;
    }
    // Every vertex over eps is taken in the next step. Within a step, an
    // update re-activates its target (which an asynchronous engine's inner
    // iterations follow) only above the mean residual: iterating a loaded
    // unit to eps took kron:25 about 200 inner passes per unit, each moving
    // little of the residual, since few of a unit's edges stay inside it.
    push.eps = std::max(eps, residual / n);
    frontier = engine.filter(engine.all(), PendingAtLeast{pending, eps});
    if (engine.size(frontier) == 0) {  // (rounding only: |pending|_1 >= n * eps)
      out.converged = true;
      break;
    }
  }
  out.iterations = static_cast<int>(steps);
  out.last_change = engine.vertex_sum(FlushPending{score, pending});
  double total = engine.vertex_sum(ScoreOf{score});
  if (total > 0) engine.vertex_map(engine.all(), ScaleScore{score, 1.0 / total});
  out.score = engine.to_host(score_array);
  return out;
}

template <typename Engine>
PageRankOutput pagerank(Engine& engine, const AlgorithmOptions& options) {
  if (engine.num_vertices() == 0) return PageRankOutput{};
  if (options.accumulative) return pagerank_accumulative(engine, options);
  if (pagerank_contributions_float(options)) return pagerank_pull<Engine, float>(engine, options);
  return pagerank_pull<Engine, double>(engine, options);
}

// pagerank_verifier.cc
Verification verify_pagerank(const AnyGraph& graph, std::span<const double> score, const AlgorithmOptions& options);

struct PageRank {
  using value_t = double;
  static constexpr AlgorithmTraits traits{
      .name = "pagerank",
      .aliases = "pr",
      .summary = "PageRank scores (sum 1), to --tolerance in L1; pull (gather) form, or pushed deltas",
      .sources = SourceUse::kNone,
      .agreement = {.l1 = 1e-4},
  };
  // The pull form gathers over in-edges only; the accumulative one pushes.
  static EdgeReads reads(const AlgorithmOptions& options) {
    if (options.accumulative) return {Need::kYes, Need::kNo, false};
    return {Need::kNo, Need::kYes, false};
  }
  template <typename V>
  using operators = OperatorList<PageRankGather<V, float>, PageRankGather<V, double>, PageRankPush<V>>;

  static void prepare(const AnyGraph&, const AlgorithmOptions& options) {
    if (!(options.tolerance >= 0)) throw usage_error("--tolerance must be non-negative");
    if (options.max_iters < 1) throw usage_error("--max-iters must be at least 1");
    if (!(options.damping > 0 && options.damping < 1)) throw usage_error("--damping must be between 0 and 1");
  }
  template <typename Engine>
  static ResultVector<value_t> run(Engine& engine, const Sources&, const AlgorithmOptions& options) {
    PageRankOutput out = pagerank(engine, options);
    engine.stats().residual = out.last_change;
    engine.stats().converged = out.converged;
    if (!out.converged && pagerank_sends_floats(options))
      engine.stats().advice = "float contributions stall near 1e-7 in L1: --pr-contributions double";
    return std::move(out.score);
  }
  static Verification verify(const AnyGraph& graph, const Sources&, std::span<const value_t> score,
                             const AlgorithmOptions& options) {
    return verify_pagerank(graph, score, options);
  }
  // The checkpoint's key: what changes the result. The accumulative form
  // pushes deltas in whatever order threads take them: no exact resume.
  static std::string checkpoint_options(const AlgorithmOptions& options, const Sources&) {
    if (options.accumulative) throw usage_error("--checkpoint/--resume: pagerank cannot resume with --accumulative exactly");
    const std::string contributions(choice_name(contributions_choices(), options.contributions));
    char text[160];
    std::snprintf(text, sizeof text, "damping %.17g, tolerance %.17g, contributions %s", options.damping,
                  options.tolerance, contributions.c_str());
    return text;
  }
  static std::string describe(const AnyGraph& graph, std::span<const value_t> score) {
    return describe::top_vertex(graph, score, "score");
  }
};

}  // namespace tg
