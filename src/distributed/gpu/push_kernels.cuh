// Every edge of every active row of one of a rank's CSRs, once, edge-balanced:
// what CC's and PageRank's rounds push along (BFS expands queued rows instead,
// bfs_kernels.cu). Delegates' lists run to millions of edges and normal ones
// to at most TH, so a thread or warp per row would leave the GPU idle behind
// the hubs: a block takes kPushChunk consecutive edges, reads the row of its
// first from the CSR's chunk index (device_rank_graph.h), searches for the
// row of its last between that and the next chunk's, and each thread finds
// its edge's row between them (a few steps where rows are short, none inside
// a hub's list).
#pragma once

#include <cstdint>
#include <cub/block/block_reduce.cuh>

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

}  // namespace tg::dist::gpu
