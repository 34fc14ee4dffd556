// Gather over every in-edge (Garaph's gather/sum/apply, for PageRank): a
// warp sums gather() over a vertex's in-list and applies the total, or adds
// it to a partial sum when the in-edges arrive in streamed partitions. Long
// lists are summed a chunk per warp and combined in order. Compiled by the
// access_*.cu files only.
#pragma once

#include <cooperative_groups.h>

#include <string>
#include <type_traits>
#include <utility>

#include "core/env_count.h"
#include "core/error.h"
#include "engines/engine.h"
#include "engines/gpu/kernels/edge_walk.cuh"
#include "engines/gpu/side_stream.h"
#include "engines/gpu/staged_values.h"

namespace tg::gpu {
namespace kernels {

// Warp-widths of entries a lane loads before their values in the staged
// passes: one block an SM leaves half the threads of the plain passes, so
// each keeps more reads in flight (the probe: 1.24x with 4, none with 1).
constexpr int kStagedUnroll = 4;

template <typename Op, typename T>
__device__ inline T warp_combine(const Op& op, T x) {
  for (int o = 16; o > 0; o >>= 1) x = op.sum(x, __shfl_xor_sync(kFull, x, o));
  return x;
}

// A value read once in a pass (an id, an offset, a partial sum), loaded and
// stored evict-first (ld.global.cs / st.global.cs) so that the stream of them
// leaves the L2 to the values gathered at random (a source block's, sized to
// the L2: source_blocks.h). ncu on kron:25 in 3 blocks (docs/PERF.md, session
// 14): 24 GB of DRAM an iteration where ids, offsets and partials are 6.6,
// the rest the gathered values missing the L2; evict-first took 1.1% off.
template <typename T>
__device__ inline T load_once(const T* p) {
  if constexpr (sizeof(T) == 8) {
    const unsigned long long x = __ldcs(reinterpret_cast<const unsigned long long*>(p));
    return *reinterpret_cast<const T*>(&x);
  } else {
    static_assert(sizeof(T) == 4);
    const unsigned x = __ldcs(reinterpret_cast<const unsigned*>(p));
    return *reinterpret_cast<const T*>(&x);
  }
}

template <typename T>
__device__ inline void store_once(T* p, T value) {
  if constexpr (sizeof(T) == 8) {
    __stcs(reinterpret_cast<unsigned long long*>(p), *reinterpret_cast<const unsigned long long*>(&value));
  } else {
    static_assert(sizeof(T) == 4);
    __stcs(reinterpret_cast<unsigned*>(p), *reinterpret_cast<const unsigned*>(&value));
  }
}

// id_at, evict-first in GPU memory (the only place the gather reads its ids
// from directly).
template <Access A, typename V>
__device__ inline V gather_id(const CsrView<V>& csr, const ListRead<V>& list, int64_t k) {
  if constexpr (A == Access::kDevice) return load_once(csr.neighbors + k);
  else return id_at<A>(csr, list, k);
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
  store_once(partial + v, op.sum(load_once(partial + v), total));
  return 0;
}

// Sum of gather() over entries [lo, hi) of v's list, loaded from `start`, in
// every lane; kUnroll warp-widths of ids loaded before their values, so that
// a lane has that many values in flight (the staged passes: kStagedUnroll).
template <Access A, int kUnroll = 1, typename V, typename Op>
__device__ inline typename Op::acc_t gather_walk(const GatherArgs<V>& a, const Op& op, V v, int64_t lo, int64_t hi,
                                                 int64_t start, const ListRead<V>& list, int lane, Tally& t) {
  constexpr bool kW = Op::needs_weights;
  typename Op::acc_t acc = op.zero();
  for (int64_t base = start; base < hi; base += kWarp * kUnroll) {
    V ids[kUnroll];
    weight_t ws[kUnroll];
    bool in[kUnroll];
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) {
      const int64_t k = base + j * kWarp + lane;
      in[j] = k >= lo && k < hi;
      ids[j] = in[j] ? gather_id<A>(a.csr, list, k) : V{0};
      ws[j] = 1.0f;
      if constexpr (kW) ws[j] = in[j] ? weight_at<A>(a.csr, list, k) : 1.0f;
    }
#pragma unroll
    for (int j = 0; j < kUnroll; ++j)
      if (in[j]) acc = op.sum(acc, op.gather(ids[j], v, ws[j]));
  }
  if (lane == 0 && hi > lo) {
    t.edges += hi - lo;
    if constexpr (kOverLink<A>) {
      // one warp load per line group: count them the way push_walk does
      for (int64_t base = start; base < hi; base += kWarp)
        count_read<A, kW>(t, a.csr, list, base > lo ? base : lo, (base + kWarp < hi ? base + kWarp : hi) - 1);
    }
    if constexpr (A == Access::kUvm) {
      mark_pages(t, a.uvm_pages, 0, a.csr.neighbors, lo, hi - 1);
      if constexpr (kW) mark_pages(t, a.uvm_pages, a.uvm_weight_page0, a.csr.weights, lo, hi - 1);
    }
  }
  return warp_combine(op, acc);
}

// v's list [b, e) by the whole warp: past kChunkEntries deferred to the
// chunked pass, else summed and finished; returns what it adds to lane 0's
// residual (0 in the other lanes).
template <Access A, int kUnroll = 1, typename V, typename Op>
__device__ inline double gather_list_by_warp(const GatherArgs<V>& a, const Op& op, V v, int64_t b, int64_t e, int lane,
                                             Tally& t) {
  const int64_t s = b < e ? walk_start<A, Op::needs_weights>(a.csr, b) : b;
  if (e - s > kChunkEntries) {
    if (!a.queues_kept) defer_to_chunks(a, v, lane);
    return 0;
  }
  const typename Op::acc_t total = gather_walk<A, kUnroll>(a, op, v, b, e, s, list_read<A>(a.csr, v, b, e), lane, t);
  return lane == 0 ? finish_gather(a, op, v, total) : 0;
}

template <Access A, typename V, typename Op>
__global__ void __launch_bounds__(kBlock) gather_warp_kernel(GatherArgs<V> a, Op op) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  Tally t;
  double residual = 0;
  for (uint64_t i = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; i < a.n; i += warps) {
    V v = a.vertices ? a.vertices[i] : static_cast<V>(a.first + i);
    residual += gather_list_by_warp<A>(a, op, v, static_cast<int64_t>(a.csr.offsets[v]),
                                       static_cast<int64_t>(a.csr.offsets[v + 1]), lane, t);
  }
  add_residual(a.residual, residual);
  flush(t, a.counters);
}

// GPU memory, the lists the thread pass queued (longer than kThreadEntries):
// kGroupLanes lanes a list of at most kGroupEntries entries, four lists a
// warp at once, then the whole warp for each longer list of the four, as
// gather_warp_kernel does. A warp a list is latency-bound on a short list
// (its offsets, ids and values are three dependent loads) and leaves most of
// its lanes idle: kron:24 queues 2.0 M lists of 9-32 entries beside 1.3 M
// longer ones.
constexpr int kGroupLanes = 8;
constexpr int64_t kGroupEntries = 32;

template <int kUnroll, typename V, typename Op>
__device__ inline void gather_group_pass(const GatherArgs<V>& a, const Op& op) {
  constexpr int kGroups = kWarp / kGroupLanes;
  constexpr bool kW = Op::needs_weights;
  using acc_t = typename Op::acc_t;
  const int lane = threadIdx.x & 31, in_group = lane % kGroupLanes;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  Tally t;
  double residual = 0;
  for (uint64_t first = ((static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5) * kGroups; first < a.n;
       first += warps * kGroups) {
    const uint64_t i = first + lane / kGroupLanes;
    const bool has = i < a.n;
    const V v = has ? a.vertices[i] : V{0};
    const int64_t b = has ? static_cast<int64_t>(a.csr.offsets[v]) : 0;
    const int64_t e = has ? static_cast<int64_t>(a.csr.offsets[v + 1]) : 0;
    const bool short_list = has && e - b <= kGroupEntries;
    acc_t acc = op.zero();
    if (short_list) {
      const ListRead<V> list = list_read<Access::kDevice>(a.csr, v, b, e);
      if constexpr (kUnroll > 1) {  // a lane's entries (at most kPerLane): the ids first, then their values
        constexpr int kPerLane = kGroupEntries / kGroupLanes;
        V ids[kPerLane];
        weight_t ws[kPerLane];
#pragma unroll
        for (int j = 0; j < kPerLane; ++j) {
          const int64_t k = b + in_group + j * kGroupLanes;
          ids[j] = k < e ? gather_id<Access::kDevice>(a.csr, list, k) : V{0};
          ws[j] = 1.0f;
          if constexpr (kW) ws[j] = k < e ? weight_at<Access::kDevice>(a.csr, list, k) : 1.0f;
        }
#pragma unroll
        for (int j = 0; j < kPerLane; ++j)
          if (b + in_group + j * kGroupLanes < e) acc = op.sum(acc, op.gather(ids[j], v, ws[j]));
      } else {
        for (int64_t k = b + in_group; k < e; k += kGroupLanes) {
          weight_t w = 1.0f;
          if constexpr (kW) w = weight_at<Access::kDevice>(a.csr, list, k);
          acc = op.sum(acc, op.gather(gather_id<Access::kDevice>(a.csr, list, k), v, w));
        }
      }
    }
    for (int o = kGroupLanes / 2; o > 0; o >>= 1) acc = op.sum(acc, __shfl_xor_sync(kFull, acc, o));
    if (short_list && in_group == 0) {
      t.edges += e - b;
      residual += finish_gather(a, op, v, acc);
    }
    // The longer lists of the four, the whole warp each, in turn (the mask is the same in every lane).
    for_each_flagged_list(__ballot_sync(kFull, has && !short_list && in_group == 0), v, b, e,
                          [&](V u, int64_t ub, int64_t ue) {
                            residual += gather_list_by_warp<Access::kDevice, kUnroll>(a, op, u, ub, ue, lane, t);
                          });
  }
  add_residual(a.residual, residual);
  flush(t, a.counters);
}

template <typename V, typename Op>
__global__ void __launch_bounds__(kBlock) gather_group_kernel(GatherArgs<V> a, Op op) {
  gather_group_pass<1>(a, op);
}

// The thread pass's loop (gather_thread_kernel below, and packed_thread_kernel
// over packed lists): a thread per vertex first .. first + n - 1, whose
// sum_short(v, acc) sums a list of at most kThreadEntries entries into acc
// and returns its length, or -1 for a longer list, which is queued (warp-
// aggregated) for a warp each. In a blocked pass (a.partial) an empty list
// adds nothing.
template <typename V, typename Op, typename SumShort>
__device__ inline void thread_pass(const GatherArgs<V>& a, const Op& op, SumShort&& sum_short) {
  const int lane = threadIdx.x & 31;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  Tally t;
  double residual = 0;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u); base < a.n;
       base += stride) {
    const uint64_t i = base + lane;
    V v = 0;
    bool queue = false;
    if (i < a.n) {
      v = static_cast<V>(a.first + i);
      typename Op::acc_t acc = op.zero();
      const int64_t entries = sum_short(v, acc);
      queue = entries < 0;
      if (entries > 0 || (entries == 0 && a.partial == nullptr)) {
        t.edges += entries;
        residual += finish_gather(a, op, v, acc);
      }
    }
    if (!a.queues_kept) warp_append(queue, v, a.warp_queue, &a.counters->warp_count, lane);
  }
  add_residual(a.residual, residual);
  flush(t, a.counters);
}

// GPU memory: a thread per list of at most kThreadEntries entries, summed in
// order; the longer lists queued for gather_warp_kernel. A thread loads all
// its list's ids, then their values (each list's loads in flight together).
// Against one entry after another (an id, then its value): under 1% faster
// on kron:25 (docs/PERF.md, session 14).
template <typename V, typename Op>
__global__ void __launch_bounds__(kBlock) gather_thread_kernel(GatherArgs<V> a, Op op) {
  constexpr bool kW = Op::needs_weights;
  thread_pass(a, op, [&](V v, typename Op::acc_t& acc) -> int64_t {
    const int64_t b = static_cast<int64_t>(load_once(a.csr.offsets + v));
    const int64_t e = static_cast<int64_t>(load_once(a.csr.offsets + v + 1));
    if (e - b > kThreadEntries) return -1;
    const int count = static_cast<int>(e - b);
    V ids[kThreadEntries];
    weight_t ws[kThreadEntries];
#pragma unroll
    for (int j = 0; j < kThreadEntries; ++j) {
      ids[j] = j < count ? load_once(a.csr.neighbors + b + j) : V{0};
      ws[j] = 1.0f;
      if constexpr (kW) ws[j] = j < count ? a.csr.weights[b + j] : 1.0f;
    }
#pragma unroll
    for (int j = 0; j < kThreadEntries; ++j)
      if (j < count) acc = op.sum(acc, op.gather(ids[j], v, ws[j]));
    return e - b;
  });
}

// One warp per chunk of a long in-list: partial sums, combined below.
template <Access A, int kUnroll, typename V, typename Op>
__device__ inline void gather_chunk_pass(const GatherArgs<V>& a, const Op& op, const unsigned long long* prefix,
                                         uint64_t count, typename Op::acc_t* partial) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  const unsigned long long total = prefix[count];
  Tally t;
  for (uint64_t c = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; c < total; c += warps) {
    const Chunk<V> k = chunk_at<A, Op::needs_weights>(a.csr, a.big_queue, prefix, count, c);
    typename Op::acc_t sum = gather_walk<A, kUnroll>(a, op, k.v, k.lo, k.hi, k.start, k.list, lane, t);
    if (lane == 0) partial[c] = sum;
  }
  flush(t, a.counters);
}

template <Access A, typename V, typename Op>
__global__ void __launch_bounds__(kBlock) gather_chunk_kernel(GatherArgs<V> a, Op op, const unsigned long long* prefix,
                                                              uint64_t count, typename Op::acc_t* partial) {
  gather_chunk_pass<A, 1>(a, op, prefix, count, partial);
}

// ---- The passes with the first sources' values staged (staged_values.h) ----
// A cluster of kStagedCluster blocks, one an SM, each holding
// a.staged_per_block of the values of sources 0 .. kStagedCluster x
// a.staged_per_block - 1 in its shared memory: on a graph numbered hubs
// first, the values most read. Its warps read those from their own block's
// shared memory or the partner's (distributed shared memory), the rest from
// global memory, so fewer reads queue at the L2.

// The operator with gather() reading staged values where it can.
template <typename Op, typename V>
struct StagedValuesOp : Op {
  using value_t = std::remove_cv_t<std::remove_pointer_t<decltype(std::declval<const Op&>().source_values())>>;
  value_t* staged;  // this block's share
  uint32_t per;     // values a block
  __device__ typename Op::acc_t gather(V u, V v, weight_t w) const {
    const bool near = static_cast<uint64_t>(u) < static_cast<uint64_t>(per) * kStagedCluster;
    // One load from either memory (a generic address), not a branch between two loads.
    const value_t* p =
        near ? cooperative_groups::this_cluster().map_shared_rank(staged + static_cast<uint32_t>(u) % per,
                                                                  static_cast<uint32_t>(u) / per)
             : this->source_values() + u;
    return this->from_value(*p, v, w);
  }
};

// Each block copies its share, then waits for the cluster's.
template <typename V, typename Op>
__device__ inline StagedValuesOp<Op, V> stage_values(const GatherArgs<V>& a, const Op& op) {
  using value_t = typename StagedValuesOp<Op, V>::value_t;
  extern __shared__ __align__(16) unsigned char staged_bytes[];
  value_t* staged = reinterpret_cast<value_t*>(staged_bytes);
  const uint32_t per = a.staged_per_block;
  const uint64_t first = static_cast<uint64_t>(cooperative_groups::this_cluster().block_rank()) * per;
  for (uint32_t j = threadIdx.x; j < per; j += blockDim.x) staged[j] = op.source_values()[first + j];
  cooperative_groups::this_cluster().sync();
  return {op, staged, per};
}

template <Access A, typename V, typename Op>
__global__ void __launch_bounds__(kStagedBlock) gather_chunk_staged_kernel(GatherArgs<V> a, Op op,
                                                                           const unsigned long long* prefix,
                                                                           uint64_t count, typename Op::acc_t* partial) {
  gather_chunk_pass<A, kStagedUnroll>(a, stage_values(a, op), prefix, count, partial);
  cooperative_groups::this_cluster().sync();  // no block leaves while its partner may read its values
}

template <typename V, typename Op>
__global__ void __launch_bounds__(kStagedBlock) gather_group_staged_kernel(GatherArgs<V> a, Op op) {
  gather_group_pass<kStagedUnroll>(a, stage_values(a, op));
  cooperative_groups::this_cluster().sync();
}

// Starts a staged kernel: clusters of kStagedCluster blocks, as many as fit
// at once (one block an SM), each block with `smem` bytes of values.
template <typename... Params, typename... Args>
void launch_staged(void (*kernel)(Params...), size_t smem, Args&&... args) {
  TG_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = kStagedCluster;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(kStagedCluster);
  config.blockDim = dim3(kStagedBlock);
  config.dynamicSmemBytes = smem;
  config.attrs = &cluster;
  config.numAttrs = 1;
  int clusters = 0;
  TG_CUDA(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
  if (clusters < 1)
    throw Error("GPU gather: no cluster of " + std::to_string(kStagedCluster) + " blocks with " +
                std::to_string(smem >> 10) + " KiB of shared memory each fits this GPU (TG_STAGED_VALUES=0: none)");
  config.gridDim = dim3(static_cast<unsigned>(clusters) * kStagedCluster);
  TG_CUDA(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
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

// The chunked pass over the nb long lists a warp pass deferred to
// a.big_queue, chunked as `plan` says: `launch(blocks, prefix, partial)`
// starts the kernel that sums each chunk into partial[chunk]; each list's
// chunks are then combined in order and applied.
template <typename V, typename Op, typename Launch>
void chunked_gather(const GatherArgs<V>& a, const Op& op, uint64_t nb, const ChunkPlan& plan, Launch&& launch) {
  using acc_t = typename Op::acc_t;
  auto partial = a.pool->template get_n<acc_t>(plan.total);
  auto* partial_p = static_cast<acc_t*>(partial.get());
  launch(grid_for(plan.total, kWarpsPerBlock, a.sms), plan.starts(), partial_p);
  TG_CUDA_CHECK_LAUNCH();
  gather_combine_kernel<V, Op><<<div_up(nb, kBlock), kBlock>>>(a, op, plan.starts(), nb, partial_p);
  TG_CUDA_CHECK_LAUNCH();
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
      const ListRead<V> list = list_read<Access::kNaive>(a.csr, v, b, e);
      typename Op::acc_t acc = op.zero();
      for (int64_t k = b; k < e; ++k) {
        weight_t w = 1.0f;
        if constexpr (kW) w = weight_at<Access::kNaive>(a.csr, list, k);
        acc = op.sum(acc, op.gather(id_at<Access::kNaive>(a.csr, list, k), v, w));
      }
      if (e > b) {
        t.edges += e - b;
        count_read<Access::kNaive, kW>(t, a.csr, list, b, e - 1);
      }
      residual += finish_gather(a, op, v, acc);
    }
  }
  t.requests = t.sectors;
  add_residual(a.residual, residual);
  flush(t, a.counters);
}


}  // namespace kernels

// TG_GATHER_GROUPS=0: the queued lists a warp each, as before the groups (for
// comparison runs).
inline bool group_lists_off() {
  static const bool off = env_count("TG_GATHER_GROUPS", 1) == 0;
  return off;
}

template <Access A, typename V, typename Op>
StepCounters gather_step(const GatherArgs<V>& args, const Op& op, double* residual_out) {
  using namespace kernels;
  StepCounters c;
  GatherArgs<V> a = args;
  // An operator whose values the passes may stage (GatherArgs::staged_per_block).
  constexpr bool kMayStage = A == Access::kDevice && GathersSourceValues<Op, V>;
  size_t staged_bytes = 0;
  if constexpr (kMayStage) staged_bytes = size_t{a.staged_per_block} * sizeof(*op.source_values());
  if constexpr (A == Access::kNaive) {
    c = first_pass(a.n, kBlock, a.sms, a.counters,
                   [&](unsigned blocks) { gather_naive_kernel<V, Op><<<blocks, kBlock>>>(a, op); });
  } else {
    // A gather over every vertex of a range in GPU memory may keep its queues
    // for the next over the same range, or find the last one's (GatherQueues).
    const bool keeps = A == Access::kDevice && a.queues != nullptr && a.warp_queue != nullptr && a.vertices == nullptr;
    GatherQueues* kept = keeps && a.queues->hold(a.csr.offsets, a.first, a.n) ? a.queues : nullptr;
    a.queues_kept = kept != nullptr;
    const bool beside = kept != nullptr && a.beside != nullptr;
    // A pass; its counters read back only where it fills a queue.
    auto pass = [&](uint64_t items, uint64_t per_block, auto&& launch) {
      if (!kept) return first_pass(items, per_block, a.sms, a.counters, launch);
      if (items > 0) {
        launch(grid_for(items, per_block, a.sms));
        TG_CUDA_CHECK_LAUNCH();
      }
      return StepCounters{};
    };
    // The warp pass: every list, or in GPU memory those the thread pass queued.
    GatherArgs<V> w = a;
    if constexpr (A == Access::kDevice) {
      if (a.warp_queue != nullptr) {
        if (beside) a.beside->wait_for(nullptr);  // its thread pass, launched below, follows the steps before
        else c = pass(a.n, kBlock, [&](unsigned blocks) { gather_thread_kernel<V, Op><<<blocks, kBlock>>>(a, op); });
        w.vertices = a.warp_queue;
        w.n = kept ? kept->warp_count : c.warp_count;
      }
    }
    bool grouped = false;
    if constexpr (A == Access::kDevice) {
      if (w.vertices != nullptr && !group_lists_off()) {
        c = pass(div_up(w.n, kWarp / kGroupLanes), kWarpsPerBlock, [&](unsigned blocks) {
          if constexpr (kMayStage)
            if (staged_bytes > 0) return launch_staged(gather_group_staged_kernel<V, Op>, staged_bytes, w, op);
          gather_group_kernel<V, Op><<<blocks, kBlock>>>(w, op);
        });
        grouped = true;
      }
    }
    if (!grouped)
      c = pass(w.n, kWarpsPerBlock,
               [&](unsigned blocks) { gather_warp_kernel<A, V, Op><<<blocks, kBlock>>>(w, op); });
    if (beside) {  // after the warp pass, whose clusters then find their SMs free
      gather_thread_kernel<V, Op><<<grid_for(a.n, kBlock, a.sms), kBlock, 0, a.beside->get()>>>(a, op);
      TG_CUDA_CHECK_LAUNCH();
    }
    const uint64_t nb = kept ? kept->big_count : c.big_count;
    ChunkPlan plan;
    if (nb > 0) {
      plan = kept ? kept->chunks : plan_chunks<A, Op::needs_weights>(a.csr, a.big_queue, nb, *a.pool);
      chunked_gather(a, op, nb, plan, [&](unsigned blocks, const unsigned long long* prefix,
                                          typename Op::acc_t* partial) {
        if constexpr (kMayStage)
          if (staged_bytes > 0)
            return launch_staged(gather_chunk_staged_kernel<A, V, Op>, staged_bytes, a, op, prefix, nb, partial);
        gather_chunk_kernel<A, V, Op><<<blocks, kBlock>>>(a, op, prefix, nb, partial);
      });
    }
    if (beside) a.beside->release_to(nullptr);
    if (nb > 0 || kept) c = read_counters(a.counters);
    if (keeps && !kept) *a.queues = GatherQueues{true, a.csr.offsets, a.first, a.n, w.n, nb, plan};
  }
  TG_CUDA(cudaMemcpy(residual_out, a.residual, sizeof(double), cudaMemcpyDeviceToHost));
  return c;
}

}  // namespace tg::gpu
