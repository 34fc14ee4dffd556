// What every traversal kernel (push.cuh, pull.cuh, gather.cuh) shares: how a
// worker walks a neighbour list and what it counts.
//
// Workers, after EMOGI [Min et al., VLDB 2021, section 4]:
//  - kNaive: one thread walks a whole neighbour list (EMOGI Listing 1). Each
//    load of a warp touches 32 unrelated lists: 32-byte requests.
//  - every other access: one warp reads a list 32 consecutive entries at a
//    time (merged, Listing 2), for kAligned starting at the 128-byte line that
//    holds the list's first entry, with the lanes before it idle. Lists longer
//    than kChunkEntries are deferred to a second pass that gives each chunk of
//    kChunkEntries its own warp (chunks start on 128-byte lines too), which
//    balances kron's skewed degrees; EMOGI itself keeps one warp per list.
//
// Link accounting (zero-copy): for each warp load, the 32-byte sectors and
// 128-byte lines spanned by the lanes that load; for kNaive, the sectors each
// thread's list spans, each its own request. UVM: the 64 KiB pages touched,
// counted once per run through a bitmap. Both are estimates of what the
// kernels request, not hardware counters; docs/GPU.md says how they compare.
#pragma once

#include <cub/device/device_scan.cuh>

#include "engines/gpu/kernels/step_args.h"

namespace tg::gpu {
namespace kernels {

constexpr unsigned kFull = 0xffffffffu;
// Entries of its own in-list a lane tries before the warp takes over (device memory).
constexpr int64_t kPullProbe = 4;

template <Access A>
constexpr bool kOverLink = A == Access::kNaive || A == Access::kMerged || A == Access::kAligned;

// What one thread counted; summed per warp and added to the step's counters
// once per warp, at the end of a kernel.
struct Tally {
  unsigned long long edges = 0, sectors = 0, requests = 0, pages = 0, out = 0;
};

__device__ inline unsigned long long warp_sum(unsigned long long x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(kFull, x, o);
  return x;
}

// All 32 lanes of the warp must call this.
__device__ inline void flush(const Tally& t, StepCounters* c) {
  unsigned long long e = warp_sum(t.edges), s = warp_sum(t.sectors), r = warp_sum(t.requests);
  unsigned long long p = warp_sum(t.pages), o = warp_sum(t.out);
  if ((threadIdx.x & 31) == 0) {
    if (e) atomicAdd(&c->edges, e);
    if (s) atomicAdd(&c->sectors, s);
    if (r) atomicAdd(&c->requests, r);
    if (p) atomicAdd(&c->pages, p);
    if (o) atomicAdd(&c->out_count, o);
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

// Where a warp starts reading the list that begins at entry b: b itself, or
// for kAligned the first entry of its 128-byte line. With weights the line is
// taken in entries of 4 bytes, so that the weights' loads are aligned too.
template <Access A, bool kWeights, typename V>
__device__ inline int64_t walk_start(const CsrView<V>& csr, int64_t b) {
  if constexpr (A == Access::kAligned) {
    constexpr int64_t group = kWeights ? 32 : 128 / static_cast<int64_t>(sizeof(V));
    return b - (b + csr.neighbor_misalign) % group;
  } else {
    return b;
  }
}


// Chunks of a list: from its (aligned) start, kChunkEntries entries each.
template <Access A, bool kWeights, typename V>
__global__ void chunk_count_kernel(CsrView<V> csr, const V* big, uint64_t count, unsigned long long* chunks) {
  uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i > count) return;
  if (i == count) {
    chunks[i] = 0;
    return;
  }
  V u = big[i];
  int64_t b = static_cast<int64_t>(csr.offsets[u]), e = static_cast<int64_t>(csr.offsets[u + 1]);
  int64_t s = walk_start<A, kWeights>(csr, b);
  chunks[i] = static_cast<unsigned long long>((e - s + kChunkEntries - 1) / kChunkEntries);
}

// The chunk's owner: the last i with prefix[i] <= c.
__device__ inline uint64_t owner_of(const unsigned long long* prefix, uint64_t count, unsigned long long c) {
  uint64_t lo = 0, hi = count;
  while (hi - lo > 1) {
    uint64_t mid = (lo + hi) / 2;
    if (prefix[mid] <= c) lo = mid;
    else hi = mid;
  }
  return lo;
}

// Chunk c of the long lists a first pass deferred to `big` (prefix: the
// chunk plan below): the list's vertex, and the entries [lo, hi) of it that
// one warp reads, loading from `start` (a 128-byte line for kAligned).
template <typename V>
struct Chunk {
  V v;
  int64_t lo, hi, start;
};

template <Access A, bool kWeights, typename V>
__device__ inline Chunk<V> chunk_at(const CsrView<V>& csr, const V* big, const unsigned long long* prefix,
                                    uint64_t count, uint64_t c) {
  const uint64_t i = owner_of(prefix, count, c);
  const V v = big[i];
  const int64_t b = static_cast<int64_t>(csr.offsets[v]), e = static_cast<int64_t>(csr.offsets[v + 1]);
  const int64_t s = walk_start<A, kWeights>(csr, b) + static_cast<int64_t>(c - prefix[i]) * kChunkEntries;
  return {v, s > b ? s : b, s + kChunkEntries < e ? s + kChunkEntries : e, s};
}

// The first pass of a step over `items` work items (frontier entries,
// vertices or bitmap words), `per_block` of them per block: `launch(blocks)`
// starts the kernel. Returns the step's counters so far.
template <typename Launch>
StepCounters first_pass(uint64_t items, uint64_t per_block, int sms, const StepCounters* counters, Launch&& launch) {
  if (items > 0) {
    launch(grid_for(items, per_block, sms));
    TG_CUDA_CHECK_LAUNCH();
  }
  StepCounters c{};
  TG_CUDA(cudaMemcpy(&c, counters, sizeof c, cudaMemcpyDeviceToHost));
  return c;
}

// The second pass over the nb long lists a first pass deferred to big: each
// list's chunks numbered in order (prefix[i] = first chunk of big[i],
// prefix[nb] = all chunks). The arrays come from the pool and live as long
// as the plan.
struct ChunkPlan {
  std::shared_ptr<void> chunks, prefix;
  unsigned long long total = 0;
  const unsigned long long* starts() const { return static_cast<const unsigned long long*>(prefix.get()); }
};

template <Access A, bool kWeights, typename V>
ChunkPlan plan_chunks(const CsrView<V>& csr, const V* big, uint64_t nb, ScratchPool& pool) {
  ChunkPlan plan;
  plan.chunks = pool.template get_n<unsigned long long>(nb + 1);
  plan.prefix = pool.template get_n<unsigned long long>(nb + 1);
  auto* chunks = static_cast<unsigned long long*>(plan.chunks.get());
  auto* prefix = static_cast<unsigned long long*>(plan.prefix.get());
  chunk_count_kernel<A, kWeights, V><<<div_up(nb + 1, kBlock), kBlock>>>(csr, big, nb, chunks);
  TG_CUDA_CHECK_LAUNCH();
  run_cub(pool, [&](void* tmp, size_t& bytes) { return cub::DeviceScan::ExclusiveSum(tmp, bytes, chunks, prefix, nb + 1); });
  TG_CUDA(cudaMemcpy(&plan.total, prefix + nb, sizeof plan.total, cudaMemcpyDeviceToHost));
  return plan;
}

}  // namespace kernels
}  // namespace tg::gpu
