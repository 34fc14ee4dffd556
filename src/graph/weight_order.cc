#include "graph/weight_order.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "core/error.h"
#include "engines/cpu/parallel.h"
#include "graph/huge_pages.h"

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

// A weight's bits, ordered as the weights are (flipped where negative, the
// sign set where not), and back.
uint32_t ordered_bits(weight_t w) {
  uint32_t bits;
  std::memcpy(&bits, &w, sizeof bits);
  return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

weight_t weight_of_bits(uint32_t bits) {
  bits = (bits & 0x80000000u) ? (bits & 0x7FFFFFFFu) : ~bits;
  weight_t w;
  std::memcpy(&w, &bits, sizeof w);
  return w;
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
    std::vector<uint64_t> packed;
#pragma omp for schedule(dynamic, 1024)
    for (uint64_t u = 0; u < n; ++u) {
      const eid_t b = off[u], e = off[u + 1];
      if (e - b < 2 || std::is_sorted(w + b, w + e)) continue;
      if constexpr (sizeof(V) == 4) {
        // (weight, id) as one 8-byte key, a compare a word, in place of the
        // index sort below, a compare two loads (`generate kron:22 --weights
        // 1:255 --lists-by-weight`, 2 cores: 11.6 s with it, 8.6-9.6 s). Not for
        // a list with a -0 weight, which the keys would put before +0 (the
        // weights compare equal: ties go by id).
        if (std::none_of(w + b, w + e, [](weight_t x) { return x == 0 && std::signbit(x); })) {
          packed.resize(e - b);
          for (eid_t k = b; k < e; ++k) packed[k - b] = (uint64_t{ordered_bits(w[k])} << 32) | ids[k];
          std::sort(packed.begin(), packed.end());
          for (eid_t k = b; k < e; ++k) {
            ids[k] = static_cast<V>(packed[k - b]);
            w[k] = weight_of_bits(static_cast<uint32_t>(packed[k - b] >> 32));
          }
          continue;
        }
      }
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

template <typename V>
Csr<V> light_sublists(const Csr<V>& csr, uint64_t n, weight_t below) {
  if (csr.weights.empty() && csr.num_edges() > 0) throw Error("light lists: the graph has no weights");
  const eid_t* off = csr.offsets.data();
  const weight_t* w = csr.weights.data();
  std::vector<eid_t> kept(n);
#pragma omp parallel for schedule(dynamic, 4096)
  for (uint64_t u = 0; u < n; ++u) {
    eid_t k = 0;
    for (eid_t e = off[u]; e < off[u + 1]; ++e) k += w[e] < below;
    kept[u] = k;
  }
  Csr<V> light;
  light.offsets = allocate_huge<eid_t>(n + 1);
  const eid_t m = parallel_exclusive_scan(kept.data(), n, light.offsets.data());
  light.neighbors = allocate_huge<V>(std::max<eid_t>(m, 1));
  light.weights = allocate_huge<weight_t>(std::max<eid_t>(m, 1));
  const eid_t* to = light.offsets.data();
  V* nbr = light.neighbors.data();
  weight_t* lw = light.weights.data();
#pragma omp parallel for schedule(dynamic, 4096)
  for (uint64_t u = 0; u < n; ++u) {
    eid_t at = to[u];
    for (eid_t e = off[u]; e < off[u + 1]; ++e)
      if (w[e] < below) {
        nbr[at] = csr.neighbors[e];
        lw[at++] = w[e];
      }
  }
  return light;
}

template Csr<uint32_t> light_sublists(const Csr<uint32_t>&, uint64_t, weight_t);
template Csr<uint64_t> light_sublists(const Csr<uint64_t>&, uint64_t, weight_t);

void order_lists_by_weight(AnyGraph& graph, const std::string& what) {
  // No edges, no lists to order (and no weights: --weights on a graph that
  // --simplify emptied gives none; it ran without --lists-by-weight).
  if (num_edges(graph) == 0) return;
  if (!std::visit([](const auto& g) { return g.weighted(); }, graph))
    throw usage_error(what + ": --lists-by-weight needs edge weights (a weighted file, or --weights LOW:HIGH)");
  order_lists_by_weight(graph);
}

}  // namespace tg
