// BC verifier: checks that dependency[v] is Brandes' dependency of the
// source(s) on v, summed over the sources. Hop depths and path counts come
// from a plain serial BFS here, independent of any engine. With one source s
// the check is a certificate (by induction from the deepest level up):
//   1. one value per vertex; dependency[s] = 0.
//   2. every vertex the BFS does not reach has dependency 0.
//   3. every reached v other than s has
//        dependency[v] = sum over the edges v -> w with depth[w] = depth[v] + 1 of
//                        paths[v] / paths[w] * (1 + dependency[w]),
//      each parallel edge adding its own term, within a relative 1e-9 (the
//      engines add in any order).
// With several sources the sum does not decompose into local conditions:
// each source's dependencies are computed here by the same recurrence,
// deepest level first, summed, and compared within the same tolerance.
#include "algorithms/verifier_common.h"

namespace tg {

namespace {

bool close(double got, double want) {
  if (got == want) return true;
  return std::fabs(got - want) <= 1e-9 * std::max(std::fabs(got), std::fabs(want)) + 1e-12;
}

// Depths (-1 unreached) and shortest-path counts from s, and the reached
// vertices in BFS order.
template <typename V>
void count_paths(const Graph<V>& g, uint64_t s, std::vector<int64_t>& depth, std::vector<double>& paths,
                 std::vector<uint64_t>& order) {
  depth = verifier::walk_from(g, s, [](uint64_t, uint64_t, eid_t) { return true; });
  paths.assign(g.num_vertices, 0.0);
  order.clear();
  for (uint64_t v = 0; v < g.num_vertices; ++v)
    if (depth[v] >= 0) order.push_back(v);
  std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return depth[a] < depth[b]; });
  paths[s] = 1;
  for (uint64_t u : order)
    for (eid_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e) {
      uint64_t w = g.out.neighbors[e];
      if (depth[w] == depth[u] + 1) paths[w] += paths[u];
    }
}

// Brandes' term of every successor w of v, with dependency d of the successors.
template <typename V>
double successor_sum(const Graph<V>& g, uint64_t v, const std::vector<int64_t>& depth, const std::vector<double>& paths,
                     std::span<const double> d) {
  double sum = 0;
  for (eid_t e = g.out.offsets[v]; e < g.out.offsets[v + 1]; ++e) {
    uint64_t w = g.out.neighbors[e];
    if (depth[w] == depth[v] + 1) sum += paths[v] / paths[w] * (1.0 + d[w]);
  }
  return sum;
}

template <typename V>
Verification check_one(const Graph<V>& g, uint64_t s, std::span<const double> got) {
  using namespace verifier;
  std::vector<int64_t> depth;
  std::vector<double> paths;
  std::vector<uint64_t> order;
  count_paths(g, s, depth, paths, order);
  if (got[s] != 0) return fail("the source " + vertex_name(g, s) + " has dependency " + num(got[s]) + ", not 0");
  const uint64_t n = g.num_vertices;
  uint64_t v = first_bad_vertex(n, [&](uint64_t x) { return depth[x] < 0 && got[x] != 0; });
  if (v != kNone)
    return fail(vertex_name(g, v) + " is not reachable from the source but has dependency " + num(got[v]) + ", not 0");
  v = first_bad_vertex(n, [&](uint64_t x) {
    return x != s && depth[x] >= 0 && !close(got[x], successor_sum(g, x, depth, paths, got));
  });
  if (v != kNone)
    return fail(vertex_name(g, v) + " at depth " + std::to_string(depth[v]) + " has dependency " + num(got[v]) +
                " but its successors give " + num(successor_sum(g, v, depth, paths, got)));
  return pass(g);
}

template <typename V>
Verification check_many(const Graph<V>& g, const Sources& sources, std::span<const double> got) {
  using namespace verifier;
  std::vector<double> want(g.num_vertices, 0.0), d(g.num_vertices, 0.0);
  std::vector<int64_t> depth;
  std::vector<double> paths;
  std::vector<uint64_t> order;
  for (uint64_t s : sources) {
    count_paths(g, s, depth, paths, order);
    std::fill(d.begin(), d.end(), 0.0);
    for (size_t i = order.size(); i-- > 1;) d[order[i]] = successor_sum(g, order[i], depth, paths, d);
    for (uint64_t v : order)
      if (v != s) want[v] += d[v];
  }
  uint64_t v = first_bad_vertex(g.num_vertices, [&](uint64_t x) { return !close(got[x], want[x]); });
  if (v != kNone)
    return fail(vertex_name(g, v) + " has dependency " + num(got[v]) + " summed over " +
                std::to_string(sources.size()) + " sources, but Brandes' recurrence gives " + num(want[v]));
  return pass(g);
}

template <typename V>
Verification check_bc(const Graph<V>& g, const Sources& sources, std::span<const double> got) {
  using namespace verifier;
  if (auto bad = check_shape(g, got.size())) return *bad;
  for (uint64_t s : sources)
    if (auto bad = check_shape(g, got.size(), s)) return *bad;
  uint64_t v = first_bad_vertex(g.num_vertices, [&](uint64_t x) { return !(got[x] >= 0) || std::isinf(got[x]); });
  if (v != kNone) return fail(vertex_name(g, v) + " has dependency " + num(got[v]) + " (expected finite, >= 0)");
  return sources.size() == 1 ? check_one(g, sources[0], got) : check_many(g, sources, got);
}

}  // namespace

Verification verify_bc(const AnyGraph& graph, const Sources& sources, std::span<const double> dependency) {
  return std::visit([&](const auto& g) { return check_bc(g, sources, dependency); }, graph);
}

}  // namespace tg
