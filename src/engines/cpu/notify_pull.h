// Garaph's notify-pull step [Ma et al., USENIX ATC 2017, section 4.2]: the
// frontier's vertices notify their out-neighbours, and only the notified
// vertices then pull from their in-neighbours in the frontier. Each target
// is written by the one thread that pulls it, so no update is atomic and a
// target's sum is folded in its in-list's order whatever the thread count
// (a push's float additions land in the order the threads reach them).
// The CPU engine runs the two halves: the notification is its own push step
// over the operator below, which sets a bit per notified vertex; its pull
// step then visits only those (CpuEngine::notify_pull_step).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "core/types.h"
#include "engines/engine.h"

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
  throw Error("TG_CPU_SPARSE=" + std::string(env) + ": not push, notify-pull or garaph", ErrorKind::kUsage);
}

// Garaph's switch between its two modes: pull once the frontier's out-edges
// are more than half of all edges (f > 1/2: notifying costs at most a pull
// over the notified, so notify-pull costs about 2 f of a pull).
inline bool garaph_pulls(uint64_t frontier_edges, uint64_t total_edges) {
  return 2 * frontier_edges > total_edges;
}

// The notification as an edge-map operator: every target the operator still
// wants (cond) gets its bit in `notified`; the push that carries it writes no
// vertex state of the operator's and makes no output (the bitmap is it).
template <typename Op, typename V>
struct Notify {
  static constexpr bool needs_weights = false;
  Op op;
  uint64_t* notified;
  bool cond(V v) const { return op.cond(v); }
  bool update_atomic(V, V v, weight_t) const {
    uint64_t* word = notified + v / 64;
    const uint64_t bit = uint64_t{1} << (v % 64);
    // Read first: a hub is notified by many, and a store per edge would
    // bounce its line between the cores.
    if ((__atomic_load_n(word, __ATOMIC_RELAXED) & bit) == 0) __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
    return false;
  }
  void prefetch(V v) const { prefetch_state(op, v); }
};

}  // namespace tg
