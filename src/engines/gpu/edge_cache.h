// The resident edge cache of a zero-copy placement (docs/GPU.md, "The
// resident edge cache"): the device arrays of an EdgeCachePlan
// (engines/edge_cache_plan.h), filled from the placement's pinned arrays
// when the graph is placed, and the views the kernels read them through
// (EdgeCacheView, kernels/step_args.h).
#pragma once

#include <cstdint>
#include <vector>

#include "engines/edge_cache_plan.h"
#include "engines/gpu/placed_graph.h"

namespace tg::gpu {

// A CSR the cache may hold lists of: its offsets and its pinned arrays on the
// host (the copies are made from these), and its placement, whose
// view.cache the build sets.
template <typename V>
struct CacheableCsr {
  const eid_t* host_offsets = nullptr;
  const V* host_neighbors = nullptr;
  const weight_t* host_weights = nullptr;  // where the placement holds weights
  PlacedCsr<V>* placed = nullptr;
};

// Allocates and fills the cache of `plan` for `csrs` (the plan's CSRs, in its
// order; the heads belong to csrs[heads_of]) over n vertices. Every device
// allocation is appended to `allocations`, which the placement frees. The
// arrays take plan.bytes of GPU memory and no scratch beyond them.
template <typename V>
void build_edge_cache(const EdgeCachePlan& plan, int heads_of, const std::vector<CacheableCsr<V>>& csrs, uint64_t n,
                      std::vector<void*>& allocations);

}  // namespace tg::gpu
