#include "distributed/gpu/bfs_kernels.cuh"

#include <cooperative_groups.h>

#include <algorithm>
#include <cstddef>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "distributed/gpu/push_kernels.cuh"

namespace tg::dist::gpu {
namespace {

using tg::gpu::kBlock;

namespace cg = cooperative_groups;

__device__ void visit_local(const BfsLevel& s, uint32_t l) {
  if (s.normal_depth[l] != kNoDepth) return;
  if (atomicCAS(&s.normal_depth[l], kNoDepth, s.level + 1) == kNoDepth)
    s.next_normals[queue_slot(cg::coalesced_threads(), &s.counters[0])] = l;
}

// Plain byte stores: every writer writes 1.
__device__ void reach_delegate(const BfsLevel& s, uint32_t k) {
  if (s.delegate_depth[k] == kNoDepth) s.reached[k] = 1;
}

// An nn destination: visited here if owned here, else queued once per run
// for its owner (Section V-B: "normal vertices ... sent to their owners").
__device__ void visit_normal(const BfsLevel& s, uint64_t v) {
  const RankOf at = rank_of(s.g, v);
  const int owner = static_cast<int>(at.owner);
  const auto slot = static_cast<uint32_t>(at.slot);
  if (owner == s.g.rank) {
    visit_local(s, s.g.local_of_slot[slot]);
    return;
  }
  const uint32_t bit = 1u << (slot % 32);
  uint32_t* word = &s.sent_bits[at.owner * s.sent_words + slot / 32];
  if (*word & bit) return;
  if (atomicOr(word, bit) & bit) return;
  const uint32_t i = queue_slot(cg::labeled_partition(cg::coalesced_threads(), owner), &s.send_count[owner]);
  s.send[s.send_start[owner] + i] = slot;
}

// Edge-balanced, as the delegates' expansion below. A thread per normal row
// (a normal vertex has at most TH edges) was tried on 2026-11-26: the level
// where millions of normals expand took 7.3 ms against 5.2 before, on one
// H100 at kron-26 (two loans of the machine, the one-GPU engine faster on the
// second; docs/PERF.md), so the binary search per edge stays.
__global__ void expand_normals(BfsLevel s, const uint32_t* rows, uint32_t count, const eid_t* scan) {
  expand_edges(
      rows, count, scan, s.g.nn, s.g.nd, [&](uint32_t, uint64_t v, eid_t) { visit_normal(s, v); },
      [&](uint32_t, uint32_t k, eid_t) { reach_delegate(s, k); });
}

__global__ void expand_delegates(BfsLevel s, const uint32_t* rows, uint32_t count, const eid_t* scan) {
  expand_edges(
      rows, count, scan, s.g.dn, s.g.dd, [&](uint32_t, uint32_t l, eid_t) { visit_local(s, l); },
      [&](uint32_t, uint32_t k, eid_t) { reach_delegate(s, k); });
}

// The delegate frontier of this level as bits (delegate_depth == level), a
// warp per 32 delegates: the bottom-up lookups below read a 1 MB bitmap
// (8.4 M delegates at kron-26) instead of the 4-byte depths (34 MB).
__global__ void mark_delegate_frontier(BfsLevel s) {
  const uint64_t words = (uint64_t{s.g.num_delegates} + 31) / 32;
  const uint64_t warps = (uint64_t{gridDim.x} * blockDim.x) / 32;
  for (uint64_t w = (blockIdx.x * uint64_t{blockDim.x} + threadIdx.x) / 32; w < words; w += warps) {
    const uint64_t k = w * 32 + (threadIdx.x & 31);
    const unsigned bits = __ballot_sync(0xffffffffu, k < s.g.num_delegates && s.delegate_depth[k] == s.level);
    if ((threadIdx.x & 31) == 0) s.frontier_bits[w] = bits;
  }
}

__device__ bool in_delegate_frontier(const BfsLevel& s, uint32_t k) { return (s.frontier_bits[k >> 5] >> (k & 31)) & 1u; }

// Every thread of the block calls it once a stride: the block's fresh items
// take their places in `queue` (length *count) by a block scan and one
// atomic. Queue slots taken a warp at a time (queue_slot) made a vertex pass
// cost one atomic on one counter per 32 vertices, which grew with the
// replicated delegates (settle_delegates below).
__device__ void append_by_block(bool fresh, uint32_t item, uint32_t* queue, uint32_t* count) {
  using Scan = cub::BlockScan<uint32_t, kBlock>;
  __shared__ typename Scan::TempStorage scratch;
  __shared__ uint32_t base;
  uint32_t at = 0, total = 0;
  Scan(scratch).ExclusiveSum(fresh ? 1u : 0u, at, total);
  if (threadIdx.x == 0 && total > 0) base = atomicAdd(count, total);
  __syncthreads();
  if (fresh) queue[base + at] = item;
  __syncthreads();  // base and the scan's storage serve the next stride
}

__device__ bool visited_on_its_owner(const BfsLevel& s, uint64_t u) {
  const RankOf at = rank_of(s.g, u);
  return (s.visited_normals[at.owner * s.visited_normal_words + at.slot / 32] >> (at.slot % 32)) & 1u;
}

// A thread per local normal, each the only one to look at its vertex here
// (the expansion before it has ended), so the depth is a plain store; the
// visited are queued a block at a time (append_by_block). The delegates
// first: nd rows lead with their hubs (partition.h), where most parents are.
__global__ void pull_normals(BfsLevel s) {
  for (uint64_t first = blockIdx.x * uint64_t{blockDim.x}; first < s.g.num_normals; first += uint64_t{gridDim.x} * blockDim.x) {
    const uint64_t v = first + threadIdx.x;
    bool fresh = false;
    if (v < s.g.num_normals && s.normal_depth[v] == kNoDepth) {
      if (!s.delegate_frontier_empty)
        for (eid_t e = s.g.nd.offsets[v]; e < s.g.nd.offsets[v + 1] && !fresh; ++e)
          fresh = in_delegate_frontier(s, s.g.nd.neighbors[e]);
      if (s.visited_normals != nullptr)
        for (eid_t e = s.g.nn.offsets[v]; e < s.g.nn.offsets[v + 1] && !fresh; ++e)
          fresh = visited_on_its_owner(s, s.g.nn.neighbors[e]);
      if (fresh) s.normal_depth[v] = s.level + 1;
    }
    append_by_block(fresh, static_cast<uint32_t>(v), s.next_normals, &s.counters[0]);
  }
}

// A thread per delegate, stopping at the first frontier neighbour. A warp
// per delegate (32 neighbours per step) was measured slower on kron-26: the
// BFS's second pull level took 7.0 ms instead of 5.0 (docs/PERF.md).
__global__ void pull_delegates(BfsLevel s) {
  for (uint64_t k = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; k < s.g.num_delegates; k += uint64_t{gridDim.x} * blockDim.x) {
    if (s.delegate_depth[k] != kNoDepth || s.reached[k]) continue;  // reached by the normals' nd edges already
    bool hit = false;
    if (!s.delegate_frontier_empty)
      for (eid_t e = s.g.dd.offsets[k]; e < s.g.dd.offsets[k + 1] && !hit; ++e) hit = in_delegate_frontier(s, s.g.dd.neighbors[e]);
    // The normal frontier's nd edges into k, as their reverses (local normals).
    if (s.visited_normals != nullptr)
      for (eid_t e = s.g.dn.offsets[k]; e < s.g.dn.offsets[k + 1] && !hit; ++e)
        hit = s.normal_depth[s.g.dn.neighbors[e]] == s.level;
    if (hit) s.reached[k] = 1;
  }
}

// A warp per 32 slots: local_of_slot and the depths are read in order (local
// ids ascend with slots).
__global__ void mark_visited_normals(BfsLevel s, uint64_t slots, uint32_t* segment) {
  const uint64_t words = (slots + 31) / 32;
  const uint64_t warps = (uint64_t{gridDim.x} * blockDim.x) / 32;
  for (uint64_t w = (blockIdx.x * uint64_t{blockDim.x} + threadIdx.x) / 32; w < words; w += warps) {
    const uint64_t slot = w * 32 + (threadIdx.x & 31);
    bool in = false;
    if (slot < slots) {
      const uint32_t l = s.g.local_of_slot[slot];
      in = l != kNoLocalId && s.normal_depth[l] != kNoDepth;
    }
    const unsigned bits = __ballot_sync(0xffffffffu, in);
    if ((threadIdx.x & 31) == 0) segment[w] = bits;
  }
}

// The queue's edges estimated from its first kAnnounceSample entries (the
// queue's order is the visits', no order of degree) and scaled to the whole:
// reading every entry's offsets, four random reads a vertex, took 0.3-0.5 ms
// at the levels that visit millions (kron:27 on 2 H100). The estimate only
// chooses a direction. One block, its loads unrolled: one operation where a
// memset, a kernel and a scaling kernel were three.
constexpr int kAnnounceBlock = 1024;

__global__ void __launch_bounds__(kAnnounceBlock) announce_normals(BfsLevel s, NormalFrontierSize* out) {
  using Reduce = cub::BlockReduce<unsigned long long, kAnnounceBlock>;
  __shared__ typename Reduce::TempStorage scratch;
  const uint32_t count = s.counters[0], sample = min(count, kAnnounceSample);
  unsigned long long edges = 0;
#pragma unroll
  for (uint32_t j = 0; j < kAnnounceSample / kAnnounceBlock; ++j) {
    const uint32_t i = j * kAnnounceBlock + threadIdx.x;
    if (i < sample) {
      const uint32_t l = s.next_normals[i];
      edges += normal_edges_here(s.g, l);
    }
  }
  const unsigned long long total = Reduce(scratch).Sum(edges);
  if (threadIdx.x == 0) {
    out->vertices = count;
    out->edges = count > kAnnounceSample ? total * count / kAnnounceSample : total;
  }
}

__global__ void visit_received(BfsLevel s, const uint32_t* slots, uint64_t count) {
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < count; i += uint64_t{gridDim.x} * blockDim.x)
    visit_local(s, s.g.local_of_slot[slots[i]]);
}

__global__ void visit_small_level(BfsLevel s, const uint32_t* slots, uint64_t fixed, const uint32_t* lengths,
                                  uint64_t stride, LevelTotals* totals) {
  const int p = s.g.num_ranks, rank = s.g.rank;
  const uint64_t entries = static_cast<uint64_t>(p - 1) * fixed;
  uint32_t visited = 0;
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < entries; i += uint64_t{gridDim.x} * blockDim.x) {
    const int j = static_cast<int>(i / fixed);
    const int q = j < rank ? j : j + 1;
    const uint32_t length = lengths[static_cast<uint64_t>(q) * stride + rank];
    if (i % fixed < length) {
      visit_local(s, s.g.local_of_slot[slots[i]]);
      ++visited;
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {  // every rank's lengths, so that every rank sees an overflow alike
    for (int q = 0; q < p; ++q) {
      for (int r = 0; r < p; ++r)
        if (q != r && lengths[static_cast<uint64_t>(q) * stride + r] > fixed) totals->small_overflow = 1;
      if (lengths[static_cast<uint64_t>(q) * stride + p] != 0) totals->small_any_reached = 1;
    }
  }
  using Reduce = cub::BlockReduce<uint32_t, kBlock>;
  __shared__ typename Reduce::TempStorage scratch;
  const uint32_t block = Reduce(scratch).Sum(visited);
  if (threadIdx.x == 0 && block > 0) atomicAdd(&totals->small_received, block);
}

__global__ void set_normals_flag(BfsLevel s, uint8_t* flag, uint32_t* bits, uint64_t bit) {
  const bool any = s.counters[0] > 0;
  *flag = any ? 1 : 0;
  if (bits != nullptr) {
    const uint32_t mask = 1u << (bit % 32);
    bits[bit / 32] = (bits[bit / 32] & ~mask) | (any ? mask : 0u);
  }
}

// The sum of P announcements, `stride_words` apart from `first` on.
__device__ NormalFrontierSize sum_announced(const uint32_t* first, uint64_t stride_words, int p) {
  NormalFrontierSize total;
  for (int q = 0; q < p; ++q) {
    const auto* a = reinterpret_cast<const NormalFrontierSize*>(first + static_cast<uint64_t>(q) * stride_words);
    total.vertices += a->vertices;
    total.edges += a->edges;
  }
  return total;
}

__global__ void settle_quiet(const QuietAnnouncement* all, int p, NormalFrontierSize* sum, uint32_t* counters) {
  static_assert(offsetof(QuietAnnouncement, size) == 0);
  uint32_t has_normals = 0;
  for (int q = 0; q < p; ++q) has_normals |= all[q].has_normals;
  *sum = sum_announced(reinterpret_cast<const uint32_t*>(all), kQuietWords, p);
  counters[2] = has_normals;
}

// 32 flags of 0 or 1 (one 32-byte group of the byte mask) as the bits of a word.
__device__ inline uint32_t bits_of_bytes(uint32_t x) {  // 4 flags
  return (x & 1u) | ((x >> 7) & 2u) | ((x >> 14) & 4u) | ((x >> 21) & 8u);
}
__device__ inline uint32_t bits_of_group(const uint8_t* group32) {
  const uint4* g = reinterpret_cast<const uint4*>(group32);
  const uint4 a = g[0], b = g[1];
  const uint32_t x[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
  uint32_t word = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) word |= bits_of_bytes(x[j]) << (4 * j);
  return word;
}

// A word of the mask (32 delegates) a thread to find the reached: OR-ed over
// the ranks' gathered bits, or read from the byte mask (one rank). Then each
// warp walks its 32 words, a lane a delegate, reading depths and edge counts
// of the reached only, in order; the new frontier is queued a block at a
// time and its dn and dd edges summed (next_delegate_edges) for the next
// level's direction.
// A thread per delegate, with a block scan and a block reduction every 256
// of them, took 0.29 ms at the large levels on 4 GPUs (kron:28, 22.9 M
// delegates on each rank) and 0.17 on 2 at a level reaching 5% of them: the
// work grew with the replicated delegates, not with those reached. A thread
// walking its own word's bits was 5-8x slower at the levels that reach most
// (its 32 reads of a line each a request of their own; docs/PERF.md).
__global__ void settle_delegates(BfsLevel s, GatheredReached gathered) {
  const uint32_t d = s.g.num_delegates;
  const uint64_t words = (uint64_t{d} + 1 + 31) / 32;  // the flag at d too
  if (gathered.bits != nullptr && !gathered.flag_in_mask) {
    uint32_t any = 0;
    for (int q = 0; q < gathered.p; ++q) any |= gathered.bits[static_cast<uint64_t>(q) * gathered.stride + gathered.any_at];
    if (any == 0) return;  // no rank reached a delegate
  }
  if (gathered.bits != nullptr && gathered.flag_in_mask && blockIdx.x == 0 && threadIdx.x == 0)
    *gathered.sum = sum_announced(gathered.bits + gathered.announce_at, gathered.stride, gathered.p);
  using Reduce = cub::BlockReduce<unsigned long long, kBlock>;
  using Scan = cub::BlockScan<uint32_t, kBlock>;
  __shared__ union {
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } scratch;
  __shared__ uint32_t base;
  const unsigned lane = threadIdx.x & 31;
  const uint64_t warp_first = threadIdx.x - lane;  // this warp's first word in the stride
  for (uint64_t first = blockIdx.x * uint64_t{blockDim.x}; first < words; first += uint64_t{gridDim.x} * blockDim.x) {
    const uint64_t mine = first + threadIdx.x;  // this thread's word
    uint32_t reached = 0;
    if (mine < words && gathered.bits == nullptr) {
      reached = bits_of_group(s.reached + mine * 32);
    } else if (mine < words) {
      for (int q = 0; q < gathered.p; ++q) reached |= gathered.bits[static_cast<uint64_t>(q) * gathered.stride + mine];
    }
    // Most stretches of a level hold none reached (counters[2] starts each
    // level at 0): one vote skips them. This rank's set bytes are bits of its
    // own segment, so none is skipped uncleared.
    if (!__syncthreads_or(reached != 0)) continue;
    if (reached != 0) {
      uint4* group = reinterpret_cast<uint4*>(s.reached + mine * 32);
      group[0] = group[1] = make_uint4(0, 0, 0, 0);
      if (mine == d / 32) {  // the flag: some rank has normals next
        if (gathered.flag_in_mask) s.counters[2] = (reached >> (d % 32)) & 1u;
        reached &= (1u << (d % 32)) - 1u;
      }
    }
    uint32_t fresh_here = 0;  // lane i: the fresh delegates of the warp's word i
    unsigned long long edges = 0;
    for (unsigned i = 0; i < 32; ++i) {
      const uint32_t word = __shfl_sync(0xffffffffu, reached, i);
      if (word == 0) continue;  // the whole warp alike
      const uint64_t k = (first + warp_first + i) * 32 + lane;
      bool fresh = false;
      if (((word >> lane) & 1u) && s.delegate_depth[k] == kNoDepth) {
        s.delegate_depth[k] = s.level + 1;
        fresh = true;
        edges += s.delegate_degree != nullptr
                     ? s.delegate_degree[k]
                     : delegate_edges_here(s.g, k);
      }
      const uint32_t fresh_word = __ballot_sync(0xffffffffu, fresh);
      if (lane == i) fresh_here = fresh_word;
    }
    const unsigned long long block_edges = Reduce(scratch.reduce).Sum(edges);
    if (threadIdx.x == 0 && block_edges > 0)
      atomicAdd(reinterpret_cast<unsigned long long*>(s.next_delegate_edges), block_edges);
    __syncthreads();  // the scratch serves the scan next
    uint32_t at = 0, total = 0;
    Scan(scratch.scan).ExclusiveSum(static_cast<uint32_t>(__popc(fresh_here)), at, total);
    if (threadIdx.x == 0 && total > 0) base = atomicAdd(&s.counters[1], total);
    __syncthreads();
    for (unsigned i = 0; i < 32; ++i) {  // the warp writes word i's fresh delegates in order
      const uint32_t word = __shfl_sync(0xffffffffu, fresh_here, i);
      const uint32_t word_at = __shfl_sync(0xffffffffu, at, i);
      if (((word >> lane) & 1u) != 0)
        s.next_delegates[base + word_at + __popc(word & ((1u << lane) - 1u))] =
            static_cast<uint32_t>((first + warp_first + i) * 32 + lane);
    }
    __syncthreads();  // base and the scratch serve the next stride
  }
}

// A thread per 32 flags (reached_bytes' padding), read as two 16-byte
// loads: a warp per word with a byte a lane took 25 dependent rounds a
// thread at kron:27 on 2 GPUs (13.7 M delegates), which with the OR back into
// the bytes (then a pass of its own) made most of the mask exchange's 0.1 ms a level.
__global__ void pack_reached(const uint8_t* reached, uint64_t count, uint32_t* bits, uint32_t* any) {
  const uint64_t words = (count + 31) / 32;
  uint32_t seen = 0;
  for (uint64_t w = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; w < words; w += uint64_t{gridDim.x} * blockDim.x) {
    const uint32_t word = bits_of_group(reached + w * 32);
    bits[w] = word;
    seen |= word;
  }
  if (__syncthreads_or(seen != 0) && any != nullptr && threadIdx.x == 0) *any = 1;
}

__global__ void absorb_visited(uint32_t* sent_bits, const uint32_t* visited, uint64_t words) {
  for (uint64_t w = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; w < words; w += uint64_t{gridDim.x} * blockDim.x)
    if (visited[w] != 0) sent_bits[w] |= visited[w];
}

}  // namespace

void launch_absorb_visited(uint32_t* sent_bits, const uint32_t* visited, uint64_t words, int sms, cudaStream_t stream) {
  if (words == 0) return;
  absorb_visited<<<tg::gpu::grid_for(words, kBlock, sms), kBlock, 0, stream>>>(sent_bits, visited, words);
  TG_CUDA_CHECK_LAUNCH();
}

void launch_expand_normals(const BfsLevel& s, const uint32_t* rows, uint32_t count, eid_t* degree_scan,
                           tg::gpu::ScratchPool& pool, int sms, cudaStream_t stream) {
  if (count == 0) return;
  scan_degrees(rows, count, s.g.nn, s.g.nd, degree_scan, pool, sms, stream);
  expand_normals<<<expansion_grid(sms), kBlock, 0, stream>>>(s, rows, count, degree_scan);
  TG_CUDA_CHECK_LAUNCH();
}

void launch_scan_delegate_degrees(const BfsLevel& s, const uint32_t* rows, uint32_t count, eid_t* degree_scan,
                                  tg::gpu::ScratchPool& pool, int sms, cudaStream_t stream) {
  if (count > 0) scan_degrees(rows, count, s.g.dn, s.g.dd, degree_scan, pool, sms, stream);
}

void launch_push_delegates(const BfsLevel& s, const uint32_t* rows, uint32_t count, const eid_t* degree_scan,
                           int sms, cudaStream_t stream) {
  if (count == 0) return;
  expand_delegates<<<expansion_grid(sms), kBlock, 0, stream>>>(s, rows, count, degree_scan);
  TG_CUDA_CHECK_LAUNCH();
}

void launch_pull(const BfsLevel& s, int sms, cudaStream_t stream) {
  if (!s.delegate_frontier_empty) {
    const uint64_t words = (uint64_t{s.g.num_delegates} + 31) / 32;
    mark_delegate_frontier<<<tg::gpu::grid_for(words * 32, kBlock, sms), kBlock, 0, stream>>>(s);
    TG_CUDA_CHECK_LAUNCH();
  } else if (s.visited_normals == nullptr) {
    return;  // nothing to pull from
  }
  if (s.g.num_normals > 0) {
    pull_normals<<<tg::gpu::grid_for(s.g.num_normals, kBlock, sms), kBlock, 0, stream>>>(s);
    TG_CUDA_CHECK_LAUNCH();
  }
  if (s.g.num_delegates > 0) {
    pull_delegates<<<tg::gpu::grid_for(s.g.num_delegates, kBlock, sms), kBlock, 0, stream>>>(s);
    TG_CUDA_CHECK_LAUNCH();
  }
}

void launch_mark_visited_normals(const BfsLevel& s, uint64_t slots, uint32_t* segment, int sms, cudaStream_t stream) {
  if (slots == 0) return;
  mark_visited_normals<<<tg::gpu::grid_for((slots + 31) / 32 * 32, kBlock, sms), kBlock, 0, stream>>>(s, slots, segment);
  TG_CUDA_CHECK_LAUNCH();
}

void launch_announce_normals(const BfsLevel& s, NormalFrontierSize* out, cudaStream_t stream) {
  announce_normals<<<1, kAnnounceBlock, 0, stream>>>(s, out);
  TG_CUDA_CHECK_LAUNCH();
}

void launch_visit_received(const BfsLevel& s, const uint32_t* slots, uint64_t count, int sms, cudaStream_t stream) {
  if (count == 0) return;
  visit_received<<<tg::gpu::grid_for(count, kBlock, sms), kBlock, 0, stream>>>(s, slots, count);
  TG_CUDA_CHECK_LAUNCH();
}

void launch_visit_small_level(const BfsLevel& s, const uint32_t* slots, uint64_t fixed, const uint32_t* lengths,
                              uint64_t stride, LevelTotals* totals, int sms, cudaStream_t stream) {
  const uint64_t entries = static_cast<uint64_t>(s.g.num_ranks - 1) * fixed;
  visit_small_level<<<tg::gpu::grid_for(std::max<uint64_t>(entries, 1), kBlock, sms), kBlock, 0, stream>>>(
      s, slots, fixed, lengths, stride, totals);
  TG_CUDA_CHECK_LAUNCH();
}

void launch_set_normals_flag(const BfsLevel& s, uint8_t* flag, uint32_t* bits, uint64_t bit, cudaStream_t stream) {
  set_normals_flag<<<1, 1, 0, stream>>>(s, flag, bits, bit);
  TG_CUDA_CHECK_LAUNCH();
}

void launch_settle_quiet(const QuietAnnouncement* all, int p, NormalFrontierSize* sum, uint32_t* counters,
                         cudaStream_t stream) {
  settle_quiet<<<1, 1, 0, stream>>>(all, p, sum, counters);
  TG_CUDA_CHECK_LAUNCH();
}

void launch_pack_reached(const uint8_t* reached, uint64_t count, uint32_t* bits, uint32_t* any, int sms,
                         cudaStream_t stream) {
  if (count == 0) return;
  pack_reached<<<tg::gpu::grid_for((count + 31) / 32, kBlock, sms), kBlock, 0, stream>>>(reached, count, bits, any);
  TG_CUDA_CHECK_LAUNCH();
}

void launch_settle_delegates(const BfsLevel& s, const GatheredReached& gathered, int sms, cudaStream_t stream) {
  const uint64_t words = (uint64_t{s.g.num_delegates} + 1 + 31) / 32;
  settle_delegates<<<tg::gpu::grid_for(words, kBlock, sms), kBlock, 0, stream>>>(s, gathered);
  TG_CUDA_CHECK_LAUNCH();
}

}  // namespace tg::dist::gpu
