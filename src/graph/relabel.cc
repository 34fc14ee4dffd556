#include "graph/relabel.h"

#include <parallel/algorithm>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "core/error.h"
#include "engines/cpu/parallel.h"
#include "graph/builder.h"
#include "graph/weight_order.h"

namespace tg {
namespace {

template <typename V>
Csr<V> renumber(const Csr<V>& csr, std::span<const uint64_t> order, const Array<V>& new_of) {
  const int64_t n = static_cast<int64_t>(order.size());
  const bool weighted = !csr.weights.empty();
  Array<eid_t> degree = Array<eid_t>::allocate(n);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) degree[i] = csr.degree(order[i]);
  Csr<V> out;
  out.offsets = Array<eid_t>::allocate(n + 1);
  const eid_t m = parallel_exclusive_scan(degree.data(), static_cast<uint64_t>(n), out.offsets.data());
  out.offsets[n] = m;
  out.neighbors = Array<V>::allocate(m);
  if (weighted) out.weights = Array<weight_t>::allocate(m);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t v = order[i];
    const eid_t from = csr.offsets[v], count = csr.offsets[v + 1] - from, at = out.offsets[i];
    V* ids = out.neighbors.data() + at;
    for (eid_t k = 0; k < count; ++k) ids[k] = new_of[csr.neighbors[from + k]];
    if (weighted) std::copy_n(csr.weights.data() + from, count, out.weights.data() + at);
  }
  sort_neighbor_lists(out, static_cast<uint64_t>(n));  // the builder's order: by id, then weight
  return out;
}

template <typename V>
Graph<V> relabel_graph(const Graph<V>& g, std::span<const uint64_t> order) {
  if (order.size() != g.num_vertices)
    throw usage_error("relabel: the order has " + std::to_string(order.size()) + " ids for " +
                      std::to_string(g.num_vertices) + " vertices");
  // The new id of each old one, as wide as the lists' ids (the renumbering's
  // gather reads it at random, once an entry: half the bytes for 4-byte ids).
  Array<V> new_of = Array<V>::allocate(g.num_vertices);
  std::vector<bool> seen(g.num_vertices);
  for (uint64_t i = 0; i < order.size(); ++i) {
    if (order[i] >= g.num_vertices)
      throw usage_error("relabel: order[" + std::to_string(i) + "] = " + std::to_string(order[i]) + " is not a vertex");
    if (seen[order[i]])
      throw usage_error("relabel: vertex " + std::to_string(order[i]) + " appears twice in the order");
    seen[order[i]] = true;
    new_of[order[i]] = static_cast<V>(i);
  }
  Graph<V> r;
  r.num_vertices = g.num_vertices;
  r.directed = g.directed;
  r.id_base = 0;  // new ids have no file numbering
  r.name = g.name + " (relabelled)";
  r.out = renumber(g.out, order, new_of);
  if (g.directed && g.in.built()) r.in = renumber(g.in, order, new_of);
  return r;
}

}  // namespace

AnyGraph relabel(const AnyGraph& graph, std::span<const uint64_t> order) {
  AnyGraph out = std::visit([&](const auto& g) -> AnyGraph { return relabel_graph(g, order); }, graph);
  // Lists ordered by weight stay so (SSSP on the GPU reads them by band).
  if (lists_ordered_by_weight(graph)) order_lists_by_weight(out);
  return out;
}

template <typename V>
bool numbered_by_degree(const Csr<V>& out, uint64_t n) {
  if (out.offsets.size() != n + 1) return false;
  uint64_t rises = 0;
#pragma omp parallel for schedule(static) reduction(+ : rises)
  for (uint64_t v = 1; v < n; ++v) rises += out.degree(v) > out.degree(v - 1);
  return rises == 0;
}
template bool numbered_by_degree(const Csr<vid32_t>&, uint64_t);
template bool numbered_by_degree(const Csr<vid64_t>&, uint64_t);

std::vector<uint64_t> degree_order(const AnyGraph& graph) {
  return std::visit(
      [](const auto& g) {
        const uint64_t n = g.num_vertices;
        std::vector<uint64_t> order(n);
        uint64_t max_degree = 0;
#pragma omp parallel for schedule(static) reduction(max : max_degree)
        for (uint64_t v = 0; v < n; ++v) max_degree = std::max<uint64_t>(max_degree, g.out.degree(v));
        if (n >= (uint64_t{1} << 32) || max_degree >= (uint64_t{1} << 32)) {
          std::iota(order.begin(), order.end(), uint64_t{0});
          std::stable_sort(order.begin(), order.end(),
                           [&](uint64_t a, uint64_t b) { return g.out.degree(a) > g.out.degree(b); });
          return order;
        }
        // Descending degree, ascending id, as one ascending 8-byte key.
#pragma omp parallel for schedule(static)
        for (uint64_t v = 0; v < n; ++v) order[v] = (uint64_t{0xFFFFFFFFu - g.out.degree(v)} << 32) | v;
        __gnu_parallel::sort(order.begin(), order.end());
#pragma omp parallel for schedule(static)
        for (uint64_t i = 0; i < n; ++i) order[i] &= 0xFFFFFFFFu;
        return order;
      },
      graph);
}

}  // namespace tg
