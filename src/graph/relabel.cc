#include "graph/relabel.h"

#include <parallel/algorithm>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "core/error.h"
#include "engines/cpu/parallel.h"
#include "graph/weight_order.h"

namespace tg {
namespace {

// A list's entries by new id, then weight (the builder's order), or by weight,
// then new id (`by_weight`, graph/weight_order.h's). Unweighted lists sort
// their ids in place; weighted ones sort (id, weight) pairs packed in one
// word where a 4-byte id allows, a compare a word.
template <typename V>
void sort_list(V* ids, weight_t* w, eid_t count, bool by_weight, std::vector<uint64_t>& packed,
               std::vector<std::pair<V, weight_t>>& pairs) {
  if (!w) {
    std::sort(ids, ids + count);
    return;
  }
  if constexpr (sizeof(V) == 4) {
    packed.resize(count);
    for (eid_t k = 0; k < count; ++k) {
      uint32_t bits;
      std::memcpy(&bits, &w[k], sizeof bits);
      // Non-negative floats order as their bits; a negative weight's bits
      // flipped keep the order too (SSSP refuses those; relabel keeps them).
      bits = (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
      packed[k] = by_weight ? (uint64_t{bits} << 32) | ids[k] : (uint64_t{ids[k]} << 32) | bits;
    }
    std::sort(packed.begin(), packed.end());
    for (eid_t k = 0; k < count; ++k) {
      const uint32_t high = static_cast<uint32_t>(packed[k] >> 32), low = static_cast<uint32_t>(packed[k]);
      uint32_t bits = by_weight ? high : low;
      bits = (bits & 0x80000000u) ? (bits & 0x7FFFFFFFu) : ~bits;
      ids[k] = static_cast<V>(by_weight ? low : high);
      std::memcpy(&w[k], &bits, sizeof bits);
    }
  } else {
    pairs.resize(count);
    for (eid_t k = 0; k < count; ++k) pairs[k] = {ids[k], w[k]};
    if (by_weight)
      std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
        return a.second < b.second || (a.second == b.second && a.first < b.first);
      });
    else
      std::sort(pairs.begin(), pairs.end());
    for (eid_t k = 0; k < count; ++k) std::tie(ids[k], w[k]) = pairs[k];
  }
}

template <typename V>
Csr<V> renumber(const Csr<V>& csr, std::span<const uint64_t> order, const Array<V>& new_of, bool by_weight) {
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
#pragma omp parallel
  {
    std::vector<uint64_t> packed;
    std::vector<std::pair<V, weight_t>> pairs;
#pragma omp for schedule(dynamic, 1024)
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t v = order[i];
      const eid_t from = csr.offsets[v], count = csr.offsets[v + 1] - from, at = out.offsets[i];
      V* ids = out.neighbors.data() + at;
      for (eid_t k = 0; k < count; ++k) ids[k] = new_of[csr.neighbors[from + k]];
      weight_t* w = weighted ? out.weights.data() + at : nullptr;
      if (w) std::copy_n(csr.weights.data() + from, count, w);
      sort_list(ids, w, count, by_weight, packed, pairs);
    }
  }
  return out;
}

template <typename V>
Graph<V> relabel_graph(const Graph<V>& g, std::span<const uint64_t> order, bool by_weight) {
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
  r.out = renumber(g.out, order, new_of, by_weight);
  if (g.directed && g.in.built()) r.in = renumber(g.in, order, new_of, by_weight);
  return r;
}

}  // namespace

AnyGraph relabel(const AnyGraph& graph, std::span<const uint64_t> order) {
  // Lists ordered by weight stay so (SSSP on the GPU reads them by band).
  const bool by_weight = lists_ordered_by_weight(graph);
  return std::visit([&](const auto& g) -> AnyGraph { return relabel_graph(g, order, by_weight); }, graph);
}

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
