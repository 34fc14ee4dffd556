#include "graph/weight_order.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <vector>

#include "core/error.h"

namespace tg {
namespace {

template <typename V>
bool ordered(const Csr<V>& csr, uint64_t n) {
  const eid_t* off = csr.offsets.data();
  const weight_t* w = csr.weights.data();
  // An unordered graph shows it within its first lists: no team for those.
  const uint64_t first = std::min<uint64_t>(n, 1u << 12);
  for (uint64_t u = 0; u < first; ++u)
    if (!std::is_sorted(w + off[u], w + off[u + 1])) return false;
  std::atomic<bool> ok{true};
#pragma omp parallel for schedule(dynamic, 4096)
  for (uint64_t u = first; u < n; ++u) {
    if (ok.load(std::memory_order_relaxed) && !std::is_sorted(w + off[u], w + off[u + 1]))
      ok.store(false, std::memory_order_relaxed);
  }
  return ok.load();
}

template <typename V>
void order(Csr<V>& csr, uint64_t n) {
  if (!csr.built() || csr.weights.empty()) return;
  const eid_t* off = csr.offsets.data();
  V* ids = csr.neighbors.data();
  weight_t* w = csr.weights.data();
#pragma omp parallel
  {
    std::vector<eid_t> at;
    std::vector<V> id_copy;
    std::vector<weight_t> w_copy;
#pragma omp for schedule(dynamic, 1024)
    for (uint64_t u = 0; u < n; ++u) {
      const eid_t b = off[u], e = off[u + 1];
      if (e - b < 2 || std::is_sorted(w + b, w + e)) continue;
      at.resize(e - b);
      std::iota(at.begin(), at.end(), b);
      std::sort(at.begin(), at.end(), [&](eid_t x, eid_t y) { return w[x] < w[y] || (w[x] == w[y] && ids[x] < ids[y]); });
      id_copy.resize(e - b);
      w_copy.resize(e - b);
      for (eid_t k = 0; k < e - b; ++k) {
        id_copy[k] = ids[at[k]];
        w_copy[k] = w[at[k]];
      }
      std::copy(id_copy.begin(), id_copy.end(), ids + b);
      std::copy(w_copy.begin(), w_copy.end(), w + b);
    }
  }
}

}  // namespace

bool lists_ordered_by_weight(const AnyGraph& graph) {
  return std::visit(
      [](const auto& g) { return g.weighted() && ordered(g.out, g.num_vertices); }, graph);
}

void order_lists_by_weight(AnyGraph& graph) {
  std::visit(
      [](auto& g) {
        order(g.out, g.num_vertices);
        if (g.directed) order(g.in, g.num_vertices);
      },
      graph);
}

void order_lists_by_weight(AnyGraph& graph, const std::string& what) {
  if (!std::visit([](const auto& g) { return g.weighted(); }, graph))
    throw usage_error(what + ": --lists-by-weight needs edge weights (a weighted file, or --weights LOW:HIGH)");
  order_lists_by_weight(graph);
}

}  // namespace tg
