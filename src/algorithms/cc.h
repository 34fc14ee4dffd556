// Weakly connected components, labelled by the smallest vertex id in each.
//
// Shiloach-Vishkin style [Shiloach and Vishkin 1982; Soman et al. 2010]:
// every edge (u, v), in either direction, hooks the larger of the labels of u
// and v under the smaller; then pointer jumping flattens the label trees.
// Rounds repeat until no edge hooks. Labels only decrease and always name a
// vertex of the same component, and the smallest id of a component can never
// be hooked, so the final label is that smallest id. Only out-edges are read,
// so directed graphs need no CSC. Verified by cc_verifier.cc.
#pragma once

#include <vector>

#include "algorithms/algorithm.h"
#include "core/atomics.h"
#include "engines/engine.h"

namespace tg {

template <typename V>
struct CcHook {
  static constexpr bool needs_weights = false;
  V* label;

  TG_HD bool cond(V) const { return true; }
  TG_HD bool update_atomic(V u, V v, weight_t) const {
    V lu = atomic_load(&label[u]);
    V lv = atomic_load(&label[v]);
    if (lu == lv) return false;
    V high = lu > lv ? lu : lv;
    V low = lu > lv ? lv : lu;
    return atomic_min(&label[high], low);
  }
  TG_HD bool update(V u, V v, weight_t w) const { return update_atomic(u, v, w); }
};

template <typename V>
struct CcCompress {
  V* label;
  TG_HD void operator()(V v) const {
    V l = label[v];
    while (label[l] != l) l = label[l];
    label[v] = l;
  }
};

template <typename V>
struct CcInit {
  V* label;
  TG_HD void operator()(V v) const { label[v] = v; }
};

template <typename Engine>
std::vector<uint64_t> cc(Engine& engine) {
  using V = typename Engine::vertex_t;
  auto label_array = engine.template make_array<V>(V{0});
  V* label = engine.data(label_array);
  auto all = engine.all();
  engine.vertex_map(all, CcInit<V>{label});
  const EdgeMapOptions hook_all{Direction::kPush, true};
  while (true) {
    auto hooked = engine.edge_map(all, CcHook<V>{label}, hook_all);
    engine.stats().iterations++;
    engine.vertex_map(all, CcCompress<V>{label});
    if (engine.size(hooked) == 0) break;
  }
  std::vector<V> labels = engine.to_host(label_array);
  return std::vector<uint64_t>(labels.begin(), labels.end());
}

}  // namespace tg
