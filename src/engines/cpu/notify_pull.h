// Garaph's notify-pull step [Ma et al., USENIX ATC 2017, section 4.2]: the
// frontier's vertices notify their out-neighbours, and only the notified
// vertices then pull from their in-neighbours in the frontier. Each target
// is written by the one thread that pulls it, so no update is atomic and a
// target's sum is folded in its in-list's order whatever the thread count
// (a push's float additions land in the order the threads reach them).
// The CPU engine runs the two halves: the notification is its own push step
// over the operator below (a flag per target keeps each notified once), the
// pull is pull_candidates.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/recycled_vector.h"
#include "core/types.h"
#include "engines/cpu/lookahead.h"
#include "engines/engine.h"
#include "graph/graph.h"

namespace tg {

// Which step the CPU engine takes where the direction policy says push
// (engines/direction.h), for operators the caller lets it pull.
enum class SparseStep {
  kPush,        // atomic updates along the frontier's out-edges (Ligra, GAP)
  kNotifyPull,  // Garaph's notify-pull, under the same push / pull threshold
  kGaraph,      // notify-pull, and pull only past Garaph's own switch (below)
};

// TG_CPU_SPARSE=push|notify-pull|garaph (push where unset); any other value
// is refused in one line.
inline SparseStep sparse_step_from_env() {
  const char* env = std::getenv("TG_CPU_SPARSE");
  if (env == nullptr || *env == 0 || std::string(env) == "push") return SparseStep::kPush;
  if (std::string(env) == "notify-pull") return SparseStep::kNotifyPull;
  if (std::string(env) == "garaph") return SparseStep::kGaraph;
  throw Error("TG_CPU_SPARSE: '" + std::string(env) + "' is not push, notify-pull or garaph");
}

// Garaph's switch between its two modes: pull once the frontier's out-edges
// are more than half of all edges (f > 1/2: notifying costs at most a pull
// over the notified, so notify-pull costs about 2 f of a pull).
inline bool garaph_pulls(uint64_t frontier_edges, uint64_t total_edges) {
  return 2 * frontier_edges > total_edges;
}

// The notification as an edge-map operator: every target the operator still
// wants (cond) counts as reached; the engine's push removes the repeats.
// It reads no edge weight and writes no vertex state of the operator's.
template <typename Op, typename V>
struct Notify {
  static constexpr bool needs_weights = false;
  Op op;
  bool cond(V v) const { return op.cond(v); }
  bool update(V, V, weight_t) const { return true; }
  bool update_atomic(V, V, weight_t) const { return true; }
  void prefetch(V v) const { prefetch_state(op, v); }
};

// The pull half: each candidate (a list of distinct vertices) folds the
// updates of its in-neighbours that are members of the frontier bitmap
// `member`, stopping where the operator's cond turns false (BFS's first
// parent found). Returns the candidates any update changed, in no fixed
// order, where want_output; `edges` gains the in-edges read.
template <typename V, typename Op>
RecycledVector<V> pull_candidates(const Csr<V>& in, const V* candidates, uint64_t count, const uint64_t* member,
                                  const Op& shared_op, bool want_output, uint64_t& edges) {
  const eid_t* off = in.offsets.data();
  const V* nbr = in.neighbors.data();
  const int threads = omp_get_max_threads();
  std::vector<RecycledVector<V>> parts(threads);
  uint64_t read = 0;
  // Dynamic chunks: a notified hub's in-list may be a million entries.
#pragma omp parallel num_threads(threads) reduction(+ : read) if (count >= 256)
  {
    const Op op = shared_op;  // in registers, as the engine's own steps do
    const eid_t limit = pull_limit(op);
    RecycledVector<V>& local = parts[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 64) nowait
    for (uint64_t i = 0; i < count; ++i) {
      if (i + lookahead::kLists < count) __builtin_prefetch(nbr + off[candidates[i + lookahead::kLists]]);
      const V v = candidates[i];
      if (!op.cond(v)) continue;
      const eid_t b = off[v], e_end = pull_end(b, off[v + 1], limit);
      bool changed = false;
      eid_t e = b;
      for (; e < e_end; ++e) {
        if constexpr (PrefetchesSources<Op, V>)
          if (e + lookahead::kEdges < e_end) op.prefetch_source(nbr[e + lookahead::kEdges]);
        const V u = nbr[e];
        if (!((member[u / 64] >> (u % 64)) & 1)) continue;
        weight_t w = 1.0f;
        if constexpr (Op::needs_weights) w = in.weights[e];
        changed |= op.update(u, v, w);
        if (!op.cond(v)) {
          ++e;
          break;
        }
      }
      read += e - b;
      if (changed && want_output) local.push_back(v);
    }
  }
  edges += read;
  RecycledVector<V> out;
  if (!want_output) return out;
  uint64_t total = 0;
  for (const auto& p : parts) total += p.size();
  out.reserve(total);
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

}  // namespace tg
