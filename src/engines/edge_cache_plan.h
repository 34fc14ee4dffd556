// The resident edge cache of the zero-copy placements (docs/GPU.md, "The
// resident edge cache"): which edges the GPU keeps in the memory that a
// zero-copy placement leaves unused, chosen from the lists' degrees and the
// budget alone, never from the algorithm. Plain C++ without CUDA: the GPU
// engine builds its cache from the plan (engines/gpu/edge_cache.cu), and the
// unit tests check the choice where no GPU is.
//
// What is cached, in this order:
//  1. Heads: the first H <= 4 entries of every in-list, H as large as the
//     budget allows. Bottom-up BFS mostly stops within them, CC's sampling
//     reads two; each lane of a pull probes its own list's head in GPU memory
//     instead of a warp reading 32 lists over the link one after the other.
//  2. Whole lists, longest first, greedily until the budget is spent: on a
//     power-law graph few hub lists hold most entries, and the kernels read a
//     long list at full width from GPU memory. Lists of equal degree are taken
//     in CSR order, then by vertex id, so the choice is deterministic.
// When every list fits, the cache is a copy of the lists placed and holds no
// heads (each list holds its own).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"

namespace tg {

// At most this many first entries of every in-list are cached.
constexpr int kMaxCachedHeads = 4;

// GPU memory the lookup of one CSR's cached lists takes (EdgeCacheView in
// engines/gpu/kernels/step_args.h): an 8-byte word per 32 vertices (a bit
// per vertex whose list is cached, and how many cached lists precede them),
// and the 8-byte start of each cached list in the cache, plus one for the end.
uint64_t cache_lookup_bytes(uint64_t vertices, uint64_t lists);

struct EdgeCacheRequest {
  uint64_t budget = 0;      // bytes the cache may take (engines/gpu_footprint.h: edge_cache_budget)
  uint64_t entry_bytes = 4;  // an entry: a vertex id, and its weight where the placement holds weights
  // The CSRs placed, each as its offsets (vertices + 1): whole lists may come
  // from any of them; the heads from the one at index `heads_of` (the in-edges,
  // which pulls read), or none where it is -1.
  std::vector<std::span<const eid_t>> csrs;
  int heads_of = -1;
  int max_heads = kMaxCachedHeads;
  // false: heads alone, never whole lists (a streamed placement's heads
  // cache, engines/gpu_footprint.h: streamed_heads_cache).
  bool whole_lists = true;
};

// The whole lists cached from one CSR.
struct CachedLists {
  bool all = false;               // every list: the cache is a copy of the CSR's lists, found without a lookup
  std::vector<uint64_t> vertices;  // whose lists are cached, ascending; empty when `all`
  uint64_t count = 0;             // lists cached (with `all`: the non-empty ones)
  uint64_t entries = 0;           // their entries
  uint64_t min_degree = 0;        // the shortest list cached; 0 when none is
  uint64_t bytes = 0;             // entries and lookup
};

struct EdgeCachePlan {
  int heads = 0;              // H: first entries of every list of csrs[heads_of]; 0: no heads
  uint64_t head_bytes = 0;    // vertices x H x entry
  std::vector<CachedLists> lists;  // one per request.csrs
  uint64_t bytes = 0;         // all of it: heads, lists, lookups; never above the budget
  uint64_t cached_entries = 0;  // list entries read from the cache (a head within a cached list counted once)
  uint64_t total_entries = 0;   // entries of every CSR placed

  uint64_t lists_cached() const;
  double cached_fraction() const { return total_entries ? double(cached_entries) / double(total_entries) : 0.0; }
};

EdgeCachePlan plan_edge_cache(const EdgeCacheRequest& request);

}  // namespace tg
