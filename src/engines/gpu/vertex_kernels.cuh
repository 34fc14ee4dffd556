// The GPU engine's kernels over vertices rather than edges: fills, vertex
// maps, bitmap bookkeeping of frontiers, and the small functors CUB's
// reductions and selections take. Shared by the engine (gpu_engine.cuh),
// its frontiers (frontier.cuh) and the streamed edge source.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/types.h"
#include "engines/gpu/cuda_util.h"
#include "engines/gpu/subgraph/work_unit.h"

namespace tg::gpu {

namespace vertex_kernels {

template <typename T>
__global__ void fill(T* p, uint64_t n, T x) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    p[i] = x;
}

template <typename V, typename T>
__global__ void values_at(const T* a, const V* at, uint64_t k, T* out) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < k; i += uint64_t(gridDim.x) * blockDim.x)
    out[i] = a[at[i]];
}

template <typename V, typename F>
__global__ void map_all(uint64_t n, F f) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    f(static_cast<V>(i));
}

template <typename V, typename F>
__global__ void map_list(const V* list, uint64_t n, F f) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    f(list[i]);
}

template <typename V>
__global__ void set_bits(const V* list, uint64_t n, uint32_t* bits) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    V v = list[i];
    atomicOr(&bits[v >> 5], 1u << (v & 31));
  }
}

// Zeroes the words holding the listed vertices (every set bit belongs to one).
template <typename V>
__global__ void clear_bits(const V* list, uint64_t n, uint32_t* bits) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    bits[list[i] >> 5] = 0;
}

// Test-and-set of the listed vertices in `bits`; counts (and, with `out`,
// appends at *count onwards) those not yet set: a merge of frontiers, or of
// an async unit's output into the step's.
template <typename V>
__global__ void append_new(const V* list, uint64_t n, uint32_t* bits, V* out, unsigned long long* count) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    V v = list[i];
    uint32_t m = 1u << (v & 31);
    if (!(atomicOr(&bits[v >> 5], m) & m)) {
      unsigned long long at = atomicAdd(count, 1ull);
      if (out != nullptr) out[at] = v;
    }
  }
}

// The listed vertices whose lists lie in the loaded unit (async inner frontier).
template <typename V>
__global__ void select_members(const V* list, uint64_t n, subgraph::UnitMembers members, V* out,
                               unsigned long long* count) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    V v = list[i];
    if (members(v)) out[atomicAdd(count, 1ull)] = v;
  }
}

// Applies every vertex's gathered total (streamed in-edge partitions leave
// partial sums; see GatherArgs::partial) and sums apply's results.
template <typename V, typename Op>
__global__ void apply_partials(uint64_t first, uint64_t n, Op op, const typename Op::acc_t* partial,
                               double* residual) {
  double r = 0;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    r += op.apply(static_cast<V>(first + i), partial[first + i]);
  for (int o = 16; o > 0; o >>= 1) r += __shfl_xor_sync(0xffffffffu, r, o);
  if ((threadIdx.x & 31) == 0 && r != 0) atomicAdd(residual, r);
}

// An operator's begin(u) (engines/engine.h) as a vertex_map functor.
template <typename V, typename Op>
struct BeginOf {
  Op op;
  __device__ void operator()(V v) const { op.begin(v); }
};

template <typename V>
struct InBits {
  const uint32_t* bits;
  __host__ __device__ bool operator()(V v) const { return (bits[v >> 5] >> (v & 31)) & 1u; }
};

// pred(v) for members of a bitmap (or of every vertex when bits is null).
template <typename V, typename Pred>
struct MemberAnd {
  const uint32_t* bits;
  Pred pred;
  __host__ __device__ bool operator()(V v) const {
    if (bits != nullptr && !((bits[v >> 5] >> (v & 31)) & 1u)) return false;
    return pred(v);
  }
};

template <typename V, typename F>
struct AsDouble {
  F f;
  __host__ __device__ double operator()(V v) const { return static_cast<double>(f(v)); }
};

template <typename V>
struct OutDegree {
  const eid_t* offsets;
  const uint32_t* bits;  // null: every vertex counts
  __host__ __device__ unsigned long long operator()(V v) const {
    if (bits != nullptr && !((bits[v >> 5] >> (v & 31)) & 1u)) return 0;
    return offsets[v + 1] - offsets[v];
  }
};

struct Always {
  template <typename V>
  __host__ __device__ bool operator()(V) const { return true; }
};

struct Sum {
  template <typename T>
  __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
struct Min {
  __host__ __device__ double operator()(double a, double b) const { return b < a ? b : a; }
};

}  // namespace vertex_kernels

}  // namespace tg::gpu
