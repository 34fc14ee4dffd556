// Push (top-down) over a frontier queue, or over every vertex: for each
// frontier vertex u and out-edge u -> v with cond(v), update_atomic(u, v, w);
// the vertices for which it returns true form the output set (a bitmap, and
// a queue when the engine keeps one). Lists longer than kChunkEntries go to a
// second pass, a warp per chunk. Compiled by the access_*.cu files only.
#pragma once

#include "engines/gpu/kernels/edge_walk.cuh"

namespace tg::gpu {
namespace kernels {

// Adds v to the output frontier unless it is there already (the bitmap makes
// the output a set); the queue, when kept, gets one atomic per warp.
// All 32 lanes must call this.
template <typename V>
__device__ inline void emit(const PushArgs<V>& a, bool joined, V v, int lane, Tally& t) {
  bool fresh = false;
  if (joined) {
    uint32_t m = 1u << (v & 31);
    fresh = !(atomicOr(&a.out_bits[v >> 5], m) & m);
  }
  if (a.out_queue == nullptr) {
    if (fresh) t.out++;
    return;
  }
  warp_append(fresh, v, a.out_queue, &a.counters->out_count, lane);
}


// Whether a list read in one go (no longer than a group of 32) is read at
// all: under an ordered weight band, whole by the band from 0 and not by the
// others (engines/engine.h's band hint); without one, always.
template <typename Op>
__device__ inline bool reads_short_lists(const Op& op) {
  if constexpr (Op::needs_weights && HasWeightBand<Op>) return !(op.band().ordered && op.band().from > 0);
  else return true;
}

// A warp applies op to entries [lo, hi) of u's list, loading from `start`.
template <Access A, typename V, typename Op>
__device__ inline void push_walk_all(const PushArgs<V>& a, const Op& op, V u, int64_t lo, int64_t hi, int64_t start,
                                     const ListRead<V>& list, int lane, Tally& t) {
  constexpr bool kW = Op::needs_weights;
  for (int64_t base = start; base < hi; base += kWarp) {
    int64_t k = base + lane;
    bool joined = false;
    V v = 0;
    if (k >= lo && k < hi) {
      v = id_at<A>(a.csr, list, k);
      weight_t w = 1.0f;
      if constexpr (kW) w = weight_at<A>(a.csr, list, k);
      joined = op.cond(v) && op.update_atomic(u, v, w);
    }
    if (lane == 0) count_read<A, kW>(t, a.csr, list, base > lo ? base : lo, (base + kWarp < hi ? base + kWarp : hi) - 1);
    if (a.want_output) emit(a, joined, v, lane, t);
  }
  if (lane == 0) {
    t.edges += hi - lo;
    if constexpr (A == Access::kUvm) {
      mark_pages(t, a.uvm_pages, 0, a.csr.neighbors, lo, hi - 1);
      if constexpr (kW) mark_pages(t, a.uvm_pages, a.uvm_weight_page0, a.csr.weights, lo, hi - 1);
    }
  }
}

// Entries [lo, hi) of u's list, every one inside the operator's band (an
// ordered list past the group where a band without an upper end starts),
// loading from `start`: two groups of 32 a turn, each lane's two ids and
// weights loaded together and then both targets' states, so that a warp
// waits once for each where one group a turn waits for the weight, the id,
// and the target in a row. With the ids loaded beside the weights below:
// SSSP on kron:25 in GPU memory 55.0 / 53.8 -> 52.7 / 52.6 ms on the H100
// (docs/PERF.md, session 18), where the first bucket's heavy pass relaxes
// 728 M edges, most of them to final targets.
template <Access A, typename V, typename Op>
__device__ inline void push_walk_pairs(const PushArgs<V>& a, const Op& op, V u, int64_t lo, int64_t hi, int64_t start,
                                       const ListRead<V>& list, int lane, Tally& t) {
  for (int64_t base = start; base < hi; base += 2 * kWarp) {
    const int64_t k0 = base + lane, k1 = k0 + kWarp;
    const bool in0 = k0 >= lo && k0 < hi, in1 = k1 >= lo && k1 < hi;
    V v0 = 0, v1 = 0;
    weight_t w0 = 0, w1 = 0;
    if (in0) v0 = id_at<A>(a.csr, list, k0), w0 = weight_at<A>(a.csr, list, k0);
    if (in1) v1 = id_at<A>(a.csr, list, k1), w1 = weight_at<A>(a.csr, list, k1);
    const bool c0 = in0 && op.cond(v0), c1 = in1 && op.cond(v1);
    const bool joined0 = c0 && op.update_atomic(u, v0, w0);
    const bool joined1 = c1 && op.update_atomic(u, v1, w1);
    if (lane == 0) {
      count_read<A, true>(t, a.csr, list, base > lo ? base : lo, (base + 2 * kWarp < hi ? base + 2 * kWarp : hi) - 1);
    }
    if (a.want_output) {
      emit(a, joined0, v0, lane, t);
      emit(a, joined1, v1, lane, t);
    }
  }
  if (lane == 0) t.edges += hi - (start > lo ? start : lo);
}

// The same under the operator's weight band, every list ordered by weight
// (engines/engine.h's band hint). Entries the warp reads in one group anyway
// (a short list, or the last piece of a long one) are taken whole by the
// band from 0 and skipped by the others. Longer ones: a band above the
// list's first entries (SSSP's heavy half) first finds the group where it
// starts, a lane probing the last weight of each of 32 groups at a time (a
// sector each, where the walk would read the groups' lines); then 32 weights
// at a time, the ids only where some lane's weight lies inside the band, and
// no group after the first that reaches past the band's end. What it counts
// is what it reads.
template <Access A, typename V, typename Op>
__device__ inline void push_walk_band(const PushArgs<V>& a, const Op& op, V u, int64_t lo, int64_t hi, int64_t start,
                                      const ListRead<V>& list, int lane, Tally& t) {
  const WeightBand band = op.band();
  if (hi - start <= kWarp) {
    if (reads_short_lists(op)) push_walk_all<A>(a, op, u, lo, hi, start, list, lane, t);
    return;
  }
  int64_t first_group = start;
  if (band.from > 0) {
    first_group = hi;  // no entry reaches the band
    for (int64_t g0 = start; g0 < hi; g0 += int64_t{kWarp} * kWarp) {
      const int64_t g = g0 + int64_t{lane} * kWarp;  // this lane's group
      const int64_t last = (g + kWarp < hi ? g + kWarp : hi) - 1;
      bool reaches = false;
      if (g < hi) {
        reaches = !(weight_at<A>(a.csr, list, last) < band.from);
        count_array_read<A>(t, list, a.csr.weights, last, last);
        if constexpr (A == Access::kUvm) mark_pages(t, a.uvm_pages, a.uvm_weight_page0, a.csr.weights, last, last);
      }
      const unsigned hit = __ballot_sync(kFull, reaches);
      if (hit != 0) {
        first_group = g0 + int64_t{__ffs(hit) - 1} * kWarp;
        break;
      }
    }
  }
  const int64_t walk_lo = first_group > lo ? first_group : lo;
  int64_t walked_end = walk_lo;  // one past the last entry whose weight was read
  for (int64_t base = first_group; base < hi; base += kWarp) {
    if (base > first_group && band.open_above()) {  // past the band's first group: all of it in the band
      push_walk_pairs<A>(a, op, u, lo, hi, base, list, lane, t);
      walked_end = hi;
      break;
    }
    const int64_t k = base + lane;
    const bool in_list = k >= lo && k < hi;
    const weight_t w = in_list ? weight_at<A>(a.csr, list, k) : weight_t{0};
    V v = 0;
    // In GPU memory the ids load with the weights (one wait a group, not
    // two; a group's ids past the band share its lines); over a link only
    // the takers' ids are read, as counted.
    if constexpr (!kOverLink<A>) {
      if (in_list) v = id_at<A>(a.csr, list, k);
    }
    const bool take = in_list && band.holds(w);
    const unsigned takers = __ballot_sync(kFull, take);
    bool joined = false;
    if (take) {
      if constexpr (kOverLink<A>) v = id_at<A>(a.csr, list, k);
      joined = op.cond(v) && op.update_atomic(u, v, w);
    }
    const int64_t first = base > lo ? base : lo, last = (base + kWarp < hi ? base + kWarp : hi) - 1;
    if (lane == 0) {
      count_array_read<A>(t, list, a.csr.weights, first, last);
      if (takers != 0) count_array_read<A>(t, list, a.csr.neighbors, base + __ffs(takers) - 1, base + 31 - __clz(takers));
      t.edges += __popc(takers);
    }
    if (a.want_output) emit(a, joined, v, lane, t);
    walked_end = last + 1;
    if (__any_sync(kFull, in_list && !(w < band.below))) break;  // the rest of the list lies past the band
  }
  if constexpr (A == Access::kUvm) {
    if (lane == 0 && walked_end > walk_lo) {
      mark_pages(t, a.uvm_pages, 0, a.csr.neighbors, walk_lo, walked_end - 1);
      mark_pages(t, a.uvm_pages, a.uvm_weight_page0, a.csr.weights, walk_lo, walked_end - 1);
    }
  }
}

// A warp applies op to entries [lo, hi) of u's list, loading from `start`:
// all of them, or a weight band of them where the operator says the lists
// are ordered by weight.
template <Access A, typename V, typename Op>
__device__ inline void push_walk(const PushArgs<V>& a, const Op& op, V u, int64_t lo, int64_t hi, int64_t start,
                                 const ListRead<V>& list, int lane, Tally& t) {
  if constexpr (Op::needs_weights && HasWeightBand<Op>) {
    if (op.band().ordered) return push_walk_band<A>(a, op, u, lo, hi, start, list, lane, t);
  }
  push_walk_all<A>(a, op, u, lo, hi, start, list, lane, t);
}

// One warp per frontier vertex; lists longer than a chunk go to big_queue.
template <Access A, typename V, typename Op>
__global__ void __launch_bounds__(kBlock) push_warp_kernel(PushArgs<V> a, Op op) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  Tally t;
  for (uint64_t i = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; i < a.count; i += warps) {
    V u = a.frontier ? a.frontier[i] : static_cast<V>(i);
    const int64_t b = static_cast<int64_t>(a.csr.offsets[u]), end = static_cast<int64_t>(a.csr.offsets[u + 1]);
    const int64_t e = limited_end(op, b, end);
    if (b == e) continue;
    int64_t s = walk_start<A, Op::needs_weights>(a.csr, b);
    if (e - s > kChunkEntries) {
      defer_to_chunks(a, u, lane);
      continue;
    }
    // The cache is looked up by the whole list, as the pull does; the walk may stop sooner (list_limit).
    push_walk<A>(a, op, u, b, e, s, list_read<A>(a.csr, u, b, end), lane, t);
  }
  flush(t, a.counters);
}

// Entry i of a step's frontier, taken by one lane, and the bounds [b, e) of
// what the step reads of its list (an empty list past the frontier's end).
template <typename V>
struct LaneList {
  V u = 0;
  int64_t b = 0, e = 0;
};
// An operator without hints: lane_list's whole lists.
struct WholeLists {};
template <typename V, typename Op>
__device__ inline LaneList<V> lane_list(const PushArgs<V>& a, const Op& op, uint64_t i) {
  LaneList<V> l;
  if (i < a.count) {
    l.u = a.frontier ? a.frontier[i] : static_cast<V>(i);
    l.b = static_cast<int64_t>(a.csr.offsets[l.u]);
    l.e = limited_end(op, l.b, static_cast<int64_t>(a.csr.offsets[l.u + 1]));
  }
  return l;
}

// In GPU memory: a lane per frontier vertex. A list of at most
// kThreadEntries entries is walked by its own lane (its entries loaded
// together, then their targets), a longer one by the whole warp after the
// lanes' walks, one list after another, and one longer than a chunk goes to
// the chunk pass. Under an ordered weight band a lane's list, shorter than
// a group, is read whole by the band from 0 and not at all by the others,
// as push_walk_band treats a list the warp reads in one group. A warp a list
// left most of its lanes idle on kron's short lists, which SSSP's light
// rounds relax: on kron:25 (H100) SSSP 49.6 / 50.3 -> 46.1 / 45.7 ms, BFS
// push-only 38.8 -> 33.2 (docs/PERF.md, session 18).
template <typename V, typename Op>
__global__ void __launch_bounds__(kBlock) push_lane_kernel(PushArgs<V> a, Op op) {
  constexpr bool kW = Op::needs_weights;
  const int lane = threadIdx.x & 31;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  const bool lane_lists = reads_short_lists(op);  // a lane's list is shorter than a group
  Tally t;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u); base < a.count;
       base += stride) {
    const auto [u, b, e] = lane_list(a, op, base + lane);
    const int count = lane_lists && e - b <= kThreadEntries ? static_cast<int>(e - b) : 0;
    V ids[kThreadEntries];
    weight_t ws[kThreadEntries];
#pragma unroll
    for (int j = 0; j < kThreadEntries; ++j) {
      ids[j] = j < count ? a.csr.neighbors[b + j] : V{0};
      ws[j] = 1.0f;
      if constexpr (kW) ws[j] = j < count ? a.csr.weights[b + j] : 1.0f;
    }
#pragma unroll
    for (int j = 0; j < kThreadEntries; ++j) {
      if (!__any_sync(kFull, j < count)) break;
      const bool joined = j < count && op.cond(ids[j]) && op.update_atomic(u, ids[j], ws[j]);
      if (a.want_output) emit(a, joined, ids[j], lane, t);
    }
    t.edges += count;
    for_each_flagged_list(__ballot_sync(kFull, e - b > kThreadEntries), u, b, e, [&](V w, int64_t wb, int64_t we) {
      if (we - wb > kChunkEntries)
        defer_to_chunks(a, w, lane);
      else
        push_walk<Access::kDevice>(a, op, w, wb, we, wb, list_read<Access::kDevice>(a.csr, w, wb, we), lane, t);
    });
  }
  flush(t, a.counters);
}

// A limited push (the operator's list_limit hint, CC's sample) whose limit
// the resident heads hold (EdgeCacheView::heads, list_read.cuh): a lane per
// frontier vertex reads its list's first entries from the head planes, entry
// j of 32 consecutive vertices in one line of plane j, as a pull probes its
// heads; nothing crosses the link. A warp a list (push_warp_kernel) would
// spend a warp's turn on one or two entries. Loops stay warp-uniform for the
// output's appends.
template <typename V, typename Op>
__global__ void __launch_bounds__(kBlock) push_heads_kernel(PushArgs<V> a, Op op) {
  constexpr bool kW = Op::needs_weights;
  const int lane = threadIdx.x & 31;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  const EdgeCacheView<V>& c = a.csr.cache;
  Tally t;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u); base < a.count;
       base += stride) {
    const auto [u, b, e] = lane_list(a, op, base + lane);
    const int count = static_cast<int>(e - b);  // at most c.heads (push_step's check)
    for (int j = 0; j < c.heads; ++j) {
      if (!__any_sync(kFull, j < count)) break;
      bool joined = false;
      V v = 0;
      if (j < count) {
        const uint64_t at = static_cast<uint64_t>(j) * c.plane + u;
        v = c.head_ids[at];
        weight_t w = 1.0f;
        if constexpr (kW) w = c.head_weights[at];
        joined = op.cond(v) && op.update_atomic(u, v, w);
      }
      if (a.want_output) emit(a, joined, v, lane, t);
    }
    t.edges += count;
    t.cache_bytes += static_cast<unsigned long long>(count) * (sizeof(V) + (kW ? sizeof(weight_t) : 0));
  }
  flush(t, a.counters);
}

// One warp per chunk of a long list.
template <Access A, typename V, typename Op>
__global__ void __launch_bounds__(kBlock)
    push_chunk_kernel(PushArgs<V> a, Op op, const V* big, const unsigned long long* prefix, uint64_t count) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  const unsigned long long total = prefix[count];
  Tally t;
  for (uint64_t c = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; c < total; c += warps) {
    const Chunk<V> k = chunk_at<A, Op::needs_weights>(a.csr, big, prefix, count, c);
    push_walk<A>(a, op, k.v, k.lo, k.hi, k.start, k.list, lane, t);
  }
  flush(t, a.counters);
}

// EMOGI's naive worker: a thread per frontier vertex walks its whole list.
// Loops are kept warp-uniform so that output appends can be aggregated.
template <typename V, typename Op>
__global__ void __launch_bounds__(kBlock) push_naive_kernel(PushArgs<V> a, Op op) {
  constexpr bool kW = Op::needs_weights;
  const int lane = threadIdx.x & 31;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  Tally t;
  for (uint64_t base = (static_cast<uint64_t>(blockIdx.x) * blockDim.x) + (threadIdx.x & ~31u); base < a.count;
       base += stride) {
    const auto [u, b, e] = lane_list(a, op, base + lane);
    const ListRead<V> list = list_read<Access::kNaive>(a.csr, u, b, e);
    if (e > b) {
      t.edges += e - b;
      count_read<Access::kNaive, kW>(t, a.csr, list, b, e - 1);
    }
    for (int64_t k = b; __any_sync(kFull, k < e); ++k) {
      bool joined = false;
      V v = 0;
      if (k < e) {
        v = id_at<Access::kNaive>(a.csr, list, k);
        weight_t w = 1.0f;
        if constexpr (kW) w = weight_at<Access::kNaive>(a.csr, list, k);
        joined = op.cond(v) && op.update_atomic(u, v, w);
      }
      if (a.want_output) emit(a, joined, v, lane, t);
    }
  }
  // naive requests are single sectors
  t.requests = t.sectors;
  flush(t, a.counters);
}


}  // namespace kernels

template <Access A, typename V, typename Op>
StepCounters push_step(const PushArgs<V>& a, const Op& op) {
  using namespace kernels;
  if constexpr (A == Access::kNaive) {
    return first_pass(a.count, kBlock, a.sms, a.counters,
                      [&](unsigned blocks) { push_naive_kernel<V, Op><<<blocks, kBlock>>>(a, op); });
  } else {
    StepCounters c;
    if constexpr (A == Access::kDevice) {
      c = first_pass(a.count, kBlock, a.sms, a.counters,
                     [&](unsigned blocks) { push_lane_kernel<V, Op><<<blocks, kBlock>>>(a, op); });
    } else {
      bool from_heads = false;  // every entry the step reads lies in the cached heads
      if constexpr (A == Access::kAligned && kHasListLimit<Op>) {
        from_heads = list_limit(op) <= static_cast<eid_t>(a.csr.cache.heads);
        if (from_heads)
          c = first_pass(a.count, kBlock, a.sms, a.counters,
                         [&](unsigned blocks) { push_heads_kernel<V, Op><<<blocks, kBlock>>>(a, op); });
      }
      if (!from_heads)
        c = first_pass(a.count, kWarpsPerBlock, a.sms, a.counters,
                       [&](unsigned blocks) { push_warp_kernel<A, V, Op><<<blocks, kBlock>>>(a, op); });
    }
    if (c.big_count > 0) {
      const uint64_t nb = c.big_count;
      ChunkPlan plan = plan_chunks<A, Op::needs_weights>(a.csr, a.big_queue, nb, *a.pool);
      push_chunk_kernel<A, V, Op><<<grid_for(plan.total, kWarpsPerBlock, a.sms), kBlock>>>(a, op, a.big_queue,
                                                                                            plan.starts(), nb);
      TG_CUDA_CHECK_LAUNCH();
      c = read_counters(a.counters);
    }
    return c;
  }
}

}  // namespace tg::gpu
