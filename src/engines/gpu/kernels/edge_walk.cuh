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
// What they count is in tally.cuh; where each list is read from (the
// placement's array, or the resident edge cache) in list_read.cuh. The walk
// (where a warp starts, how long lists are chunked) is the same whether a
// list is cached or not, so the chunk plan never looks at the cache.
#pragma once

#include <cub/device/device_scan.cuh>

#include "engines/engine.h"
#include "engines/gpu/kernels/list_read.cuh"

namespace tg::gpu {
namespace kernels {

// Where a step stops reading the list [b, e): its end, or sooner under the
// operator's list_limit hint (engines/engine.h; without the hint the limit
// is the largest eid_t and the comparison folds away).
template <typename Op>
__device__ inline int64_t limited_end(const Op& op, int64_t b, int64_t e) {
  return static_cast<int64_t>(list_end(static_cast<eid_t>(b), static_cast<eid_t>(e), list_limit(op)));
}

// Entries of its own in-list a lane tries before the warp takes over, in
// device memory (zero-copy: the heads the edge cache holds, pull.cuh).
constexpr int64_t kPullProbe = 4;

// Appends v to `queue` in the lanes where `take` holds, with one atomic on
// *count a warp (the lanes' order kept). Every lane of the warp calls it.
template <typename V>
__device__ inline void warp_append(bool take, V v, V* queue, unsigned long long* count, int lane) {
  const unsigned mask = __ballot_sync(kFull, take);
  if (mask == 0) return;
  const int leader = __ffs(mask) - 1;
  unsigned long long at = 0;
  if (lane == leader) at = atomicAdd(count, static_cast<unsigned long long>(__popc(mask)));
  at = __shfl_sync(kFull, at, leader);
  if (take) queue[at + __popc(mask & ((1u << lane) - 1))] = v;
}

// The lists of the lanes flagged in `mask` (a ballot's, so the same in every
// lane), lowest lane first, each read by the whole warp: fn(v, b, e) with
// that lane's vertex and entries [b, e) broadcast.
template <typename V, typename Fn>
__device__ inline void for_each_flagged_list(unsigned mask, V v, int64_t b, int64_t e, Fn&& fn) {
  for (; mask != 0; mask &= mask - 1) {
    const int from = __ffs(mask) - 1;
    fn(__shfl_sync(kFull, v, from), __shfl_sync(kFull, b, from), __shfl_sync(kFull, e, from));
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


// Defers v's list, longer than a chunk, to the chunked pass (plan_chunks
// below): the warp's lane 0 queues it once.
template <typename V>
__device__ inline void defer_to_chunks(const StepArgs<V>& a, V v, int lane) {
  if (lane == 0) a.big_queue[atomicAdd(&a.counters->big_count, 1ull)] = v;
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

// The chunks of the long lists a first pass deferred to `big` (prefix: the
// chunk plan below), a warp each over the grid: visit(v, k, c) for chunk c
// of all, chunk k of v's list (v = big[i]); every lane calls it together.
template <typename V, typename Visit>
__device__ inline void for_each_deferred_chunk(const V* big, const unsigned long long* prefix, uint64_t count,
                                               Visit&& visit) {
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  const unsigned long long total = prefix[count];
  for (uint64_t c = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; c < total; c += warps) {
    const uint64_t i = owner_of(prefix, count, c);
    visit(big[i], c - prefix[i], c);
  }
}

// Chunk c of the long lists a first pass deferred to `big` (prefix: the
// chunk plan below): the list's vertex, and the entries [lo, hi) of it that
// one warp reads, loading from `start` (a 128-byte line for kAligned), and
// where the list is read from.
template <typename V>
struct Chunk {
  V v;
  int64_t lo, hi, start;
  ListRead<V> list;
};

template <Access A, bool kWeights, typename V>
__device__ inline Chunk<V> chunk_at(const CsrView<V>& csr, const V* big, const unsigned long long* prefix,
                                    uint64_t count, uint64_t c) {
  const uint64_t i = owner_of(prefix, count, c);
  const V v = big[i];
  const int64_t b = static_cast<int64_t>(csr.offsets[v]), e = static_cast<int64_t>(csr.offsets[v + 1]);
  const int64_t s = walk_start<A, kWeights>(csr, b) + static_cast<int64_t>(c - prefix[i]) * kChunkEntries;
  return {v, s > b ? s : b, s + kChunkEntries < e ? s + kChunkEntries : e, s, list_read<A>(csr, v, b, e)};
}

// The step's counters so far, copied to the host (after the step's kernels).
inline StepCounters read_counters(const StepCounters* counters) {
  StepCounters c{};
  TG_CUDA(cudaMemcpy(&c, counters, sizeof c, cudaMemcpyDeviceToHost));
  return c;
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
  return read_counters(counters);
}

// The chunk plan (step_args.h) of the nb long lists a first pass deferred to big.
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
