#include "features/tier_scores.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "algorithms/algorithm.h"
#include "core/error.h"
#include "engines/run.h"

namespace tg {
namespace {

template <typename V>
std::vector<double> out_degrees(const Graph<V>& g) {
  std::vector<double> s(g.num_vertices);
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < static_cast<int64_t>(g.num_vertices); ++v) s[v] = static_cast<double>(g.out.degree(v));
  return s;
}

// The graph with every edge turned around; it shares the arrays.
template <typename V>
Graph<V> reversed(const Graph<V>& g) {
  Graph<V> r = g;
  if (g.directed) std::swap(r.out, r.in);
  return r;
}

template <typename V>
std::vector<double> reverse_pagerank(const Graph<V>& g, double damping) {
  const AnyGraph r = reversed(g);
  AlgorithmOptions o;
  o.damping = damping;
  o.tolerance = 1e-9;
  o.max_iters = 1000;
  const RunRequest request = prepare_request(r, make_request(*find_algorithm("pagerank"), {}, o));
  const RunOutput out = run_on_cpu(r, request);
  const auto& score = std::get<ResultVector<double>>(out.values);
  return std::vector<double>(score.begin(), score.end());
}

// Algorithm 2: divide by the in-degree, pull along out-edges, damp.
template <typename V>
std::vector<double> weighted_reverse_pagerank(const Graph<V>& g, const TierScoreOptions& o) {
  const int64_t n = static_cast<int64_t>(g.num_vertices);
  std::vector<double> score(n, n > 0 ? 1.0 / static_cast<double>(n) : 0.0), share(n);
  if (!o.train_ids.empty()) {
    const double weight = static_cast<double>(n) / static_cast<double>(o.train_ids.size());
    for (uint64_t t : o.train_ids) score[t] *= weight;  // a repeated id is weighted again, as in the paper's loop
  }
  const Csr<V>& in = g.in_edges();
  for (int it = 0; it < o.iterations; ++it) {
#pragma omp parallel for schedule(static)
    for (int64_t v = 0; v < n; ++v) {
      const eid_t d = in.degree(v);
      share[v] = d > 0 ? score[v] / static_cast<double>(d) : 0.0;
    }
#pragma omp parallel for schedule(dynamic, 1024)
    for (int64_t u = 0; u < n; ++u) {
      double sum = 0;
      for (eid_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e) sum += share[g.out.neighbors[e]];
      score[u] = (1.0 - o.damping) / static_cast<double>(n) + o.damping * sum;
    }
  }
  return score;
}

}  // namespace

std::optional<TierScore> parse_tier_score(std::string_view name) {
  if (name == "degree") return TierScore::kDegree;
  if (name == "reverse-pagerank") return TierScore::kReversePageRank;
  if (name == "weighted-reverse-pagerank") return TierScore::kWeightedReversePageRank;
  return std::nullopt;
}

std::vector<double> tier_scores(const AnyGraph& graph, const TierScoreOptions& options) {
  const uint64_t n = num_vertices(graph);
  if (options.iterations < 1) throw usage_error("tier scores: iterations " + std::to_string(options.iterations) + ": at least 1");
  // (0, 1) for every score: reverse PageRank runs the PageRank algorithm, which takes no 0 (every score equal).
  if (!(options.damping > 0 && options.damping < 1))
    throw usage_error("tier scores: damping " + std::to_string(options.damping) + " is outside (0, 1)");
  for (uint64_t t : options.train_ids)
    if (t >= n) throw usage_error("tier scores: train id " + std::to_string(t) + " is not a vertex");
  return std::visit(
      [&](const auto& g) {
        if (!g.has_in_edges()) throw Error("tier scores: the directed graph's in-edges were not built");
        switch (options.score) {
          case TierScore::kDegree: return out_degrees(g);
          case TierScore::kReversePageRank: return reverse_pagerank(g, options.damping);
          case TierScore::kWeightedReversePageRank: return weighted_reverse_pagerank(g, options);
        }
        return out_degrees(g);
      },
      graph);
}

std::vector<uint64_t> order_by_score(std::span<const double> scores) {
  // NaN has no rank: with it the sort's order is not strict weak, and the output is no order at all.
  for (size_t i = 0; i < scores.size(); ++i)
    if (std::isnan(scores[i])) throw usage_error("order_by_score: scores[" + std::to_string(i) + "] is NaN");
  std::vector<uint64_t> order(scores.size());
  std::iota(order.begin(), order.end(), uint64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return scores[a] > scores[b]; });
  return order;
}

}  // namespace tg
