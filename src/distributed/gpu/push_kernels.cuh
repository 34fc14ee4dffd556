// Every edge of every active row of one of a rank's CSRs, once, edge-balanced:
// what CC's and PageRank's rounds push along; or every edge of a queue of rows
// (expand_edges below): what BFS levels and CC's and SSSP's rounds with few
// active rows push along. Delegates' lists run to millions of edges and normal ones
// to at most TH, so a thread or warp per row would leave the GPU idle behind
// the hubs: a block takes kPushChunk consecutive edges, reads the row of its
// first from the CSR's chunk index (device_rank_graph.h), searches for the
// row of its last between that and the next chunk's, and each thread finds
// its edge's row between them (a few steps where rows are short, none inside
// a hub's list).
#pragma once

#include <cooperative_groups.h>

#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include "core/types.h"
#include "distributed/gpu/device_rank_graph.h"
#include "distributed/rank_memory.h"
#include "engines/gpu/cuda_util.h"

namespace tg::dist::gpu {

constexpr uint32_t kPushChunk = static_cast<uint32_t>(kPushChunkEdges);

// The last row u in [lo, hi] with offsets[u] <= e: the row holding edge e
// (an empty row u has offsets[u + 1] == offsets[u] <= e, so it is passed).
__device__ inline uint32_t row_of_edge(const eid_t* offsets, uint32_t lo, uint32_t hi, eid_t e) {
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo + 1) / 2;
    if (offsets[mid] <= e) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// op.active(u): whether row u pushes; op(u, neighbour, e): its edge e (an index
// into the CSR's neighbours and weights).
template <typename N, typename Op>
__global__ void push_rows(CsrView<N> csr, uint32_t rows, Op op) {
  __shared__ uint32_t first, last;
  const eid_t edges = csr.offsets[rows];
  for (eid_t start = blockIdx.x * eid_t{kPushChunk}; start < edges; start += eid_t{gridDim.x} * kPushChunk) {
    const eid_t end = start + kPushChunk < edges ? start + kPushChunk : edges;
    __syncthreads();  // every thread has read the last chunk's rows
    if (threadIdx.x == 0) {
      // One thread's two searches over every row, per chunk, cost every
      // round even when few rows push: the index bounds them to the chunk's
      // own rows.
      const eid_t chunk = start / kPushChunk;
      first = csr.chunk_rows[chunk];
      last = row_of_edge(csr.offsets, first, csr.chunk_rows[chunk + 1], end - 1);
    }
    __syncthreads();
    const uint32_t lo = first, hi = last;
    // A chunk whose rows are all idle is skipped whole: the late rounds of CC
    // and SSSP push few rows, and a search per edge walked every edge of the
    // CSR each round (7.2 ms a round at kron:27 on 4 GPUs with no delegate
    // active). Every edge of the chunk lies in a row of [lo, hi].
    bool any = false;
    for (uint64_t u = lo + uint64_t{threadIdx.x}; u <= hi && !any; u += blockDim.x) any = op.active(static_cast<uint32_t>(u));
    if (!__syncthreads_or(any)) continue;
    for (eid_t e = start + threadIdx.x; e < end; e += blockDim.x) {
      const uint32_t u = row_of_edge(csr.offsets, lo, hi, e);
      if (op.active(u)) op(u, csr.neighbors[e], e);
    }
  }
}

template <typename N, typename Op>
void launch_push_rows(CsrView<N> csr, uint32_t rows, const Op& op, int sms, cudaStream_t stream) {
  if (rows == 0) return;
  push_rows<<<static_cast<unsigned>(sms) * 8, tg::gpu::kBlock, 0, stream>>>(csr, rows, op);
  TG_CUDA_CHECK_LAUNCH();
}

// Adds the block's values into *total: one atomic per block. Every thread of
// the block calls it once (a grid-stride kernel: after its loop).
template <typename T>
__device__ void block_add(T value, T* total) {
  using Reduce = cub::BlockReduce<T, tg::gpu::kBlock>;
  __shared__ typename Reduce::TempStorage scratch;
  const T sum = Reduce(scratch).Sum(value);
  if (threadIdx.x == 0) atomicAdd(total, sum);
}

// A place in a queue whose length is *counter, for a group of lanes that
// join it together (the warp's lanes here now, or those of them with the
// same owner): one atomic per group, not one per thread, as every thread of
// a level that joins a queue adds to the same counter. (Measured on kron-26,
// one H100: no change in the BFS's time; the compiler may aggregate the
// plain form already. Kept as the explicit form.)
__device__ inline uint32_t queue_slot(const cooperative_groups::coalesced_group& group, uint32_t* counter) {
  uint32_t base = 0;
  if (group.thread_rank() == 0) base = atomicAdd(counter, group.size());
  return group.shfl(base, 0) + group.thread_rank();
}

// The first row in [lo, hi] whose inclusive degree scan exceeds e: the row
// holding edge e of an expansion (rows without edges are passed over).
__device__ inline uint32_t row_of_scanned_edge(const eid_t* scan, uint32_t lo, uint32_t hi, eid_t e) {
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (scan[mid] > e) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// Every edge of the queued rows, edge-balanced (a thread per edge): a
// delegate's lists run to millions of edges, so a thread or warp per row
// would leave most of the GPU idle behind the hubs. As push_rows does over a
// CSR, a block takes kPushChunk consecutive edges, finds the rows of its
// first and last in the inclusive scan of the rows' degrees, and each thread
// searches only between them: a few steps in cached entries where rows are
// short, where a search over the whole scan took log2(rows) dependent global
// loads per edge (23 for the 8 M normals a BFS level expands at kron-26).
// Each row's edges are its list in `a` then in `b`; visit_a(u, neighbour, e)
// and visit_b(u, neighbour, e) take the row, the neighbour and the edge's
// index in its CSR (for its weight).
template <typename A, typename B, typename VisitA, typename VisitB>
__device__ void expand_edges(const uint32_t* rows, uint32_t count, const eid_t* scan, CsrView<A> a, CsrView<B> b,
                             VisitA visit_a, VisitB visit_b) {
  __shared__ uint32_t first, last;
  const eid_t total = scan[count - 1];
  for (eid_t start = blockIdx.x * eid_t{kPushChunk}; start < total; start += eid_t{gridDim.x} * kPushChunk) {
    const eid_t end = start + kPushChunk < total ? start + kPushChunk : total;
    __syncthreads();  // every thread has read the last chunk's rows
    if (threadIdx.x == 0) {
      first = row_of_scanned_edge(scan, 0, count - 1, start);
      last = row_of_scanned_edge(scan, first, count - 1, end - 1);
    }
    __syncthreads();
    const uint32_t lo = first, hi = last;
    for (eid_t e = start + threadIdx.x; e < end; e += blockDim.x) {
      const uint32_t i = row_of_scanned_edge(scan, lo, hi, e);
      const eid_t j = e - (i == 0 ? 0 : scan[i - 1]);
      const uint32_t u = rows[i];
      const eid_t in_a = a.offsets[u + 1] - a.offsets[u];
      if (j < in_a) visit_a(u, a.neighbors[a.offsets[u] + j], a.offsets[u] + j);
      else visit_b(u, b.neighbors[b.offsets[u] + (j - in_a)], b.offsets[u] + (j - in_a));
    }
  }
}

template <typename A, typename B>
__global__ void row_degrees(const uint32_t* rows, uint32_t count, CsrView<A> a, CsrView<B> b, eid_t* degree) {
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < count; i += uint64_t{gridDim.x} * blockDim.x) {
    const uint32_t u = rows[i];
    degree[i] = (a.offsets[u + 1] - a.offsets[u]) + (b.offsets[u + 1] - b.offsets[u]);
  }
}

// scan[i] = the edges of rows[0..i] in a and b (inclusive).
template <typename A, typename B>
void scan_degrees(const uint32_t* rows, uint32_t count, CsrView<A> a, CsrView<B> b, eid_t* scan,
                  tg::gpu::ScratchPool& pool, int sms, cudaStream_t stream) {
  row_degrees<<<tg::gpu::grid_for(count, tg::gpu::kBlock, sms), tg::gpu::kBlock, 0, stream>>>(rows, count, a, b, scan);
  TG_CUDA_CHECK_LAUNCH();
  tg::gpu::run_cub(pool, [&](void* tmp, size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(tmp, bytes, scan, scan, count, stream);
  });
}

// The edge count stays on the GPU (no copy back to size the grid): the grid
// covers the GPU and strides over whatever the scan says.
inline unsigned expansion_grid(int sms) { return static_cast<unsigned>(sms) * 8; }

template <typename A, typename B, typename VisitA, typename VisitB>
__global__ void push_queued(const uint32_t* rows, uint32_t count, const eid_t* scan, CsrView<A> a, CsrView<B> b,
                            VisitA visit_a, VisitB visit_b) {
  expand_edges(rows, count, scan, a, b, visit_a, visit_b);
}

// Every edge of the `count` queued rows in a then b: their degrees scanned
// into scan (count entries), then pushed edge-balanced.
template <typename A, typename B, typename VisitA, typename VisitB>
void launch_push_queued(const uint32_t* rows, uint32_t count, CsrView<A> a, CsrView<B> b, const VisitA& visit_a,
                        const VisitB& visit_b, eid_t* scan, tg::gpu::ScratchPool& pool, int sms, cudaStream_t stream) {
  if (count == 0) return;
  scan_degrees(rows, count, a, b, scan, pool, sms, stream);
  push_queued<<<expansion_grid(sms), tg::gpu::kBlock, 0, stream>>>(rows, count, scan, a, b, visit_a, visit_b);
  TG_CUDA_CHECK_LAUNCH();
}

}  // namespace tg::dist::gpu
