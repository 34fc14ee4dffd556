// CC verifier: checks that label[v] is the smallest vertex id of v's weakly
// connected component. Invariants, which together are a certificate:
//   1. one label per vertex, each a vertex id (< |V|).
//   2. every edge (u, v), whatever its direction, has label[u] = label[v]:
//      each component lies inside one label class.
//   3. label[v] <= v and label[label[v]] = label[v]: each class is named by a
//      member (the vertex r with label r is in class r) that is its smallest
//      id, and the classes are counted by the vertices with label[v] = v.
//   4. that count equals the number of components found by an independent
//      union-find over the edges. With 2, a class holding two components would
//      make fewer classes than components, so classes are the components.
#include "algorithms/verifier_common.h"

namespace tg {

namespace {

// Union-find that threads share: a root is linked under a smaller root by
// compare-and-swap (retried when another thread linked it first), and finds
// halve paths by compare-and-swap. Parents only ever point to smaller ids, so
// no cycle forms, and each successful link joins two sets exactly once: the
// components are the vertices less the links. A serial union-find over
// kron:29's 8.5 G edges had not finished after two minutes (2026-11-26); on
// kron:23 with 2 threads the whole check went from 2.0 to 1.5 s.
class DisjointSets {
 public:
  explicit DisjointSets(uint64_t n) : parent_(n) {
#pragma omp parallel for schedule(static)
    for (uint64_t v = 0; v < n; ++v) parent_[v] = v;
  }
  uint64_t find(uint64_t v) {
    for (;;) {
      uint64_t p = at(v).load(std::memory_order_relaxed);
      if (p == v) return v;
      uint64_t grand = at(p).load(std::memory_order_relaxed);
      if (grand != p) at(v).compare_exchange_weak(p, grand, std::memory_order_relaxed);
      v = grand;
    }
  }
  bool unite(uint64_t a, uint64_t b) {
    for (;;) {
      a = find(a);
      b = find(b);
      if (a == b) return false;
      if (a < b) std::swap(a, b);
      uint64_t root = a;
      if (at(a).compare_exchange_strong(root, b, std::memory_order_relaxed)) return true;
    }
  }

 private:
  std::atomic_ref<uint64_t> at(uint64_t v) { return std::atomic_ref<uint64_t>(parent_[v]); }
  std::vector<uint64_t> parent_;
};

template <typename V>
Verification check_cc(const Graph<V>& g, std::span<const uint64_t> label) {
  using namespace verifier;
  if (auto bad = check_shape(g, label.size())) return *bad;
  const uint64_t n = g.num_vertices;

  uint64_t v = first_bad_vertex(n, [&](uint64_t x) { return label[x] >= n; });
  if (v != kNone) return fail(vertex_name(g, v) + " has label " + std::to_string(label[v]) + ", not a vertex id");
  v = first_bad_vertex(n, [&](uint64_t x) { return label[x] > x; });
  if (v != kNone)
    return fail(vertex_name(g, v) + " has label " + id_of(g, label[v]) +
                ", larger than its own id (labels must be the smallest id of the component)");
  v = first_bad_vertex(n, [&](uint64_t x) { return label[label[x]] != label[x]; });
  if (v != kNone)
    return fail(vertex_name(g, v) + " has label " + id_of(g, label[v]) + " but " +
                vertex_name(g, label[v]) + " has label " + id_of(g, label[label[v]]));

  eid_t e = first_bad_edge(g, [&](uint64_t a, uint64_t b, eid_t) { return label[a] != label[b]; });
  if (e != kNone) {
    uint64_t a = edge_tail(g, e), b = g.out.neighbors[e];
    return fail(edge_name(g, e) + " joins different labels " + id_of(g, label[a]) + " and " +
                id_of(g, label[b]));
  }

  uint64_t classes = 0;
#pragma omp parallel for schedule(static) reduction(+ : classes)
  for (uint64_t x = 0; x < n; ++x) classes += label[x] == x;

  // An undirected graph stores each edge both ways; one way is enough.
  DisjointSets sets(n);
  uint64_t links = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : links)
  for (uint64_t a = 0; a < n; ++a)
    for (eid_t i = g.out.offsets[a]; i < g.out.offsets[a + 1]; ++i) {
      uint64_t b = g.out.neighbors[i];
      if (g.directed || a < b) links += sets.unite(a, b);
    }
  const uint64_t components = n - links;
  if (classes != components) {
    // Name two vertices of one component with different labels.
    std::vector<uint64_t> label_of_root(n, kNone);
    for (uint64_t x = 0; x < n; ++x) {
      uint64_t r = sets.find(x);
      if (label_of_root[r] == kNone) label_of_root[r] = x;
      else if (label[label_of_root[r]] != label[x])
        return fail(vertex_name(g, label_of_root[r]) + " (label " + id_of(g, label[label_of_root[r]]) +
                    ") and " + vertex_name(g, x) + " (label " + id_of(g, label[x]) +
                    ") are in one component; " + std::to_string(classes) + " labels for " +
                    std::to_string(components) + " components");
    }
    return fail(std::to_string(classes) + " distinct labels but union-find finds " + std::to_string(components) +
                " components");
  }
  return pass(g);
}

}  // namespace

Verification verify_cc(const AnyGraph& graph, std::span<const uint64_t> label) {
  return std::visit([&](const auto& g) { return check_cc(g, label); }, graph);
}

}  // namespace tg
