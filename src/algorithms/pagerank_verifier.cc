// PageRank verifier: checks that score[] is a PageRank vector (damping d,
// the mass of vertices without out-edges spread evenly over all vertices) to
// the accuracy that the run's stopping rule promises. Invariants:
//   1. one score per vertex, each finite and >= 0, and they sum to 1 within 1e-6.
//   2. the residual is small: with T the PageRank map,
//        T(x)[v] = (1 - d) / n + d * dangling(x) / n + d * sum_{u -> v} x[u] / outdeg(u),
//      the L1 norm |T(score) - score| is at most
//        bound = 10 * d * max(tolerance, 2 * d^(max_iters - 1)) + rounding,
//      rounding 1e-9, or 2^-22 where the contributions were floats.
// Why this bound: T(x) - T(y) = d * M (x - y) with M column-stochastic
// (dangling columns spread 1/n everywhere), so |T(x) - T(y)|_1 <= d |x - y|_1.
// A run that stops at x_k = T(x_{k-1}) thus has residual
// |T(x_k) - x_k| = |T(x_k) - T(x_{k-1})| <= d * |x_k - x_{k-1}|, the last
// change times d. That change is below the tolerance when the run converged,
// and at most d^(k-1) * |x_1 - x_0| <= 2 d^(k-1) when it stopped at max_iters
// (two probability vectors differ by at most 2). The factor 10 and the
// rounding term leave room for rounding (sums of millions of terms; engines that keep
// scores in single precision) without letting a wrong vector through: a
// vector off the fixed point by r has residual >= (1 - d) r.
#include "algorithms/pagerank_precision.h"
#include "algorithms/verifier_common.h"

namespace tg {

namespace {

template <typename V>
Verification check_pagerank(const Graph<V>& g, std::span<const double> score, const AlgorithmOptions& options) {
  using namespace verifier;
  if (auto bad = check_shape(g, score.size())) return *bad;
  const uint64_t n = g.num_vertices;
  if (n == 0) return pass(g);
  const double d = options.damping;

  uint64_t v = first_bad_vertex(n, [&](uint64_t x) { return !(score[x] >= 0) || std::isinf(score[x]); });
  if (v != kNone) return fail(vertex_name(g, v) + " has score " + num(score[v]) + " (expected finite and >= 0)");
  double total = 0, dangling = 0;
#pragma omp parallel for schedule(static) reduction(+ : total, dangling)
  for (uint64_t x = 0; x < n; ++x) {
    total += score[x];
    if (g.out.degree(x) == 0) dangling += score[x];
  }
  if (!(std::fabs(total - 1) <= 1e-6)) return fail("the scores sum to " + num(total) + ", not 1");

  const double base = (1 - d) / static_cast<double>(n) + d * dangling / static_cast<double>(n);
  std::vector<double> incoming =
      sum_over_in_edges(g, [&](uint64_t u, uint64_t) { return score[u] / static_cast<double>(g.out.degree(u)); });
  double residual = 0;
#pragma omp parallel for schedule(static) reduction(+ : residual)
  for (uint64_t x = 0; x < n; ++x) residual += std::fabs(base + d * incoming[x] - score[x]);

  const double last_change = std::max(options.tolerance, 2 * std::pow(d, std::max(0, options.max_iters - 1)));
  // Scores sent in single precision come back rounded to 2^-24 of each, up
  // to about 2^-23 in L1 whatever the damping: at damping 0.001 the bound
  // below was 1.1e-8 and a float run's rounding alone 1.8-2.6e-8.
  const double rounding = pagerank_sends_floats(options) ? 0x1p-22 : 1e-9;
  const double bound = 10 * d * last_change + rounding;
  if (!(residual <= bound)) {
    uint64_t worst = 0;
    double worst_gap = -1;
    for (uint64_t x = 0; x < n; ++x) {
      double gap = std::fabs(base + d * incoming[x] - score[x]);
      if (gap > worst_gap) worst_gap = gap, worst = x;
    }
    return fail("residual |T(score) - score|_1 = " + num(residual) + " exceeds " + num(bound) + "; worst at " +
                vertex_name(g, worst) + ": score " + num(score[worst]) + ", one more iteration gives " +
                num(base + d * incoming[worst]));
  }
  return pass(g);
}

}  // namespace

Verification verify_pagerank(const AnyGraph& graph, std::span<const double> score, const AlgorithmOptions& options) {
  return std::visit([&](const auto& g) { return check_pagerank(g, score, options); }, graph);
}

}  // namespace tg
