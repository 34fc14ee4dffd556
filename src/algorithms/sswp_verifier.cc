// SSWP verifier: checks that width[v] is the largest bottleneck (smallest
// edge weight on the path) over all paths from the source; the source has
// width inf, vertices without a path of positive width 0. min and >= on
// floats are exact, so every comparison is exact. Invariants, which together
// are a certificate:
//   1. one width per vertex, none NaN or negative; width[source] = inf.
//   2. every edge (u, v, w): width[v] >= min(width[u], w). By induction along
//      the widest path, width[v] >= the widest bottleneck.
//   3. every v with width > 0 other than the source has a supporting in-edge
//      (u, v, w) with min(width[u], w) = width[v], and more: every such v is
//      reached from the source along supporting edges. width[v] is then the
//      bottleneck of a real path, so <= the widest one; and a vertex with no
//      path from the source has width 0. (Supporting in-edges alone would let
//      a cycle of unreachable vertices hold a made-up width; the walk, a plain
//      BFS, rules that out.)
#include "algorithms/verifier_common.h"

namespace tg {

namespace {

template <typename V>
Verification check_sswp(const Graph<V>& g, uint64_t source, std::span<const float> width) {
  using namespace verifier;
  if (auto bad = check_shape(g, width.size(), source)) return *bad;
  const uint64_t n = g.num_vertices;
  auto weight = [&](eid_t e) { return g.out.weights.empty() ? 1.0f : g.out.weights[e]; };

  uint64_t v = first_bad_vertex(n, [&](uint64_t x) { return !(width[x] >= 0); });
  if (v != kNone) return fail(vertex_name(g, v) + " has width " + num(width[v]) + " (expected >= 0)");
  if (width[source] != kInfWidth)
    return fail("the source " + vertex_name(g, source) + " has width " + num(width[source]) + ", not inf");

  std::vector<uint8_t> supported(n, 0);
  eid_t e = first_bad_edge(g, [&](uint64_t u, uint64_t w, eid_t edge) {
    float through = std::min(width[u], weight(edge));
    if (!(width[w] >= through)) return true;
    if (width[w] == through && through > 0) set_flag(supported[w]);
    return false;
  });
  if (e != kNone) {
    uint64_t u = edge_tail(g, e), w = g.out.neighbors[e];
    return fail(edge_name(g, e) + ": width " + num(width[w]) + " at the head is less than min(" + num(width[u]) +
                " at the tail, the weight)");
  }

  v = first_bad_vertex(n, [&](uint64_t x) { return x != source && width[x] > 0 && !supported[x]; });
  if (v != kNone)
    return fail(vertex_name(g, v) + " has width " + num(width[v]) +
                " but no in-edge (u, v, w) with min(width[u], w) equal to it");

  std::vector<int64_t> hops = walk_from(g, source, [&](uint64_t u, uint64_t w, eid_t edge) {
    return width[w] > 0 && width[w] == std::min(width[u], weight(edge));
  });
  v = first_bad_vertex(n, [&](uint64_t x) { return width[x] > 0 && hops[x] < 0; });
  if (v != kNone)
    return fail(vertex_name(g, v) + " has width " + num(width[v]) +
                " but no path of supporting edges from the source leads to it");
  return pass(g);
}

}  // namespace

Verification verify_sswp(const AnyGraph& graph, uint64_t source, std::span<const float> width) {
  return std::visit([&](const auto& g) { return check_sswp(g, source, width); }, graph);
}

}  // namespace tg
