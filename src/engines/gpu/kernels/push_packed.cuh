// Push over packed out-lists lying in GPU memory (graph/packed_lists.h, ids
// as bit-packed gaps, weights as bytes): the subgraph placement's light
// lists, which stay resident, are relaxed where they lie, decoded in
// registers, with no SubCSR built and nothing gathered or decoded into edge
// buffers first. A light round on kron:25 otherwise spent 0.8 ms building and
// loading a SubCSR from GPU memory to push 0.3 ms (docs/SUBWAY.md, "Light
// rounds in place").
//
// The passes follow push_lane_kernel's: a lane per frontier vertex walks a
// list of one block (at most 32 entries: its header, then its gaps in order,
// then its weight bytes), the warp takes the longer ones after, one chunk
// of 32 blocks at a time (packed_walk.cuh), and a list longer than a chunk
// goes to the chunk pass, a warp per chunk. Compiled by push_packed.cu only.
#pragma once

#include "core/error.h"
#include "engines/gpu/kernels/packed_walk.cuh"
#include "engines/gpu/kernels/push.cuh"
#include "graph/packed_lists.h"

namespace tg::gpu {
namespace kernels {

static_assert(kPackedChunk == kChunkEntries, "a packed chunk is the push's chunk");
static_assert(kPackedBlock == kWarp, "a packed block is a warp's entries");

// Chunk k of u's packed list (degree entries), relaxed by the warp.
template <typename V, typename Op>
__device__ inline void push_packed_chunk(const PackedPushArgs<V>& a, const Op& op, V u, uint64_t degree, uint64_t k,
                                         int lane, Tally& t) {
  const uint32_t* list = a.words + a.word_offsets[u];
  const uint64_t words = a.word_offsets[u + 1] - a.word_offsets[u];
  packed_chunk_walk_warp(
      list, degree, k, lane, [](const uint32_t* p) { return *p; },
      [&](uint64_t entry, uint32_t id, bool holds) {
        const V v = static_cast<V>(id);
        bool joined = false;
        if (holds) {
          const weight_t w = static_cast<weight_t>(packed_weight(list, words, degree, entry));
          joined = op.cond(v) && op.update_atomic(u, v, w);
        }
        if (a.want_output) emit(a, joined, v, lane, t);
      });
  if (lane == 0) {
    const uint64_t lo = k * kPackedChunk;
    t.edges += degree - lo < static_cast<uint64_t>(kPackedChunk) ? degree - lo : kPackedChunk;
  }
}

// A lane per frontier vertex; lists longer than a block by the warp, those
// longer than a chunk deferred to big_queue.
template <typename V, typename Op>
__global__ void __launch_bounds__(kBlock) push_packed_lane_kernel(PackedPushArgs<V> a, Op op) {
  const int lane = threadIdx.x & 31;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  Tally t;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u); base < a.count;
       base += stride) {
    // Whole lists: a packed list's weights lie past its gaps by its whole degree.
    const auto [u, b, e] = lane_list<V>(a, WholeLists{}, base + lane);
    const uint64_t degree = static_cast<uint64_t>(e - b);
    const int count = degree <= static_cast<uint64_t>(kPackedBlock) ? static_cast<int>(degree) : 0;
    const uint32_t* list = count > 0 ? a.words + a.word_offsets[u] : nullptr;
    const uint64_t words = count > 0 ? a.word_offsets[u + 1] - a.word_offsets[u] : 0;
    const uint32_t header = count > 0 ? list[0] : 0;
    const uint32_t width = packed_width(header);
    uint32_t id = packed_first(header);
    for (int j = 0; j < kPackedBlock; ++j) {
      if (!__any_sync(kFull, j < count)) break;
      bool joined = false;
      V v = 0;
      if (j < count) {
        if (j > 0) id += packed_gap(list + 1, j - 1, width);
        v = static_cast<V>(id);
        const weight_t w = static_cast<weight_t>(packed_weight(list, words, degree, j));
        joined = op.cond(v) && op.update_atomic(u, v, w);
      }
      if (a.want_output) emit(a, joined, v, lane, t);
    }
    t.edges += count;
    const bool longer = degree > static_cast<uint64_t>(kPackedBlock);
    for_each_flagged_list(__ballot_sync(kFull, longer), u, int64_t{0}, static_cast<int64_t>(degree),
                          [&](V w, int64_t, int64_t wd) {
                            if (wd > static_cast<int64_t>(kPackedChunk))
                              defer_to_chunks(a, w, lane);
                            else
                              push_packed_chunk(a, op, w, static_cast<uint64_t>(wd), 0, lane, t);
                          });
  }
  flush(t, a.counters);
}

// A warp per chunk of the lists longer than a chunk.
template <typename V, typename Op>
__global__ void __launch_bounds__(kBlock)
    push_packed_chunk_kernel(PackedPushArgs<V> a, Op op, const unsigned long long* prefix, uint64_t count) {
  const int lane = threadIdx.x & 31;
  Tally t;
  for_each_deferred_chunk(a.big_queue, prefix, count, [&](V u, uint64_t k, uint64_t) {
    push_packed_chunk(a, op, u, a.csr.offsets[u + 1] - a.csr.offsets[u], k, lane, t);
  });
  flush(t, a.counters);
}

}  // namespace kernels

template <typename V, typename Op>
StepCounters push_packed_step(const PackedPushArgs<V>& a, const Op& op) {
  using namespace kernels;
  static_assert(sizeof(V) == 4 && Op::needs_weights, "packed pushes: 4-byte ids, byte weights");
  if (a.word_offsets == nullptr || a.words == nullptr || a.big_queue == nullptr || a.pool == nullptr)
    throw Error("GPU engine: a packed push needs its word offsets, words and chunk queue");
  StepCounters c = first_pass(a.count, kBlock, a.sms, a.counters,
                              [&](unsigned blocks) { push_packed_lane_kernel<V, Op><<<blocks, kBlock>>>(a, op); });
  if (c.big_count > 0) {
    // The chunks of each list by its entries: the entry offsets, read as a device CSR's.
    const uint64_t nb = c.big_count;
    ChunkPlan plan = plan_chunks<Access::kDevice, false>(a.csr, a.big_queue, nb, *a.pool);
    push_packed_chunk_kernel<V, Op>
        <<<grid_for(plan.total, kWarpsPerBlock, a.sms), kBlock>>>(a, op, plan.starts(), nb);
    TG_CUDA_CHECK_LAUNCH();
    c = read_counters(a.counters);
  }
  return c;
}

}  // namespace tg::gpu
