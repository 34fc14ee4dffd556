// Garaph's GPU gather (Ma et al., ATC 2017, section 4.1) over shards of the
// in-edges in GPU memory (engines/shard_plan.h): a block per shard holds an
// accumulator per destination vertex in shared memory, R adjoining copies of
// it, and its threads take the shard's in-edges in order, thread t folding
// edge e's gather() into copy t mod R of e's destination by an atomic; then
// each vertex's copies are combined (R lanes of a warp, by shuffles) and the
// total applied. Consecutive threads thus read consecutive ids and their
// destinations' offsets (two coalesced streams), and a destination with many
// in-edges takes its atomics on up to 32 addresses where a single copy would
// serialize them: the replication that the paper measured 4.84x faster on
// average than none. Lists longer than a shard's edge limit are gathered by
// the engine's chunked warp pass (gather.cuh) instead.
//
// Compiled by gather_shards.cu only (the resident source sees step_args.h).
#pragma once

#include <type_traits>

#include "engines/engine.h"
#include "engines/gpu/kernels/gather.cuh"

namespace tg::gpu {
namespace kernels {

// Folds x into *at in shared memory: an atomic add where the operator says
// its sum is one, else a compare-and-swap loop over sum().
template <typename Op, typename T>
__device__ inline void shared_fold(const Op& op, T* at, T x) {
  if constexpr (SumsByAddition<Op> && (std::is_same_v<T, double> || std::is_same_v<T, float>)) {
    atomicAdd(at, x);
  } else {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "shards: a gather's acc_t must be 4 or 8 bytes");
    using Bits = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned>;
    Bits* word = reinterpret_cast<Bits*>(at);
    Bits seen = *word, expected;
    do {
      expected = seen;
      T now;
      memcpy(&now, &expected, sizeof(T));
      const T next = op.sum(now, x);
      Bits bits;
      memcpy(&bits, &next, sizeof(T));
      seen = atomicCAS(word, expected, bits);
    } while (seen != expected);
  }
}

constexpr int kShardUnroll = 4;

template <typename V, typename Op>
__global__ void __launch_bounds__(kBlock) gather_shard_kernel(ShardGatherArgs<V> a, Op op) {
  using acc_t = typename Op::acc_t;
  constexpr bool kW = Op::needs_weights;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  acc_t* acc = reinterpret_cast<acc_t*>(shared_bytes);
  const int lane = threadIdx.x & 31;
  const uint64_t lo = a.first, hi = a.first + a.n;
  Tally t;
  double residual = 0;
  for (uint64_t s = a.first_shard + blockIdx.x; s < a.end_shard; s += gridDim.x) {
    const unsigned r = a.replicas[s];
    if (r == 0) continue;  // a long list: the chunked pass's
    const uint64_t s0 = a.starts[s], s1 = a.starts[s + 1];
    const uint64_t vb = s0 > lo ? s0 : lo, ve = s1 < hi ? s1 : hi;
    for (uint64_t j = threadIdx.x; j < (s1 - s0) * r; j += blockDim.x) acc[j] = op.zero();
    __syncthreads();
    const eid_t eb = a.csr.offsets[vb], ee = a.csr.offsets[ve];
    // kShardUnroll edges a thread at once, a block's width apart (each load
    // still coalesced): their ids and offsets, then their values, then the
    // folds, so that a thread has several random reads in flight.
    const unsigned copy = threadIdx.x & (r - 1);
    for (eid_t base = eb + threadIdx.x; base < ee; base += kShardUnroll * blockDim.x) {
      unsigned offs[kShardUnroll];
      V ids[kShardUnroll];
      weight_t ws[kShardUnroll];
#pragma unroll
      for (int k = 0; k < kShardUnroll; ++k) {
        const eid_t e = base + k * blockDim.x;
        offs[k] = e < ee ? __ldcs(a.idx_off + e) : 0u;  // read once: evict-first, as load_once
        ids[k] = e < ee ? load_once(a.csr.neighbors + e) : V{0};
        ws[k] = 1.0f;
        if constexpr (kW) ws[k] = e < ee ? a.csr.weights[e] : 1.0f;
      }
      acc_t xs[kShardUnroll];
#pragma unroll
      for (int k = 0; k < kShardUnroll; ++k)
        xs[k] = base + k * blockDim.x < ee ? op.gather(ids[k], static_cast<V>(s0 + offs[k]), ws[k]) : op.zero();
#pragma unroll
      for (int k = 0; k < kShardUnroll; ++k)
        if (base + k * blockDim.x < ee) shared_fold(op, acc + offs[k] * r + copy, xs[k]);
    }
    if (threadIdx.x == 0) t.edges += ee - eb;
    __syncthreads();
    // R lanes a vertex (R divides 32, and every pass starts at a warp's
    // first lane), combined by shuffles: the copies of a vertex lie side by
    // side, so the lanes read distinct banks.
    const uint64_t first = (vb - s0) * r, count = (ve - vb) * r;
    for (uint64_t base = threadIdx.x & ~31u; base < count; base += blockDim.x) {
      const uint64_t j = base + lane;
      acc_t x = j < count ? acc[first + j] : op.zero();
      for (unsigned o = r / 2; o > 0; o >>= 1) x = op.sum(x, __shfl_xor_sync(kFull, x, o));
      if (j < count && (j & (r - 1)) == 0) residual += finish_gather(a, op, static_cast<V>(vb + j / r), x);
    }
    __syncthreads();
  }
  add_residual(a.residual, residual);
  flush(t, a.counters);
}

}  // namespace kernels

template <typename V, typename Op>
StepCounters gather_shards_step(const ShardGatherArgs<V>& a, const Op& op, double* residual_out) {
  using namespace kernels;
  using acc_t = typename Op::acc_t;
  StepCounters c{};
  if (a.end_shard > a.first_shard) {
    const size_t shared = a.slots * sizeof(acc_t);
    c = first_pass(a.end_shard - a.first_shard, 1, a.sms, a.counters, [&](unsigned blocks) {
      gather_shard_kernel<V, Op><<<blocks, kBlock, shared>>>(a, op);
    });
  }
  if (a.long_count > 0) {
    const ChunkPlan plan = plan_chunks<Access::kDevice, Op::needs_weights>(a.csr, a.big_queue, a.long_count, *a.pool);
    chunked_gather(a, op, a.long_count, plan, [&](unsigned blocks, const unsigned long long* prefix, acc_t* partial) {
      gather_chunk_kernel<Access::kDevice, V, Op><<<blocks, kBlock>>>(a, op, prefix, a.long_count, partial);
    });
    c = read_counters(a.counters);
  }
  TG_CUDA(cudaMemcpy(residual_out, a.residual, sizeof(double), cudaMemcpyDeviceToHost));
  return c;
}

}  // namespace tg::gpu
