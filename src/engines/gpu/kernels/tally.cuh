// What the traversal kernels count (edge_walk.cuh and the kernels over it):
// per thread a Tally, summed per warp into the step's StepCounters.
//
// Link accounting (zero-copy): for each warp load, the 32-byte sectors and
// 128-byte lines spanned by the lanes that load; for kNaive, the sectors each
// thread's list spans, each its own request. Entries read from the resident
// edge cache (list_read.cuh) count as bytes read from GPU memory instead.
// UVM: the 64 KiB pages touched, counted once per run through a bitmap. All
// are estimates of what the kernels request, not hardware counters;
// docs/GPU.md says how they compare.
#pragma once

#include "engines/gpu/kernels/step_args.h"

namespace tg::gpu {
namespace kernels {

constexpr unsigned kFull = 0xffffffffu;

template <Access A>
constexpr bool kOverLink = A == Access::kNaive || A == Access::kMerged || A == Access::kAligned;

// What one thread counted; summed per warp and added to the step's counters
// once per warp, at the end of a kernel.
struct Tally {
  unsigned long long edges = 0, sectors = 0, requests = 0, pages = 0, out = 0, cache_bytes = 0;
};

__device__ inline unsigned long long warp_sum(unsigned long long x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(kFull, x, o);
  return x;
}

// All 32 lanes of the warp must call this.
__device__ inline void flush(const Tally& t, StepCounters* c) {
  unsigned long long e = warp_sum(t.edges), s = warp_sum(t.sectors), r = warp_sum(t.requests);
  unsigned long long p = warp_sum(t.pages), o = warp_sum(t.out), h = warp_sum(t.cache_bytes);
  if ((threadIdx.x & 31) == 0) {
    if (e) atomicAdd(&c->edges, e);
    if (s) atomicAdd(&c->sectors, s);
    if (r) atomicAdd(&c->requests, r);
    if (p) atomicAdd(&c->pages, p);
    if (o) atomicAdd(&c->out_count, o);
    if (h) atomicAdd(&c->cache_bytes, h);
  }
}

// Sectors and lines spanned by entries first..last (inclusive) of `array`.
template <typename T>
__device__ inline void count_link(Tally& t, const T* array, int64_t first, int64_t last) {
  uintptr_t lo = reinterpret_cast<uintptr_t>(array + first);
  uintptr_t hi = reinterpret_cast<uintptr_t>(array + last) + sizeof(T) - 1;
  t.sectors += (hi >> 5) - (lo >> 5) + 1;
  t.requests += (hi >> 7) - (lo >> 7) + 1;
}

// UVM: marks the pages holding entries first..last of `array`, counting those
// no step of this run has touched before.
template <typename T>
__device__ inline void mark_pages(Tally& t, uint32_t* bits, uint64_t bit0, const T* array, int64_t first, int64_t last) {
  uint64_t p0 = (static_cast<uint64_t>(first) * sizeof(T)) >> kUvmPageShift;
  uint64_t p1 = (static_cast<uint64_t>(last) * sizeof(T) + sizeof(T) - 1) >> kUvmPageShift;
  for (uint64_t p = p0; p <= p1; ++p) {
    uint64_t bit = bit0 + p;
    uint32_t m = 1u << (bit & 31);
    uint32_t* word = bits + (bit >> 5);
    if (!(*word & m) && !(atomicOr(word, m) & m)) t.pages++;
  }
}

}  // namespace kernels
}  // namespace tg::gpu
