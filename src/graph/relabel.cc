#include "graph/relabel.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "core/error.h"
#include "engines/cpu/parallel.h"

namespace tg {
namespace {

template <typename V>
Csr<V> renumber(const Csr<V>& csr, std::span<const uint64_t> order, const std::vector<uint64_t>& new_of) {
  const int64_t n = static_cast<int64_t>(order.size());
  const bool weighted = !csr.weights.empty();
  std::vector<eid_t> degree(n);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) degree[i] = csr.degree(order[i]);
  Csr<V> out;
  out.offsets = Array<eid_t>::allocate(n + 1);
  const eid_t m = parallel_exclusive_scan(degree.data(), static_cast<uint64_t>(n), out.offsets.data());
  out.offsets[n] = m;
  out.neighbors = Array<V>::allocate(m);
  if (weighted) out.weights = Array<weight_t>::allocate(m);
#pragma omp parallel
  {
    std::vector<std::pair<V, weight_t>> list;
#pragma omp for schedule(dynamic, 1024)
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t v = order[i];
      list.clear();
      for (eid_t e = csr.offsets[v]; e < csr.offsets[v + 1]; ++e)
        list.emplace_back(static_cast<V>(new_of[csr.neighbors[e]]), weighted ? csr.weights[e] : weight_t{});
      std::sort(list.begin(), list.end());
      eid_t at = out.offsets[i];
      for (const auto& [u, w] : list) {
        out.neighbors[at] = u;
        if (weighted) out.weights[at] = w;
        ++at;
      }
    }
  }
  return out;
}

template <typename V>
Graph<V> relabel_graph(const Graph<V>& g, std::span<const uint64_t> order) {
  if (order.size() != g.num_vertices)
    throw usage_error("relabel: the order has " + std::to_string(order.size()) + " ids for " +
                      std::to_string(g.num_vertices) + " vertices");
  std::vector<uint64_t> new_of(g.num_vertices, g.num_vertices);
  for (uint64_t i = 0; i < order.size(); ++i) {
    if (order[i] >= g.num_vertices)
      throw usage_error("relabel: order[" + std::to_string(i) + "] = " + std::to_string(order[i]) + " is not a vertex");
    if (new_of[order[i]] != g.num_vertices)
      throw usage_error("relabel: vertex " + std::to_string(order[i]) + " appears twice in the order");
    new_of[order[i]] = i;
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
  return std::visit([&](const auto& g) -> AnyGraph { return relabel_graph(g, order); }, graph);
}

std::vector<uint64_t> degree_order(const AnyGraph& graph) {
  return std::visit(
      [](const auto& g) {
        std::vector<uint64_t> order(g.num_vertices);
        std::iota(order.begin(), order.end(), uint64_t{0});
        std::stable_sort(order.begin(), order.end(),
                         [&](uint64_t a, uint64_t b) { return g.out.degree(a) > g.out.degree(b); });
        return order;
      },
      graph);
}

}  // namespace tg
