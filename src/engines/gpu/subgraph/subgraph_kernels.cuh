// Kernels and functors of SubCSR generation and partition streaming, shared
// by subcsr_builder.cu and partition_streamer.cu (and the device tests).
// Each kernel mirrors a host reference that the CPU tests check
// (edge_gather.h, subgraph_plan.h).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/types.h"
#include "engines/gpu/subgraph/list_at.h"

namespace tg::subgraph::kernels {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kThreads = 256;

// v is in the bitmap (Subway's isActive[]).
template <typename V>
struct InBitmap {
  const uint32_t* bits;
  __host__ __device__ bool operator()(V v) const { return (bits[v >> 5] >> (v & 31)) & 1u; }
};

// Degree of the i-th active vertex, 0 past the end: scanned over count + 1
// items it gives the count + 1 sub-offsets in one pass (steps 3-5 fused).
template <typename V>
struct ActiveDegree {
  const V* active;
  const eid_t* offsets;
  uint64_t count;
  eid_t limit = ~eid_t{0};  // a list's first entries only (SubcsrBuilder::build_from_list)
  __host__ __device__ eid_t operator()(uint64_t i) const {
    if (i >= count) return 0;
    V v = active[i];
    const eid_t d = offsets[v + 1] - offsets[v];
    return d < limit ? d : limit;
  }
};

// full[v] = sub[i], full[v + 1] = sub[i + 1] for v = active[i]: the
// scattered sub-offsets the push kernel reads (work_unit.h). Two threads may
// write full[v + 1] (end of v, start of v + 1): they write the same value.
template <typename V>
__global__ void scatter_sub_offsets(const V* active, const eid_t* sub, uint64_t count, eid_t* full) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < count; i += uint64_t(gridDim.x) * blockDim.x) {
    V v = active[i];
    full[v] = sub[i];
    full[v + 1] = sub[i + 1];
  }
}

// plan_ranges (subgraph_plan.h) in GPU memory, by one thread, the same
// greedy cut: each range's end found by binary search over the prefix, so an
// oversized SubCSR's pieces cross to the host, not its count + 1 sub-offsets
// and a host pass over them (13 M active lists in a round of urand:25's SSSP:
// 105 MB and 15-18 ms a round). Writes at most max_out ranges and the count
// it needed into *needed (more than max_out: the caller runs it again with room).
// Range is EdgeRange (a template so that every translation unit may include it).
template <typename Range>
__global__ void plan_ranges_greedy(const eid_t* prefix, uint64_t count, uint64_t capacity, Range* out,
                                   uint64_t max_out, unsigned long long* needed) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const eid_t total = prefix[count];
  uint64_t k = 0;
  auto put = [&](uint64_t first, uint64_t last, eid_t begin, eid_t end, bool split) {
    if (k < max_out) {
      out[k].first = first;
      out[k].last = last;
      out[k].edge_begin = begin;
      out[k].edge_end = end;
      out[k].split = split;
    }
    ++k;
  };
  uint64_t i = 0;
  while (i < count) {
    const eid_t begin = prefix[i], end = prefix[i + 1];
    if (end - begin > capacity) {
      for (eid_t e = begin; e < end; e += capacity) put(i, i + 1, e, end - e > capacity ? e + capacity : end, true);
      ++i;
      continue;
    }
    const eid_t limit = total - begin <= capacity ? total : begin + capacity;
    uint64_t lo = i + 1, hi = count + 1;  // the first index past i whose prefix exceeds limit
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      if (prefix[mid] <= limit) lo = mid + 1;
      else hi = mid;
    }
    const uint64_t j = lo - 1;
    put(i, j, begin, prefix[j], false);
    i = j;
  }
  *needed = k;
}

template <typename V>
__global__ void iota(V* out, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    out[i] = static_cast<V>(i);
}

// (A template so that every translation unit may include it.)
template <typename T>
__global__ void set_pair(T* p, T a, T b) {
  p[0] = a;
  p[1] = b;
}

// out[k] = the first index i of the sorted `active` with active[i] >= keys[k]
// (std::lower_bound); the device twin of active_ranges in subgraph_plan.h.
template <typename V>
__global__ void lower_bounds(const V* active, uint64_t count, const uint64_t* keys, uint64_t nkeys, uint64_t* out) {
  for (uint64_t k = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; k < nkeys; k += uint64_t(gridDim.x) * blockDim.x) {
    uint64_t key = keys[k], lo = 0, hi = count;
    while (lo < hi) {
      uint64_t mid = (lo + hi) / 2;
      if (static_cast<uint64_t>(active[mid]) < key) lo = mid + 1;
      else hi = mid;
    }
    out[k] = lo;
  }
}

// A warp copies src[s .. s + len) to dst[0 .. len), reading from the 128-byte
// line that holds src[s] (EMOGI's aligned access: over zero-copy a warp load
// that straddles lines costs ~40% of the link on this machine, PLATFORM.md).
// Returns the 128-byte lines requested, the same in every lane.
template <typename T>
__device__ inline uint64_t warp_copy_aligned(const T* src, uint64_t s, uint64_t len, T* dst, int lane) {
  if (len == 0) return 0;
  const uintptr_t first = reinterpret_cast<uintptr_t>(src + s);
  const uint64_t lead = (first & 127) / sizeof(T);  // entries of the line before src[s]
  for (uint64_t base = 0; base < lead + len; base += 32) {
    uint64_t k = base + lane;
    if (k >= lead && k < lead + len) dst[k - lead] = src[s + k - lead];
  }
  const uintptr_t last = first + len * sizeof(T) - 1;
  return (last >> 7) - (first >> 7) + 1;
}

// Step 6 on the GPU: copies positions [edge_begin, edge_end) of the SubCSR
// edge array, whose active vertices are active[first .. last) with
// sub-offsets sub[first .. last], from the host edge array (zero-copy device
// pointers) into out_neighbors / out_weights (device memory, position
// edge_begin at index 0). Warps take chunks of `chunk` edges, so one huge
// list is copied by many warps and many short lists by one; lists are read
// in address order (the active list is sorted), adjacent ones as one run.
template <typename V>
struct GatherListsArgs {
  const eid_t* offsets = nullptr;  // the CSR's, device memory
  const V* neighbors = nullptr;    // zero-copy
  const weight_t* weights = nullptr;  // zero-copy, or null
  const V* active = nullptr;
  const eid_t* sub = nullptr;
  uint64_t first = 0, last = 0;
  eid_t edge_begin = 0, edge_end = 0;
  V* out_neighbors = nullptr;
  weight_t* out_weights = nullptr;
  uint64_t chunk = 256;
  unsigned long long* lines = nullptr;  // += 128-byte lines requested
};

template <typename V>
__global__ void __launch_bounds__(kThreads) gather_lists(GatherListsArgs<V> a) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (uint64_t(gridDim.x) * blockDim.x) >> 5;
  const uint64_t total = a.edge_end - a.edge_begin;
  const uint64_t chunks = (total + a.chunk - 1) / a.chunk;
  uint64_t lines = 0;
  for (uint64_t c = (blockIdx.x * uint64_t(blockDim.x) + threadIdx.x) >> 5; c < chunks; c += warps) {
    const eid_t lo = a.edge_begin + c * a.chunk;
    const eid_t hi = lo + a.chunk < a.edge_end ? lo + a.chunk : a.edge_end;
    // The last i in [first, last) with sub[i] <= lo (sub[first] <= edge_begin).
    uint64_t l = a.first, h = a.last;
    while (h - l > 1) {
      uint64_t m = (l + h) / 2;
      if (a.sub[m] <= lo) l = m;
      else h = m;
    }
    uint64_t i = l;
    eid_t pos = lo;
    while (pos < hi) {
      // Adjacent lists as one run (list_at.h), empty ones skipped by galloping.
      const ListRun<eid_t> run = run_at(a.sub, a.active, a.offsets, i, a.last, pos, hi);
      i = run.list;
      const uint64_t len = run.end - pos;
      lines += warp_copy_aligned(a.neighbors, run.src, len, a.out_neighbors + (pos - a.edge_begin), lane);
      if (a.weights) lines += warp_copy_aligned(a.weights, run.src, len, a.out_weights + (pos - a.edge_begin), lane);
      pos = run.end;
    }
  }
  if (lane == 0 && lines) atomicAdd(a.lines, static_cast<unsigned long long>(lines));
}

}  // namespace tg::subgraph::kernels
