// BFS verifier: checks that depth[] holds the hop distance from the source
// (-1 where there is no path). Invariants, which together are a certificate:
//   1. one depth per vertex; each is -1 (unreached) or >= 0; depth[source] = 0.
//   2. every edge (u, v) with u reached: v is reached and depth[v] <= depth[u] + 1.
//      By induction along a shortest path, depth[v] <= the hop distance, and
//      every vertex reachable from the source is reached. It follows that no
//      unreached vertex has a reached in-neighbour.
//   3. every reached v other than the source has a parent: an in-neighbour u
//      with depth[u] = depth[v] - 1 >= 0. Following parents reaches the source
//      in exactly depth[v] steps, so depth[v] >= the hop distance and reached
//      vertices are reachable.
// Needs no in-edges: the scan of the out-edges marks "has a parent" flags.
#include "algorithms/verifier_common.h"

namespace tg {

namespace {

template <typename V>
Verification check_bfs(const Graph<V>& g, uint64_t source, std::span<const int32_t> depth) {
  using namespace verifier;
  if (auto bad = check_shape(g, depth.size(), source)) return *bad;
  const uint64_t n = g.num_vertices;

  uint64_t v = first_bad_vertex(n, [&](uint64_t x) { return depth[x] < kUnreached; });
  if (v != kNone) return fail(vertex_name(g, v) + " has depth " + std::to_string(depth[v]) + " (expected -1 or >= 0)");
  if (depth[source] != 0)
    return fail("the source " + vertex_name(g, source) + " has depth " + std::to_string(depth[source]) + ", not 0");

  std::vector<uint8_t> has_parent(n, 0);
  eid_t e = first_bad_edge(g, [&](uint64_t u, uint64_t w, eid_t) {
    int64_t du = depth[u], dw = depth[w];
    if (du < 0) return false;
    if (dw < 0 || dw > du + 1) return true;
    if (dw == du + 1) set_flag(has_parent[w]);
    return false;
  });
  if (e != kNone) {
    uint64_t u = edge_tail(g, e), w = g.out.neighbors[e];
    if (depth[w] < 0)
      return fail(edge_name(g, e) + ": the tail has depth " + std::to_string(depth[u]) + " but the head is unreached");
    return fail(edge_name(g, e) + ": depth " + std::to_string(depth[w]) + " at the head is more than one plus depth " +
                std::to_string(depth[u]) + " at the tail");
  }

  v = first_bad_vertex(n, [&](uint64_t x) { return x != source && depth[x] >= 0 && !has_parent[x]; });
  if (v != kNone)
    return fail(vertex_name(g, v) + " has depth " + std::to_string(depth[v]) + " but no in-neighbour at depth " +
                std::to_string(depth[v] - 1));
  return pass(g);
}

}  // namespace

Verification verify_bfs(const AnyGraph& graph, uint64_t source, std::span<const int32_t> depth) {
  return std::visit([&](const auto& g) { return check_bfs(g, source, depth); }, graph);
}

}  // namespace tg
