// Gather over packed in-lists (graph/packed_lists.h): the streamed
// placements copy the lists packed, 1.4-1.7x fewer bytes over the link, and
// decode them in GPU memory, where decoding costs far less than the bytes
// saved. The passes are gather.cuh's in GPU memory: a thread per list of at
// most kThreadEntries entries (one block, decoded in order), a warp per longer
// list up to a chunk (32 blocks, their headers in one load, their sizes
// scanned into their starts, each block's 31 gaps decoded by 31 lanes and
// summed up by a warp scan), and a warp per 1024-entry chunk of the longest
// lists, found from the list's chunk table. Compiled by gather_packed.cu only.
#pragma once

#include "core/error.h"
#include "engines/gpu/kernels/gather.cuh"
#include "engines/gpu/kernels/packed_walk.cuh"
#include "graph/packed_lists.h"

namespace tg::gpu {
namespace kernels {

static_assert(kPackedChunk == kChunkEntries, "a packed chunk is the gather's chunk");
static_assert(kPackedBlock == kWarp, "a packed block is a warp's entries");

template <typename V>
__device__ inline uint64_t degree_of(const PackedGatherArgs<V>& a, V v) {
  return load_once(a.csr.offsets + v + 1) - load_once(a.csr.offsets + v);
}

// Chunk k of v's packed list summed in every lane (packed_walk.cuh).
template <typename V, typename Op>
__device__ inline typename Op::acc_t packed_chunk_sum(const PackedGatherArgs<V>& a, const Op& op, V v, uint64_t degree,
                                                      uint64_t k, int lane) {
  typename Op::acc_t acc = op.zero();
  packed_chunk_walk(
      a.words + a.word_offsets[v], degree, k, lane, [](const uint32_t* p) { return load_once(p); },
      [&](uint64_t, uint32_t id) { acc = op.sum(acc, op.gather(static_cast<V>(id), v, 1.0f)); });
  return acc;
}

// A thread per list of at most kThreadEntries entries (one block: a header,
// then its gaps in order); longer lists queued for a warp each.
template <typename V, typename Op>
__global__ void __launch_bounds__(kBlock) packed_thread_kernel(PackedGatherArgs<V> a, Op op) {
  thread_pass(a, op, [&](V v, typename Op::acc_t& acc) -> int64_t {
    const uint64_t degree = degree_of(a, v);
    if (degree > static_cast<uint64_t>(kThreadEntries)) return -1;
    if (degree == 0) return 0;
    const uint32_t* list = a.words + load_once(a.word_offsets + v);
    const uint32_t header = load_once(list);
    const uint32_t width = packed_width(header);
    uint32_t ids[kThreadEntries];
    ids[0] = packed_first(header);
#pragma unroll
    for (int j = 1; j < kThreadEntries; ++j)
      ids[j] = j < static_cast<int>(degree) ? ids[j - 1] + packed_gap(list + 1, j - 1, width) : 0;
#pragma unroll
    for (int j = 0; j < kThreadEntries; ++j)
      if (j < static_cast<int>(degree)) acc = op.sum(acc, op.gather(static_cast<V>(ids[j]), v, 1.0f));
    return static_cast<int64_t>(degree);
  });
}

// A warp per queued list of up to a chunk; longer lists deferred to chunks.
template <typename V, typename Op>
__global__ void __launch_bounds__(kBlock) packed_warp_kernel(PackedGatherArgs<V> a, Op op) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  Tally t;
  double residual = 0;
  for (uint64_t i = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; i < a.n; i += warps) {
    const V v = a.vertices[i];
    const uint64_t degree = degree_of(a, v);
    if (degree > static_cast<uint64_t>(kPackedChunk)) {
      defer_to_chunks(a, v, lane);
      continue;
    }
    const typename Op::acc_t total = warp_combine(op, packed_chunk_sum(a, op, v, degree, 0, lane));
    if (lane == 0) {
      t.edges += degree;
      residual += finish_gather(a, op, v, total);
    }
  }
  add_residual(a.residual, residual);
  flush(t, a.counters);
}

// A warp per chunk of the longest lists: partial sums, combined in order by
// gather.cuh's gather_combine_kernel.
template <typename V, typename Op>
__global__ void __launch_bounds__(kBlock) packed_chunk_kernel(PackedGatherArgs<V> a, Op op,
                                                              const unsigned long long* prefix, uint64_t count,
                                                              typename Op::acc_t* partial) {
  const int lane = threadIdx.x & 31;
  Tally t;
  for_each_deferred_chunk(a.big_queue, prefix, count, [&](V v, uint64_t k, uint64_t c) {
    const uint64_t degree = degree_of(a, v);
    const typename Op::acc_t sum = warp_combine(op, packed_chunk_sum(a, op, v, degree, k, lane));
    if (lane == 0) {
      const uint64_t lo = k * kPackedChunk;
      t.edges += (degree - lo < static_cast<uint64_t>(kPackedChunk) ? degree - lo : kPackedChunk);
      partial[c] = sum;
    }
  });
  flush(t, a.counters);
}

}  // namespace kernels

template <typename V, typename Op>
StepCounters gather_packed_step(const PackedGatherArgs<V>& a, const Op& op, double* residual_out) {
  using namespace kernels;
  static_assert(sizeof(V) == 4 && !Op::needs_weights, "packed lists: 4-byte ids, no weights");
  if (a.warp_queue == nullptr || a.big_queue == nullptr)
    throw Error("GPU engine: a packed gather needs its warp and chunk queues");
  StepCounters c = first_pass(a.n, kBlock, a.sms, a.counters,
                              [&](unsigned blocks) { packed_thread_kernel<V, Op><<<blocks, kBlock>>>(a, op); });
  PackedGatherArgs<V> w = a;
  w.vertices = a.warp_queue;
  w.n = c.warp_count;
  c = first_pass(w.n, kWarpsPerBlock, a.sms, a.counters,
                 [&](unsigned blocks) { packed_warp_kernel<V, Op><<<blocks, kBlock>>>(w, op); });
  if (c.big_count > 0) {
    // The chunks of each list by its entries: the plain offsets, read as a device CSR's.
    const uint64_t nb = c.big_count;
    const ChunkPlan plan = plan_chunks<Access::kDevice, false>(a.csr, a.big_queue, nb, *a.pool);
    chunked_gather(a, op, nb, plan, [&](unsigned blocks, const unsigned long long* prefix,
                                        typename Op::acc_t* partial) {
      packed_chunk_kernel<V, Op><<<blocks, kBlock>>>(a, op, prefix, nb, partial);
    });
    c = read_counters(a.counters);
  }
  TG_CUDA(cudaMemcpy(residual_out, a.residual, sizeof(double), cudaMemcpyDeviceToHost));
  return c;
}

}  // namespace tg::gpu
