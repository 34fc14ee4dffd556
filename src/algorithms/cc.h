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

#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/describe.h"
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

// cc_verifier.cc
Verification verify_cc(const AnyGraph& graph, const std::vector<uint64_t>& label);

struct Cc {
  using value_t = uint64_t;
  static constexpr AlgorithmTraits traits{
      .name = "cc",
      .summary = "weakly connected components, each labelled by its smallest vertex id",
      .sources = SourceUse::kNone,
      .meaning = ValueMeaning::kVertexId,
  };
  static EdgeReads reads(const AlgorithmOptions&) { return {Need::kYes, Need::kNo, false}; }
  template <typename V>
  using operators = OperatorList<CcHook<V>>;

  template <typename Engine>
  static std::vector<value_t> run(Engine& engine, const Sources&, const AlgorithmOptions&) {
    return cc(engine);
  }
  static Verification verify(const AnyGraph& graph, const Sources&, const std::vector<value_t>& label,
                             const AlgorithmOptions&) {
    return verify_cc(graph, label);
  }
  static std::string describe(const AnyGraph&, const std::vector<value_t>& label) {
    std::vector<uint64_t> size(label.size(), 0);
    uint64_t components = 0, largest = 0;
    for (uint64_t l : label)
      if (l < size.size()) size[l]++;
    for (uint64_t s : size)
      if (s) {
        components++;
        largest = std::max(largest, s);
      }
    return describe::count(double(components)) + " components, the largest has " + describe::count(double(largest)) +
           " vertices";
  }
};

}  // namespace tg
