// The traversal kernels of every placement (see edge_step.h): push (top-down
// over a frontier queue), pull (bottom-up over in-edges, stopping a vertex as
// soon as its operator says it cannot change) and gather (pull over every
// in-edge, for PageRank). Included only by the placement_*.cu files, each of
// which instantiates them for one `Access`.
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

#include "engines/gpu/edge_step.h"

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

// Accounts for entries first..last of a list that one worker read.
template <Access A, bool kWeights, typename V>
__device__ inline void account(Tally& t, const CsrView<V>& csr, uint32_t* pages, uint64_t weight_page0, int64_t first,
                               int64_t last) {
  if constexpr (kOverLink<A>) {
    count_link(t, csr.neighbors, first, last);
    if constexpr (kWeights) count_link(t, csr.weights, first, last);
  }
  if constexpr (A == Access::kUvm) {
    mark_pages(t, pages, 0, csr.neighbors, first, last);
    if constexpr (kWeights) mark_pages(t, pages, weight_page0, csr.weights, first, last);
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
  unsigned mask = __ballot_sync(kFull, fresh);
  if (mask == 0) return;
  if (a.out_queue == nullptr) {
    if (fresh) t.out++;
    return;
  }
  int leader = __ffs(mask) - 1;
  unsigned long long pos = 0;
  if (lane == leader) pos = atomicAdd(&a.counters->out_count, static_cast<unsigned long long>(__popc(mask)));
  pos = __shfl_sync(kFull, pos, leader);
  if (fresh) a.out_queue[pos + __popc(mask & ((1u << lane) - 1))] = v;
}

// ---------------------------------------------------------------- push ----

// A warp applies op to entries [lo, hi) of u's list, loading from `start`.
template <Access A, typename V, typename Op>
__device__ inline void push_walk(const PushArgs<V>& a, const Op& op, V u, int64_t lo, int64_t hi, int64_t start,
                                 int lane, Tally& t) {
  constexpr bool kW = Op::needs_weights;
  const V* nbr = a.csr.neighbors;
  for (int64_t base = start; base < hi; base += kWarp) {
    int64_t k = base + lane;
    bool joined = false;
    V v = 0;
    if (k >= lo && k < hi) {
      v = nbr[k];
      weight_t w = 1.0f;
      if constexpr (kW) w = a.csr.weights[k];
      joined = op.cond(v) && op.update_atomic(u, v, w);
    }
    if constexpr (kOverLink<A>) {
      if (lane == 0) {
        int64_t first = base > lo ? base : lo;
        int64_t last = (base + kWarp < hi ? base + kWarp : hi) - 1;
        count_link(t, nbr, first, last);
        if constexpr (kW) count_link(t, a.csr.weights, first, last);
      }
    }
    if (a.want_output) emit(a, joined, v, lane, t);
  }
  if (lane == 0) {
    t.edges += hi - lo;
    if constexpr (A == Access::kUvm) {
      mark_pages(t, a.uvm_pages, 0, nbr, lo, hi - 1);
      if constexpr (kW) mark_pages(t, a.uvm_pages, a.uvm_weight_page0, a.csr.weights, lo, hi - 1);
    }
  }
}

// One warp per frontier vertex; lists longer than a chunk go to big_queue.
template <Access A, typename V, typename Op>
__global__ void __launch_bounds__(kBlock) push_warp_kernel(PushArgs<V> a, Op op) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  Tally t;
  for (uint64_t i = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; i < a.count; i += warps) {
    V u = a.frontier ? a.frontier[i] : static_cast<V>(i);
    int64_t b = static_cast<int64_t>(a.csr.offsets[u]), e = static_cast<int64_t>(a.csr.offsets[u + 1]);
    if (b == e) continue;
    int64_t s = walk_start<A, Op::needs_weights>(a.csr, b);
    if (e - s > kChunkEntries) {
      if (lane == 0) a.big_queue[atomicAdd(&a.counters->big_count, 1ull)] = u;
      continue;
    }
    push_walk<A>(a, op, u, b, e, s, lane, t);
  }
  flush(t, a.counters);
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

// One warp per chunk of a long list.
template <Access A, typename V, typename Op>
__global__ void __launch_bounds__(kBlock)
    push_chunk_kernel(PushArgs<V> a, Op op, const V* big, const unsigned long long* prefix, uint64_t count) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  const unsigned long long total = prefix[count];
  Tally t;
  for (uint64_t c = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; c < total; c += warps) {
    uint64_t i = owner_of(prefix, count, c);
    V u = big[i];
    int64_t b = static_cast<int64_t>(a.csr.offsets[u]), e = static_cast<int64_t>(a.csr.offsets[u + 1]);
    int64_t s = walk_start<A, Op::needs_weights>(a.csr, b) + static_cast<int64_t>(c - prefix[i]) * kChunkEntries;
    int64_t hi = s + kChunkEntries < e ? s + kChunkEntries : e;
    push_walk<A>(a, op, u, s > b ? s : b, hi, s, lane, t);
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
    uint64_t i = base + lane;
    V u = 0;
    int64_t b = 0, e = 0;
    if (i < a.count) {
      u = a.frontier ? a.frontier[i] : static_cast<V>(i);
      b = static_cast<int64_t>(a.csr.offsets[u]);
      e = static_cast<int64_t>(a.csr.offsets[u + 1]);
    }
    if (e > b) {
      t.edges += e - b;
      count_link(t, a.csr.neighbors, b, e - 1);
      if constexpr (kW) count_link(t, a.csr.weights, b, e - 1);
    }
    for (int64_t k = b; __any_sync(kFull, k < e); ++k) {
      bool joined = false;
      V v = 0;
      if (k < e) {
        v = a.csr.neighbors[k];
        weight_t w = 1.0f;
        if constexpr (kW) w = a.csr.weights[k];
        joined = op.cond(v) && op.update_atomic(u, v, w);
      }
      if (a.want_output) emit(a, joined, v, lane, t);
    }
  }
  // naive requests are single sectors
  t.requests = t.sectors;
  flush(t, a.counters);
}

template <Access A, typename V, typename Op>
StepCounters run_push(const PushArgs<V>& a, const Op& op) {
  StepCounters c{};
  if (a.count > 0) {
    if constexpr (A == Access::kNaive) {
      push_naive_kernel<V, Op><<<grid_for(a.count, kBlock, a.sms), kBlock>>>(a, op);
      TG_CUDA_LAUNCH(push_naive_kernel);
    } else {
      push_warp_kernel<A, V, Op><<<grid_for(a.count, kWarpsPerBlock, a.sms), kBlock>>>(a, op);
      TG_CUDA_LAUNCH(push_warp_kernel);
    }
  }
  TG_CUDA(cudaMemcpy(&c, a.counters, sizeof c, cudaMemcpyDeviceToHost));
  if constexpr (A != Access::kNaive) {
    if (c.big_count > 0) {
      uint64_t nb = c.big_count;
      auto chunks = a.pool->template get_n<unsigned long long>(nb + 1);
      auto prefix = a.pool->template get_n<unsigned long long>(nb + 1);
      auto* chunks_p = static_cast<unsigned long long*>(chunks.get());
      auto* prefix_p = static_cast<unsigned long long*>(prefix.get());
      chunk_count_kernel<A, Op::needs_weights, V><<<div_up(nb + 1, kBlock), kBlock>>>(a.csr, a.big_queue, nb, chunks_p);
      TG_CUDA_LAUNCH(chunk_count_kernel);
      run_cub(*a.pool, [&](void* tmp, size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, chunks_p, prefix_p, nb + 1);
      });
      unsigned long long total = 0;
      TG_CUDA(cudaMemcpy(&total, prefix_p + nb, sizeof total, cudaMemcpyDeviceToHost));
      push_chunk_kernel<A, V, Op><<<grid_for(total, kWarpsPerBlock, a.sms), kBlock>>>(a, op, a.big_queue, prefix_p, nb);
      TG_CUDA_LAUNCH(push_chunk_kernel);
      TG_CUDA(cudaMemcpy(&c, a.counters, sizeof c, cudaMemcpyDeviceToHost));
    }
  }
  return c;
}

// ---------------------------------------------------------------- pull ----

__device__ inline bool member(const uint32_t* bits, uint64_t v) { return (bits[v >> 5] >> (v & 31)) & 1u; }

// A warp owns 32 consecutive vertices (one output word). Each lane asks
// cond() for its vertex; then the warp walks the in-list of each open vertex
// in turn, 32 entries at a time, applying update() one frontier neighbour at
// a time (the vertex belongs to this warp, so no atomics) and stopping as soon
// as cond() turns false: Beamer's bottom-up step.
template <Access A, typename V, typename Op>
__global__ void __launch_bounds__(kBlock) pull_warp_kernel(PullArgs<V> a, Op op) {
  constexpr bool kW = Op::needs_weights;
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  const uint64_t words = (a.n + 31) / 32;
  const V* nbr = a.csr.neighbors;
  Tally t;
  for (uint64_t wd = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; wd < words; wd += warps) {
    uint64_t mine = wd * 32 + lane;
    bool active = mine < a.n && op.cond(static_cast<V>(mine));
    int64_t resume = 0;  // where the warp continues this lane's list
    bool joined_here = false;
    if (active) {
      resume = static_cast<int64_t>(a.csr.offsets[mine]);
      int64_t e = static_cast<int64_t>(a.csr.offsets[mine + 1]);
      if constexpr (A == Access::kDevice) {
        // In GPU memory, each lane first tries the head of its own list:
        // bottom-up BFS mostly stops there, 32 vertices at a time instead
        // of one (scattered loads cost nothing extra in GPU memory).
        const V v = static_cast<V>(mine);
        const int64_t b = resume, stop = b + kPullProbe < e ? b + kPullProbe : e;
        for (; resume < stop;) {
          const int64_t k = resume++;
          V u = nbr[k];
          if (!member(a.in_bits, u)) continue;
          weight_t w = 1.0f;
          if constexpr (kW) w = a.csr.weights[k];
          if (op.update(u, v, w)) joined_here = true;
          if (!op.cond(v)) {
            e = resume;  // closed: nothing left for the warp
            break;
          }
        }
        t.edges += resume - b;
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
      const int64_t b = __shfl_sync(kFull, resume, j);
      const int64_t e = static_cast<int64_t>(a.csr.offsets[v + 1]);
      int64_t last_read = b - 1;
      bool open = true;
      for (int64_t base = walk_start<A, kW>(a.csr, b); open && base < e; base += kWarp) {
        int64_t k = base + lane;
        bool valid = k >= b && k < e;
        V u = 0;
        weight_t w = 1.0f;
        bool hit = false;
        if (valid) {
          u = nbr[k];
          if constexpr (kW) w = a.csr.weights[k];
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
        if constexpr (kOverLink<A>) {
          if (lane == 0) {
            int64_t first = base > b ? base : b;
            count_link(t, nbr, first, stop - 1);
            if constexpr (kW) count_link(t, a.csr.weights, first, stop - 1);
          }
        }
      }
      if (lane == 0 && last_read >= b) {
        t.edges += last_read - b + 1;
        if constexpr (A == Access::kUvm) {
          mark_pages(t, a.uvm_pages, 0, nbr, b, last_read);
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
      int64_t b = static_cast<int64_t>(a.csr.offsets[v]), e = static_cast<int64_t>(a.csr.offsets[v + 1]);
      int64_t k = b;
      for (; k < e; ++k) {
        V u = a.csr.neighbors[k];
        if (!member(a.in_bits, u)) continue;
        weight_t w = 1.0f;
        if constexpr (kW) w = a.csr.weights[k];
        if (op.update(u, v, w)) joined = true;
        if (!op.cond(v)) {
          ++k;
          break;
        }
      }
      if (k > b) {
        t.edges += k - b;
        count_link(t, a.csr.neighbors, b, k - 1);
        if constexpr (kW) count_link(t, a.csr.weights, b, k - 1);
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

template <Access A, typename V, typename Op>
StepCounters run_pull(const PullArgs<V>& a, const Op& op) {
  StepCounters c{};
  uint64_t words = (a.n + 31) / 32;
  if (words > 0) {
    if constexpr (A == Access::kNaive) {
      pull_naive_kernel<V, Op><<<grid_for(words, kWarpsPerBlock, a.sms), kBlock>>>(a, op);
      TG_CUDA_LAUNCH(pull_naive_kernel);
    } else {
      pull_warp_kernel<A, V, Op><<<grid_for(words, kWarpsPerBlock, a.sms), kBlock>>>(a, op);
      TG_CUDA_LAUNCH(pull_warp_kernel);
    }
  }
  TG_CUDA(cudaMemcpy(&c, a.counters, sizeof c, cudaMemcpyDeviceToHost));
  return c;
}

// -------------------------------------------------------------- gather ----

template <typename Op, typename T>
__device__ inline T warp_combine(const Op& op, T x) {
  for (int o = 16; o > 0; o >>= 1) x = op.sum(x, __shfl_xor_sync(kFull, x, o));
  return x;
}

__device__ inline void add_residual(double* residual, double x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(kFull, x, o);
  if ((threadIdx.x & 31) == 0 && x != 0) atomicAdd(residual, x);
}

// A vertex's total: applied, or (streamed partitions) added to its partial sum.
template <typename V, typename Op>
__device__ inline double finish_gather(const GatherArgs<V>& a, const Op& op, V v, typename Op::acc_t total) {
  if (a.partial == nullptr) return op.apply(v, total);
  auto* partial = static_cast<typename Op::acc_t*>(a.partial);
  partial[v] = op.sum(partial[v], total);
  return 0;
}

// Sum of gather() over entries [lo, hi) of v's list, loaded from `start`, in
// every lane.
template <Access A, typename V, typename Op>
__device__ inline typename Op::acc_t gather_walk(const GatherArgs<V>& a, const Op& op, V v, int64_t lo, int64_t hi,
                                                 int64_t start, int lane, Tally& t) {
  constexpr bool kW = Op::needs_weights;
  typename Op::acc_t acc = op.zero();
  for (int64_t base = start; base < hi; base += kWarp) {
    int64_t k = base + lane;
    if (k >= lo && k < hi) {
      weight_t w = 1.0f;
      if constexpr (kW) w = a.csr.weights[k];
      acc = op.sum(acc, op.gather(a.csr.neighbors[k], v, w));
    }
  }
  if (lane == 0 && hi > lo) {
    t.edges += hi - lo;
    if constexpr (kOverLink<A>) {
      // one warp load per line group: count them the way push_walk does
      for (int64_t base = start; base < hi; base += kWarp) {
        int64_t first = base > lo ? base : lo;
        int64_t last = (base + kWarp < hi ? base + kWarp : hi) - 1;
        count_link(t, a.csr.neighbors, first, last);
        if constexpr (kW) count_link(t, a.csr.weights, first, last);
      }
    }
    if constexpr (A == Access::kUvm) {
      mark_pages(t, a.uvm_pages, 0, a.csr.neighbors, lo, hi - 1);
      if constexpr (kW) mark_pages(t, a.uvm_pages, a.uvm_weight_page0, a.csr.weights, lo, hi - 1);
    }
  }
  return warp_combine(op, acc);
}

template <Access A, typename V, typename Op>
__global__ void __launch_bounds__(kBlock) gather_warp_kernel(GatherArgs<V> a, Op op) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  Tally t;
  double residual = 0;
  for (uint64_t i = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; i < a.n; i += warps) {
    V v = static_cast<V>(a.first + i);
    int64_t b = static_cast<int64_t>(a.csr.offsets[v]), e = static_cast<int64_t>(a.csr.offsets[v + 1]);
    int64_t s = b < e ? walk_start<A, Op::needs_weights>(a.csr, b) : b;
    if (e - s > kChunkEntries) {
      if (lane == 0) a.big_queue[atomicAdd(&a.counters->big_count, 1ull)] = v;
      continue;
    }
    typename Op::acc_t total = gather_walk<A>(a, op, v, b, e, s, lane, t);
    if (lane == 0) residual += finish_gather(a, op, v, total);
  }
  add_residual(a.residual, residual);
  flush(t, a.counters);
}

// One warp per chunk of a long in-list: partial sums, combined below.
template <Access A, typename V, typename Op>
__global__ void __launch_bounds__(kBlock) gather_chunk_kernel(GatherArgs<V> a, Op op, const unsigned long long* prefix,
                                                              uint64_t count, typename Op::acc_t* partial) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  const unsigned long long total = prefix[count];
  Tally t;
  for (uint64_t c = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; c < total; c += warps) {
    uint64_t i = owner_of(prefix, count, c);
    V v = a.big_queue[i];
    int64_t b = static_cast<int64_t>(a.csr.offsets[v]), e = static_cast<int64_t>(a.csr.offsets[v + 1]);
    int64_t s = walk_start<A, Op::needs_weights>(a.csr, b) + static_cast<int64_t>(c - prefix[i]) * kChunkEntries;
    int64_t hi = s + kChunkEntries < e ? s + kChunkEntries : e;
    typename Op::acc_t sum = gather_walk<A>(a, op, v, s > b ? s : b, hi, s, lane, t);
    if (lane == 0) partial[c] = sum;
  }
  flush(t, a.counters);
}

// A thread per long list: combines its chunks in order and applies.
template <typename V, typename Op>
__global__ void gather_combine_kernel(GatherArgs<V> a, Op op, const unsigned long long* prefix, uint64_t count,
                                      const typename Op::acc_t* partial) {
  uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  double residual = 0;
  if (i < count) {
    typename Op::acc_t acc = op.zero();
    for (unsigned long long c = prefix[i]; c < prefix[i + 1]; ++c) acc = op.sum(acc, partial[c]);
    residual = finish_gather(a, op, a.big_queue[i], acc);
  }
  add_residual(a.residual, residual);
}

// Naive gather: a thread per vertex.
template <typename V, typename Op>
__global__ void __launch_bounds__(kBlock) gather_naive_kernel(GatherArgs<V> a, Op op) {
  constexpr bool kW = Op::needs_weights;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  Tally t;
  double residual = 0;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u); base < a.n;
       base += stride) {
    uint64_t i = base + (threadIdx.x & 31);
    if (i < a.n) {
      V v = static_cast<V>(a.first + i);
      int64_t b = static_cast<int64_t>(a.csr.offsets[v]), e = static_cast<int64_t>(a.csr.offsets[v + 1]);
      typename Op::acc_t acc = op.zero();
      for (int64_t k = b; k < e; ++k) {
        weight_t w = 1.0f;
        if constexpr (kW) w = a.csr.weights[k];
        acc = op.sum(acc, op.gather(a.csr.neighbors[k], v, w));
      }
      if (e > b) {
        t.edges += e - b;
        count_link(t, a.csr.neighbors, b, e - 1);
        if constexpr (kW) count_link(t, a.csr.weights, b, e - 1);
      }
      residual += finish_gather(a, op, v, acc);
    }
  }
  t.requests = t.sectors;
  add_residual(a.residual, residual);
  flush(t, a.counters);
}

template <Access A, typename V, typename Op>
StepCounters run_gather(const GatherArgs<V>& a, const Op& op, double* residual_out) {
  StepCounters c{};
  if (a.n > 0) {
    if constexpr (A == Access::kNaive) {
      gather_naive_kernel<V, Op><<<grid_for(a.n, kBlock, a.sms), kBlock>>>(a, op);
      TG_CUDA_LAUNCH(gather_naive_kernel);
    } else {
      gather_warp_kernel<A, V, Op><<<grid_for(a.n, kWarpsPerBlock, a.sms), kBlock>>>(a, op);
      TG_CUDA_LAUNCH(gather_warp_kernel);
    }
  }
  TG_CUDA(cudaMemcpy(&c, a.counters, sizeof c, cudaMemcpyDeviceToHost));
  if constexpr (A != Access::kNaive) {
    if (c.big_count > 0) {
      using acc_t = typename Op::acc_t;
      uint64_t nb = c.big_count;
      auto chunks = a.pool->template get_n<unsigned long long>(nb + 1);
      auto prefix = a.pool->template get_n<unsigned long long>(nb + 1);
      auto* chunks_p = static_cast<unsigned long long*>(chunks.get());
      auto* prefix_p = static_cast<unsigned long long*>(prefix.get());
      chunk_count_kernel<A, Op::needs_weights, V><<<div_up(nb + 1, kBlock), kBlock>>>(a.csr, a.big_queue, nb, chunks_p);
      TG_CUDA_LAUNCH(chunk_count_kernel);
      run_cub(*a.pool, [&](void* tmp, size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, chunks_p, prefix_p, nb + 1);
      });
      unsigned long long total = 0;
      TG_CUDA(cudaMemcpy(&total, prefix_p + nb, sizeof total, cudaMemcpyDeviceToHost));
      auto partial = a.pool->template get_n<acc_t>(total);
      auto* partial_p = static_cast<acc_t*>(partial.get());
      gather_chunk_kernel<A, V, Op><<<grid_for(total, kWarpsPerBlock, a.sms), kBlock>>>(a, op, prefix_p, nb, partial_p);
      TG_CUDA_LAUNCH(gather_chunk_kernel);
      gather_combine_kernel<V, Op><<<div_up(nb, kBlock), kBlock>>>(a, op, prefix_p, nb, partial_p);
      TG_CUDA_LAUNCH(gather_combine_kernel);
      TG_CUDA(cudaMemcpy(&c, a.counters, sizeof c, cudaMemcpyDeviceToHost));
    }
  }
  TG_CUDA(cudaMemcpy(residual_out, a.residual, sizeof(double), cudaMemcpyDeviceToHost));
  return c;
}

}  // namespace kernels

template <Access A, typename V, typename Op>
StepCounters push_step(const PushArgs<V>& args, const Op& op) {
  return kernels::run_push<A>(args, op);
}
template <Access A, typename V, typename Op>
StepCounters pull_step(const PullArgs<V>& args, const Op& op) {
  return kernels::run_pull<A>(args, op);
}
template <Access A, typename V, typename Op>
StepCounters gather_step(const GatherArgs<V>& args, const Op& op, double* residual) {
  return kernels::run_gather<A>(args, op, residual);
}

}  // namespace tg::gpu

// Explicit instantiations for one access pattern, used by placement_*.cu.
#define TG_GPU_INSTANTIATE_EDGE_OP(V, OP)                                                            \
  template ::tg::gpu::StepCounters tg::gpu::push_step<TG_GPU_ACCESS, V, OP>(                         \
      const ::tg::gpu::PushArgs<V>&, const OP&);                                                     \
  template ::tg::gpu::StepCounters tg::gpu::pull_step<TG_GPU_ACCESS, V, OP>(const ::tg::gpu::PullArgs<V>&, \
                                                                           const OP&);
#define TG_GPU_INSTANTIATE_GATHER_OP(V, OP)                                                                      \
  template ::tg::gpu::StepCounters tg::gpu::gather_step<TG_GPU_ACCESS, V, OP>(const ::tg::gpu::GatherArgs<V>&, \
                                                                             const OP&, double*);
#define TG_GPU_INSTANTIATE_PLACEMENT()                               \
  TG_FOR_EACH_EDGE_OPERATOR(TG_GPU_INSTANTIATE_EDGE_OP, uint32_t)    \
  TG_FOR_EACH_EDGE_OPERATOR(TG_GPU_INSTANTIATE_EDGE_OP, uint64_t)    \
  TG_FOR_EACH_GATHER_OPERATOR(TG_GPU_INSTANTIATE_GATHER_OP, uint32_t) \
  TG_FOR_EACH_GATHER_OPERATOR(TG_GPU_INSTANTIATE_GATHER_OP, uint64_t)
