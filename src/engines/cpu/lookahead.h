// How far ahead the CPU engine's edge loops ask for the cache lines they
// will read (prefetch_state of engines/engine.h, and the offsets and lists
// of the vertices to come). A relaxation's misses come one after another
// (a vertex's offsets, then its list, then each target's state), and every
// compare-and-swap that succeeds is a fence later loads cannot pass, so the
// core alone keeps few misses in flight; prefetches are not held by fences.
// SSSP on GAP's kron20 at 2 threads: 141 -> 99 ms (docs/PERF.md).
#pragma once

#include <cstddef>

#include "core/types.h"
#include "engines/engine.h"

namespace tg::lookahead {

constexpr size_t kVertices = 8;  // a vertex's offsets (and its key), this many entries ahead
constexpr size_t kLists = 4;     // a vertex's list (and weights), this many entries ahead
constexpr eid_t kEdges = 16;     // a target's state, this many edges ahead within a list
constexpr size_t kMapped = 16;   // a vertex's state in a map over every vertex, this many vertices ahead

// The targets' state of a list's first edges, asked for at once; the loop
// over the list then asks for each target kEdges ahead of it.
template <typename Op, typename V>
inline void prefetch_list_start(const Op& op, const V* nbr, eid_t begin, eid_t end) {
  const eid_t stop = end - begin < kEdges ? end : begin + kEdges;
  for (eid_t e = begin; e < stop; ++e) prefetch_state(op, nbr[e]);
}

}  // namespace tg::lookahead
