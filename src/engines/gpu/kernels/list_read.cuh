// Where a traversal kernel reads one neighbour list from. On the zero-copy
// placements with a resident edge cache (docs/GPU.md; EdgeCacheView in
// step_args.h): a cached list wholly from GPU memory, any other its first
// entries from the cached heads in GPU memory and the rest over the link.
// Every other access reads the placement's own array, and the cache's code
// compiles away. A warp looks its list up once, all lanes alike, so the
// choice between the cache and the link is uniform across the warp.
#pragma once

#include "engines/gpu/kernels/tally.cuh"

namespace tg::gpu {
namespace kernels {

template <typename V>
struct ListRead {
  const V* ids;
  const weight_t* weights;
  int64_t shift;      // entry k of the list is ids[k - shift]
  int64_t begin;      // the list's first entry in the CSR
  int64_t heads_end;  // entries begin .. heads_end - 1 come from the head planes
  V v;
  bool cached;        // the whole list is in GPU memory
};

// Where v's list (its first entry b in the CSR, `degree` entries) starts in
// the cache's ids, or -1 where it is not cached.
template <typename V>
__device__ inline int64_t cached_start(const EdgeCacheView<V>& c, V v, int64_t b, int64_t degree) {
  if (degree < c.min_degree) return -1;  // no load: the lists too short to be cached
  if (c.all) return b;
  const CacheWord w = c.words[v >> 5];
  const uint32_t bit = 1u << (v & 31);
  if (!(w.bits & bit)) return -1;
  return static_cast<int64_t>(c.starts[w.before + __popc(w.bits & (bit - 1))]);
}

// How entries [b, e) of v's list are read. `whole`: look v up among the
// cached lists (a warp's walk); without, only the heads serve (a lane's own
// probe, which never reads past them).
template <Access A, typename V>
__device__ inline ListRead<V> list_read(const CsrView<V>& csr, V v, int64_t b, int64_t e, bool whole = true) {
  ListRead<V> l{csr.neighbors, csr.weights, 0, b, b, v, false};
  if constexpr (kOverLink<A>) {
    const EdgeCacheView<V>& c = csr.cache;
    const int64_t at = whole ? cached_start(c, v, b, e - b) : -1;
    if (at >= 0) {
      l.ids = c.ids;
      l.weights = c.weights;
      l.shift = b - at;
      l.cached = true;
    } else {
      l.heads_end = b + (e - b < c.heads ? e - b : c.heads);
    }
  }
  return l;
}

template <Access A, typename V>
__device__ inline V id_at(const CsrView<V>& csr, const ListRead<V>& l, int64_t k) {
  if constexpr (kOverLink<A>) {
    if (k < l.heads_end) return csr.cache.head_ids[static_cast<uint64_t>(k - l.begin) * csr.cache.plane + l.v];
  }
  return l.ids[k - l.shift];
}

template <Access A, typename V>
__device__ inline weight_t weight_at(const CsrView<V>& csr, const ListRead<V>& l, int64_t k) {
  if constexpr (kOverLink<A>) {
    if (k < l.heads_end) return csr.cache.head_weights[static_cast<uint64_t>(k - l.begin) * csr.cache.plane + l.v];
  }
  return l.weights[k - l.shift];
}

// Counts entries first..last of one of the list's arrays (`array`: the
// CSR's ids or weights) as read: from the cache in bytes of GPU memory, the
// rest over the link in sectors and lines. Nothing for the accesses that do
// not read over the link.
template <Access A, typename V, typename T>
__device__ inline void count_array_read(Tally& t, const ListRead<V>& l, const T* array, int64_t first, int64_t last) {
  if constexpr (kOverLink<A>) {
    if (first > last) return;
    const int64_t end = l.cached ? last + 1 : (l.heads_end < last + 1 ? l.heads_end : last + 1);
    if (end > first) {
      t.cache_bytes += static_cast<uint64_t>(end - first) * sizeof(T);
      first = end;
    }
    if (first > last) return;
    count_link(t, array, first, last);
  }
}

// The same for both arrays (the weights where the walk reads them).
template <Access A, bool kWeights, typename V>
__device__ inline void count_read(Tally& t, const CsrView<V>& csr, const ListRead<V>& l, int64_t first, int64_t last) {
  count_array_read<A>(t, l, csr.neighbors, first, last);
  if constexpr (kWeights) count_array_read<A>(t, l, csr.weights, first, last);
}

}  // namespace kernels
}  // namespace tg::gpu
