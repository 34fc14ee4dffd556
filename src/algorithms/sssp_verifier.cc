// SSSP verifier: checks that dist[] holds the shortest-path distances from the
// source over non-negative weights (inf where there is no path). Comparisons
// allow a relative error of 1e-9 (kTolerance). Invariants, which together are
// a certificate:
//   1. one distance per vertex, none NaN or negative; dist[source] = 0; no edge
//      weight is negative or NaN (the certificate needs w >= 0).
//   2. every edge (u, v, w) with dist[u] finite: dist[v] <= dist[u] + w.
//      By induction along a shortest path, dist[v] <= the true distance, and
//      every vertex reachable from the source has a finite distance. It
//      follows that no infinite vertex has a finite in-neighbour.
//   3. every finite v other than the source has a tight in-edge (u, v, w),
//      dist[v] = dist[u] + w, and more: every finite v is reached from the
//      source along tight edges. dist[v] is then the length of a real path,
//      so >= the true distance. (A tight in-edge alone is not enough where
//      weights can be 0: two unreachable vertices joined both ways by 0-weight
//      edges could hold any equal finite distance. The walk over tight edges,
//      a plain BFS, catches that.)
// An edge of weight inf is allowed: it bounds nothing in 2 (dist[u] + inf)
// and is never tight in 3, so a distance that only it could explain fails.
#include "algorithms/verifier_common.h"

namespace tg {

namespace {

constexpr double kTolerance = 1e-9;

bool at_most(double a, double b) { return a <= b + kTolerance * b; }  // a <= b, both >= 0
// Finite only: |a - inf| <= 1e-9 * inf would hold for every a.
bool close(double a, double b) {
  return std::isfinite(a) && std::isfinite(b) && std::fabs(a - b) <= kTolerance * std::max(a, b);
}

template <typename V>
Verification check_sssp(const Graph<V>& g, uint64_t source, std::span<const double> dist) {
  using namespace verifier;
  if (auto bad = check_shape(g, dist.size(), source)) return *bad;
  const uint64_t n = g.num_vertices;

  uint64_t v = first_bad_vertex(n, [&](uint64_t x) { return !(dist[x] >= 0); });
  if (v != kNone) return fail(vertex_name(g, v) + " has distance " + num(dist[v]) + " (expected >= 0 or inf)");
  if (dist[source] != 0) return fail("the source " + vertex_name(g, source) + " has distance " + num(dist[source]) + ", not 0");

  std::vector<uint8_t> has_tight(n, 0);
  eid_t e = first_bad_edge(g, [&](uint64_t u, uint64_t w, eid_t edge) {
    double weight = weight_of(g, edge);
    if (!(weight >= 0)) return true;
    if (std::isinf(dist[u])) return false;
    double through = dist[u] + weight;
    if (!at_most(dist[w], through)) return true;
    if (close(dist[w], through)) set_flag(has_tight[w]);
    return false;
  });
  if (e != kNone) {
    uint64_t u = edge_tail(g, e), w = g.out.neighbors[e];
    if (!(weight_of(g, e) >= 0)) return fail(edge_name(g, e) + ": negative or NaN weight, shortest paths undefined");
    return fail(edge_name(g, e) + ": distance " + num(dist[w]) + " at the head exceeds " + num(dist[u]) +
                " at the tail plus the weight");
  }

  v = first_bad_vertex(n, [&](uint64_t x) { return x != source && std::isfinite(dist[x]) && !has_tight[x]; });
  if (v != kNone)
    return fail(vertex_name(g, v) + " has distance " + num(dist[v]) + " but no tight in-edge (dist[u] + w = dist[v])");

  std::vector<int64_t> hops =
      walk_from(g, source, [&](uint64_t u, uint64_t w, eid_t edge) { return close(dist[w], dist[u] + weight_of(g, edge)); });
  v = first_bad_vertex(n, [&](uint64_t x) { return std::isfinite(dist[x]) && hops[x] < 0; });
  if (v != kNone)
    return fail(vertex_name(g, v) + " has distance " + num(dist[v]) +
                " but no path of tight edges from the source leads to it (a 0-weight cycle?)");
  return pass(g);
}

}  // namespace

Verification verify_sssp(const AnyGraph& graph, uint64_t source, std::span<const double> dist) {
  return std::visit([&](const auto& g) { return check_sssp(g, source, dist); }, graph);
}

}  // namespace tg
