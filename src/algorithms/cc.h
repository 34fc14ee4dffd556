// Weakly connected components, labelled by the smallest vertex id in each.
//
// Sampled form (the default, CcMethod::kSampled), after Afforest [Sutton,
// Ben-Nun, Barak, IPDPS 2018]: every vertex links its first two neighbours
// (a pull whose cond closes a vertex after two links, so the engine stops
// reading its list there), the trees are flattened, the label most of 64
// hashed vertices hold is taken as the largest component, and one pass of
// Afforest's link covers the edges with an end outside it. On kron:20 the
// largest component holds 645 K of 1 M vertices and nearly every edge, so
// most edges are never read. Skipping the largest component needs every
// edge to be seen from its other end: edges stored both ways (symmetric
// graphs), or the in-edges to pull. An engine that cannot pull (a streamed
// GPU placement) runs the same form as pushes where the graph is symmetric
// (a vertex's out-list is its in-list): the sample pushes each list's first
// two entries, and the vertices outside the largest component push their
// whole lists. A directed graph without in-edges links every edge once.
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
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/describe.h"
#include "checkpoint/vertex_state.h"
#include "core/atomics.h"
#include "core/forest.h"
#include "core/hash.h"
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

// Union of the trees of u and v, as Afforest links: the larger root is set
// to point at the smaller, retried until the two share a root. One pass over
// the edges then leaves every component one tree, rooted at its smallest id.
template <typename V>
struct CcLink {
  static constexpr bool needs_weights = false;
  V* label;
  // Pull steps from every vertex: those pointing at `skipped` (the largest
  // component's root) skip their lists, and a vertex linked to it midway
  // stops reading. Its unread edges need no link: each leads to a vertex
  // already in that tree or to one that reads the edge from its own end.
  bool skip_tree = false;
  V skipped = 0;

  TG_HD bool cond(V v) const { return !skip_tree || label[v] != skipped; }
  void prefetch(V v) const { __builtin_prefetch(label + v); }
  void prefetch_source(V u) const { __builtin_prefetch(label + u); }
  TG_HD bool update_atomic(V u, V v, weight_t) const { return forest_link(label, u, v); }
  TG_HD bool update(V u, V v, weight_t w) const { return update_atomic(u, v, w); }
  // engines/engine.h: updates change the labels only by forest_link.
  TG_HD V* forest() const { return label; }
};

// The neighbours each vertex links in the sample.
constexpr int32_t kCcSampleHeads = 2;

// Afforest's sampling: every vertex links its first `k` listed neighbours,
// by a pull, or by a push on a symmetric graph (the link is the same either
// way round). The list_limit hint stops the step there where the engine
// honours it (every pull, the GPU's pushes); one that read on would link
// more edges, which changes no label, only the time. It replaced a
// per-vertex count of the neighbours seen (an int32 per vertex made, read
// and written every run).
template <typename V>
struct CcSampleLink {
  static constexpr bool needs_weights = false;
  CcLink<V> link;
  int32_t k;

  TG_HD bool cond(V) const { return true; }
  TG_HD int32_t list_limit() const { return k; }
  void prefetch_source(V u) const { link.prefetch_source(u); }
  TG_HD bool update(V u, V v, weight_t w) const {
    link.update_atomic(u, v, w);
    return false;
  }
  TG_HD bool update_atomic(V u, V v, weight_t w) const { return update(u, v, w); }
};

template <typename V>
struct CcCompress {
  V* label;
  TG_HD void operator()(V v) const {
    V l = label[v];
    while (label[l] != l) l = label[l];
    label[v] = l;
  }
  // A vertex's parent, read at random (engines/engine.h prefetch_state).
  void prefetch(V v) const { __builtin_prefetch(label + label[v]); }
};

template <typename V>
struct CcInit {
  V* label;
  TG_HD void operator()(V v) const { label[v] = v; }
};

// Outside component c, with out-edges to push.
template <typename V>
struct OutsideWithEdges {
  const V* label;
  V c;
  const eid_t* offsets;
  TG_HD bool operator()(V v) const { return label[v] != c && offsets[v + 1] > offsets[v]; }
};

// The label most of `samples` hashed vertices hold (the largest component,
// most likely): a few dozen reads, read back at once.
template <typename Engine>
typename Engine::vertex_t most_frequent_label(Engine& engine, typename Engine::template array_t<typename Engine::vertex_t>& label,
                                              int samples) {
  using V = typename Engine::vertex_t;
  std::vector<V> at;
  for (int i = 0; i < samples; ++i) at.push_back(static_cast<V>(mix64(0x5eed + i) % engine.num_vertices()));
  std::vector<V> seen = engine.get_many(label, std::span<const V>(at));
  std::sort(seen.begin(), seen.end());
  V best = seen[0];
  size_t best_run = 0;
  for (size_t i = 0; i < seen.size();) {
    size_t j = i;
    while (j < seen.size() && seen[j] == seen[i]) ++j;
    if (j - i > best_run) best_run = j - i, best = seen[i];
    i = j;
  }
  return best;
}

// Checkpoints (checkpoint/vertex_state.h): an iteration is a round of the
// driver below: a Shiloach-Vishkin round (hook, flatten), or a phase of the
// sampled form (1: the sample, flattened; 2: the links outside the largest
// component, flattened; linking every edge is one phase). The flattened
// labels are the whole state between them (phase 2 finds the largest
// component again from them, as it did); the scalars name the form that
// saved them and whether it was done.
template <typename Engine>
ResultVector<uint64_t> cc(Engine& engine, const AlgorithmOptions& options) {
  using V = typename Engine::vertex_t;
  auto label_array = engine.template make_array<V>(V{0});
  V* label = engine.data(label_array);
  auto all = engine.all();
  engine.vertex_map(all, CcInit<V>{label});
  const uint64_t n = engine.num_vertices();
  const EdgeMapOptions push{Direction::kPush, false};
  // (The values are saved in checkpoints.)
  enum Form { kHookRounds, kLinkAll, kSampled, kSampledPushes };
  const Form form = options.cc_method == CcMethod::kShiloachVishkin ? kHookRounds
                    : engine.can_pull()                             ? kSampled
                    : engine.symmetric()                            ? kSampledPushes
                                                                    : kLinkAll;
  int done = 0;  // iterations done: a resumed run's saved ones
  bool finished = n == 0;
  if (const std::optional<SavedState> saved = resume_vertex_data(engine, options, label, 2, "cc")) {
    if (saved->scalars[0] != static_cast<double>(form))
      throw input_error(options.checkpoint->path(),
                        "a checkpoint of another form of cc (the two runs' engines or placements read the edges "
                        "differently: one pulls, the other not)");
    done = saved->iteration;
    finished = saved->scalars[1] != 0;
    engine.stats().iterations += done;
  }
  auto saved_after = [&](int iteration, bool last) {
    save_vertex_data(engine, options, iteration, {double(form), last ? 1.0 : 0.0}, label);
  };
  if (finished) {
  } else if (form == kHookRounds) {
    for (int round = done + 1; !finished; ++round) {
      auto hooked = engine.edge_map(all, CcHook<V>{label}, EdgeMapOptions{Direction::kPush, true});
      engine.stats().iterations++;
      engine.vertex_map(all, CcCompress<V>{label});
      finished = engine.size(hooked) == 0;
      saved_after(round, finished);
    }
  } else if (form == kLinkAll) {
    // A directed graph on an engine that cannot pull: no edge is seen from
    // its other end, so the largest component cannot be skipped.
    engine.edge_map(all, CcLink<V>{label}, push);
    engine.stats().iterations++;
    engine.vertex_map(all, CcCompress<V>{label});
    saved_after(1, true);
  } else {
    // 1. Afforest's sample: every vertex links its first two neighbours
    //    (a pull that stops after two), then the trees are flattened.
    //    Afforest runs two pulls of one neighbour each with a flattening
    //    between; on the H100 machine's 16 cores that took as long on
    //    kron:25 (234 ms against 239 for the whole CC) and 10% longer on
    //    urand:25 (477 against 432), where the second round's links contend
    //    for the roots of a few huge trees. On the 2-core VM it was 10%
    //    slower on kron:23.
    const bool pushes = form == kSampledPushes;
    if (done < 1) {
      engine.edge_map(all, CcSampleLink<V>{CcLink<V>{label}, kCcSampleHeads},
                      EdgeMapOptions{pushes ? Direction::kPush : Direction::kPull, false});
      engine.stats().iterations++;
      engine.vertex_map(all, CcCompress<V>{label});
      saved_after(1, false);
    }
    // 2. The largest component so far: its vertices share one tree, so its
    //    own edges need no reading.
    const V c = most_frequent_label(engine, label_array, 64);
    // 3. Link the edges with an end outside it: every vertex outside it
    //    pulls its in-edges, which are all its edges where edges are stored
    //    both ways (one pass over the labels, as Afforest's loop); otherwise
    //    a push over the out-edges of the vertices outside it first adds the
    //    edges into the tree.
    //    Pushed, on a symmetric graph, as the same lists from the same
    //    vertices (less the pull's stop once a vertex joins the tree).
    const CcLink<V> outside{label, true, c};
    if (!engine.symmetric() || pushes)
      engine.edge_map(engine.filter(all, OutsideWithEdges<V>{label, c, engine.out_offsets()}), CcLink<V>{label}, push);
    if (!pushes) engine.edge_map(all, outside, EdgeMapOptions{Direction::kPull, false});
    engine.stats().iterations++;
    engine.vertex_map(all, CcCompress<V>{label});
    saved_after(2, true);
  }
  return engine.template to_host<uint64_t>(label_array);
}

// cc_verifier.cc
Verification verify_cc(const AnyGraph& graph, std::span<const uint64_t> label);

struct Cc {
  using value_t = uint64_t;
  static constexpr AlgorithmTraits traits{
      .name = "cc",
      .summary = "weakly connected components, each labelled by its smallest vertex id",
      .sources = SourceUse::kNone,
      .meaning = ValueMeaning::kVertexId,
  };
  // The sampled form pulls where the in-edges cost nothing: a symmetric
  // graph's are its out-edges, which a GPU placement then holds once for
  // both. A directed graph's CSC is not built for it: linking every edge
  // once costs less than building it. Where it samples by pushes (an
  // engine that cannot pull, a symmetric graph) it pushes each list's first
  // kCcSampleHeads entries alone.
  static EdgeReads reads(const AlgorithmOptions& options) {
    const bool sampled = options.cc_method != CcMethod::kShiloachVishkin;
    return {Need::kYes, sampled ? Need::kIfFree : Need::kNo, false, 0, sampled ? kCcSampleHeads : 0};
  }
  template <typename V>
  using operators = OperatorList<CcHook<V>, CcLink<V>, CcSampleLink<V>>;

  template <typename Engine>
  static ResultVector<value_t> run(Engine& engine, const Sources&, const AlgorithmOptions& options) {
    return cc(engine, options);
  }
  static Verification verify(const AnyGraph& graph, const Sources&, std::span<const value_t> label,
                             const AlgorithmOptions&) {
    return verify_cc(graph, label);
  }
  // The checkpoint's key: the method (every form resumes exactly).
  static std::string checkpoint_options(const AlgorithmOptions& options, const Sources&) {
    return "method " + std::string(choice_name(cc_method_choices(), options.cc_method));
  }
  static std::string describe(const AnyGraph&, std::span<const value_t> label) {
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
