// PageRank by power iteration in pull form (gather over in-edges), so no
// atomics are needed [Page et al. 1999]. Damping 0.85 by default; the rank of
// vertices without out-edges ("dangling") is spread evenly over all vertices,
// so scores always sum to 1. Stops when the L1 change of an iteration falls
// below the tolerance, or after max_iters. Verified by pagerank_verifier.cc.
#pragma once

#include <cmath>
#include <vector>

#include "algorithms/algorithm.h"
#include "engines/engine.h"

namespace tg {

// contrib[v] = score[v] / out_degree(v); returns the dangling part of v.
template <typename V>
struct PageRankContribution {
  const double* score;
  double* contrib;
  const eid_t* offsets;
  TG_HD double operator()(V v) const {
    eid_t degree = offsets[v + 1] - offsets[v];
    contrib[v] = degree > 0 ? score[v] / static_cast<double>(degree) : 0.0;
    return degree > 0 ? 0.0 : score[v];
  }
};

template <typename V>
struct PageRankGather {
  using acc_t = double;
  static constexpr bool needs_weights = false;
  const double* contrib;
  double* score;
  double base;     // (1 - d) / n + d * dangling / n
  double damping;

  TG_HD acc_t zero() const { return 0.0; }
  TG_HD acc_t gather(V u, V, weight_t) const { return contrib[u]; }
  TG_HD acc_t sum(acc_t a, acc_t b) const { return a + b; }
  TG_HD double apply(V v, acc_t total) const {
    double next = base + damping * total;
    double change = next > score[v] ? next - score[v] : score[v] - next;
    score[v] = next;
    return change;
  }
};

struct PageRankOutput {
  std::vector<double> score;
  int iterations = 0;
  double last_change = 0;
};

template <typename Engine>
PageRankOutput pagerank(Engine& engine, const AlgorithmOptions& options) {
  using V = typename Engine::vertex_t;
  const double n = static_cast<double>(engine.num_vertices());
  PageRankOutput out;
  if (engine.num_vertices() == 0) return out;
  auto score_array = engine.template make_array<double>(1.0 / n);
  auto contrib_array = engine.template make_array<double>(0.0);
  double* score = engine.data(score_array);
  double* contrib = engine.data(contrib_array);
  for (out.iterations = 0; out.iterations < options.max_iters;) {
    double dangling = engine.vertex_sum(PageRankContribution<V>{score, contrib, engine.out_offsets()});
    double base = (1.0 - options.damping) / n + options.damping * dangling / n;
    out.last_change = engine.gather_apply(PageRankGather<V>{contrib, score, base, options.damping});
    out.iterations++;
    engine.stats().iterations++;
    if (out.last_change < options.tolerance) break;
  }
  out.score = engine.to_host(score_array);
  return out;
}

}  // namespace tg
