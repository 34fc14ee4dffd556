// SSNSP verifier: checks that paths[v] is the number of shortest hop paths
// from the source to v, counting parallel (duplicate) edges as distinct paths
// (a self loop is never on a shortest path). Hop depths come from a plain
// serial BFS here, independent of any engine. Invariants, which together are
// a certificate (by induction over the depth):
//   1. one count per vertex; paths[source] = 1.
//   2. every vertex the BFS does not reach has count 0.
//   3. every reached v other than the source has
//        paths[v] = sum of paths[u] over the edges (u, v) with depth[u] = depth[v] - 1,
//      each parallel edge adding its own term. The comparison is exact while
//      the counts stay below 2^53 (doubles hold those integers exactly);
//      beyond, a relative error of 1e-9 is allowed.
#include "algorithms/verifier_common.h"

namespace tg {

namespace {

constexpr double kExactLimit = 9007199254740992.0;  // 2^53

bool counts_match(double got, double want) {
  if (got == want) return true;
  if (std::fabs(got) < kExactLimit && std::fabs(want) < kExactLimit) return false;
  return std::fabs(got - want) <= 1e-9 * std::max(std::fabs(got), std::fabs(want));
}

template <typename V>
Verification check_ssnsp(const Graph<V>& g, uint64_t source, std::span<const double> paths) {
  using namespace verifier;
  if (auto bad = check_shape(g, paths.size(), source)) return *bad;
  const uint64_t n = g.num_vertices;
  if (paths[source] != 1)
    return fail("the source " + vertex_name(g, source) + " has " + num(paths[source]) + " paths, not 1");

  std::vector<int64_t> depth = walk_from(g, source, [](uint64_t, uint64_t, eid_t) { return true; });
  uint64_t v = first_bad_vertex(n, [&](uint64_t x) { return depth[x] < 0 && paths[x] != 0; });
  if (v != kNone)
    return fail(vertex_name(g, v) + " is not reachable from the source but has " + num(paths[v]) + " paths, not 0");

  std::vector<double> want = sum_over_in_edges(g, [&](uint64_t u, uint64_t x) {
    return depth[u] >= 0 && depth[u] + 1 == depth[x] ? paths[u] : 0.0;
  });
  v = first_bad_vertex(n, [&](uint64_t x) { return x != source && depth[x] >= 0 && !counts_match(paths[x], want[x]); });
  if (v != kNone)
    return fail(vertex_name(g, v) + " at depth " + std::to_string(depth[v]) + " has " + num(paths[v]) +
                " paths but its in-neighbours at depth " + std::to_string(depth[v] - 1) + " have " + num(want[v]) +
                " together");
  return pass(g);
}

}  // namespace

Verification verify_ssnsp(const AnyGraph& graph, uint64_t source, std::span<const double> paths) {
  return std::visit([&](const auto& g) { return check_ssnsp(g, source, paths); }, graph);
}

}  // namespace tg
