// Pull (bottom-up) over in-edges: every vertex v with cond(v) looks for
// members of the input frontier among its in-neighbours, applies update()
// (v belongs to one warp, so no atomics) and stops as soon as cond(v) turns
// false: Beamer's bottom-up step. Compiled by the access_*.cu files only.
#pragma once

#include "engines/engine.h"
#include "engines/gpu/kernels/edge_walk.cuh"

namespace tg::gpu {
namespace kernels {

__device__ inline bool member(const uint32_t* bits, uint64_t v) { return (bits[v >> 5] >> (v & 31)) & 1u; }

// A warp owns 32 consecutive vertices (one output word). Each lane asks
// cond() for its vertex and first probes the head of its own in-list; then
// the warp walks the rest of each list still open in turn, 32 entries at a
// time, applying update() one frontier neighbour at a time (the vertex
// belongs to this warp, so no atomics) and stopping as soon as cond() turns
// false: Beamer's bottom-up step.
template <Access A, typename V, typename Op>
__global__ void __launch_bounds__(kBlock) pull_warp_kernel(PullArgs<V> a, Op op) {
  constexpr bool kW = Op::needs_weights;
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  const uint64_t words = (a.n + 31) / 32;
  // The head a lane probes: bottom-up BFS mostly stops there, 32 vertices at
  // a time instead of one. In GPU memory the first kPullProbe entries
  // (scattered loads cost nothing extra there); over the link only the heads
  // the edge cache holds in GPU memory (a lane's own scattered loads over the
  // link would cost a request each), none without them.
  int64_t probe = 0;
  if constexpr (A == Access::kDevice) probe = kPullProbe;
  if constexpr (kOverLink<A>) probe = a.csr.cache.heads;
  Tally t;
  for (uint64_t wd = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; wd < words; wd += warps) {
    uint64_t mine = wd * 32 + lane;
    bool active = mine < a.n && op.cond(static_cast<V>(mine));
    int64_t begin = 0, resume = 0;  // the lane's list, and where the warp continues it
    bool joined_here = false;
    if (active) {
      const V v = static_cast<V>(mine);
      begin = resume = static_cast<int64_t>(a.csr.offsets[mine]);
      // The cache is looked up by the whole list; the pull may stop sooner (list_limit).
      const int64_t end = static_cast<int64_t>(a.csr.offsets[mine + 1]);
      int64_t e = limited_end(op, begin, end);
      if (probe > 0) {
        const ListRead<V> head = list_read<A>(a.csr, v, begin, end, false);
        const int64_t stop = begin + probe < e ? begin + probe : e;
        while (resume < stop) {
          const int64_t k = resume++;
          V u = id_at<A>(a.csr, head, k);
          if (!member(a.in_bits, u)) continue;
          weight_t w = 1.0f;
          if constexpr (kW) w = weight_at<A>(a.csr, head, k);
          if (op.update(u, v, w)) joined_here = true;
          if (!op.cond(v)) {
            e = resume;  // closed: nothing left for the warp
            break;
          }
        }
        t.edges += resume - begin;
        count_read<A, kW>(t, a.csr, head, begin, resume - 1);
      }
      active = resume < e;
    }
    __syncwarp();  // the probe's updates are seen by the lanes that continue
    unsigned open_set = __ballot_sync(kFull, active);
    unsigned joined = __ballot_sync(kFull, joined_here);
    while (open_set) {
      int j = __ffs(open_set) - 1;
      open_set &= open_set - 1;
      V v = static_cast<V>(wd * 32 + j);
      // Over the link, b lies past the cached head: the aligned walk starts
      // on the line that holds b, not the list's first entry.
      const int64_t b = __shfl_sync(kFull, resume, j);
      const int64_t first = __shfl_sync(kFull, begin, j), end = static_cast<int64_t>(a.csr.offsets[v + 1]);
      const int64_t e = limited_end(op, first, end);
      const ListRead<V> list = list_read<A>(a.csr, v, first, end);
      int64_t last_read = b - 1;
      bool open = true;
      for (int64_t base = walk_start<A, kW>(a.csr, b); open && base < e; base += kWarp) {
        int64_t k = base + lane;
        bool valid = k >= b && k < e;
        V u = 0;
        weight_t w = 1.0f;
        bool hit = false;
        if (valid) {
          u = id_at<A>(a.csr, list, k);
          if constexpr (kW) w = weight_at<A>(a.csr, list, k);
          hit = member(a.in_bits, u);
        }
        unsigned hits = __ballot_sync(kFull, hit);
        int64_t stop = base + kWarp < e ? base + kWarp : e;
        while (hits) {
          int h = __ffs(hits) - 1;
          hits &= hits - 1;
          int result = 0;
          if (lane == h) result = (op.update(u, v, w) ? 1 : 0) | (op.cond(v) ? 2 : 0);
          result = __shfl_sync(kFull, result, h);
          __syncwarp();
          if (result & 1) joined |= 1u << j;
          if (!(result & 2)) {
            open = false;
            stop = base + h + 1;
            break;
          }
        }
        last_read = stop - 1;
        if (lane == 0) count_read<A, kW>(t, a.csr, list, base > b ? base : b, stop - 1);
      }
      if (lane == 0 && last_read >= b) {
        t.edges += last_read - b + 1;
        if constexpr (A == Access::kUvm) {
          mark_pages(t, a.uvm_pages, 0, a.csr.neighbors, b, last_read);
          if constexpr (kW) mark_pages(t, a.uvm_pages, a.uvm_weight_page0, a.csr.weights, b, last_read);
        }
      }
    }
    if (lane == 0) {
      a.out_bits[wd] = joined;
      t.out += __popc(joined);
    }
  }
  flush(t, a.counters);
}

// The naive bottom-up worker: a thread per vertex.
template <typename V, typename Op>
__global__ void __launch_bounds__(kBlock) pull_naive_kernel(PullArgs<V> a, Op op) {
  constexpr bool kW = Op::needs_weights;
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  const uint64_t words = (a.n + 31) / 32;
  Tally t;
  for (uint64_t wd = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; wd < words; wd += warps) {
    uint64_t mine = wd * 32 + lane;
    bool joined = false;
    if (mine < a.n && op.cond(static_cast<V>(mine))) {
      V v = static_cast<V>(mine);
      const int64_t b = static_cast<int64_t>(a.csr.offsets[v]), end = static_cast<int64_t>(a.csr.offsets[v + 1]);
      const int64_t e = limited_end(op, b, end);
      const ListRead<V> list = list_read<Access::kNaive>(a.csr, v, b, end);
      int64_t k = b;
      for (; k < e; ++k) {
        V u = id_at<Access::kNaive>(a.csr, list, k);
        if (!member(a.in_bits, u)) continue;
        weight_t w = 1.0f;
        if constexpr (kW) w = weight_at<Access::kNaive>(a.csr, list, k);
        if (op.update(u, v, w)) joined = true;
        if (!op.cond(v)) {
          ++k;
          break;
        }
      }
      if (k > b) {
        t.edges += k - b;
        count_read<Access::kNaive, kW>(t, a.csr, list, b, k - 1);
      }
    }
    unsigned word = __ballot_sync(kFull, joined);
    if (lane == 0) {
      a.out_bits[wd] = word;
      t.out += __popc(word);
    }
  }
  t.requests = t.sectors;
  flush(t, a.counters);
}


}  // namespace kernels

template <Access A, typename V, typename Op>
StepCounters pull_step(const PullArgs<V>& a, const Op& op) {
  using namespace kernels;
  const uint64_t words = (a.n + 31) / 32;  // a warp per output word, naive too
  if constexpr (A == Access::kNaive)
    return first_pass(words, kWarpsPerBlock, a.sms, a.counters,
                      [&](unsigned blocks) { pull_naive_kernel<V, Op><<<blocks, kBlock>>>(a, op); });
  else
    return first_pass(words, kWarpsPerBlock, a.sms, a.counters,
                      [&](unsigned blocks) { pull_warp_kernel<A, V, Op><<<blocks, kBlock>>>(a, op); });
}

}  // namespace tg::gpu
