// The packed lists' encoder on the GPU (see packed_encoder.h). Two passes over
// units of a list's 1024-entry chunks (a warp each, 32 blocks of 32 entries):
// the first counts each unit's words, a scan places them, the second writes
// them. A unit's words: its blocks' gap words, and for a list's first unit
// also the list's chunk table, headers and weight words, so that the scan
// gives each list's start at its first unit.
#include "engines/gpu/packed_encoder.h"

#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <chrono>
#include <cstdlib>
#include <cub/device/device_scan.cuh>

#include "core/block_cache.h"
#include "core/env_switch.h"
#include "engines/gpu/cuda_util.h"
#include "engines/gpu/host_openmp.h"
#include "graph/packed_lists.h"

namespace tg::gpu {
namespace {

constexpr unsigned kAll = 0xffffffffu;
constexpr int kThreads = 256;

struct ChunksOf {
  const eid_t* offsets;
  uint64_t n;
  __host__ __device__ unsigned long long operator()(uint64_t v) const {
    if (v >= n) return 0;
    return (offsets[v + 1] - offsets[v] + kPackedChunk - 1) / kPackedChunk;
  }
};

struct EncodeArgs {
  const eid_t* offsets = nullptr;
  const uint32_t* ids = nullptr;
  const weight_t* weights = nullptr;
  const unsigned long long* chunk_start = nullptr;  // n + 1: each list's first unit
  uint64_t n = 0;
  unsigned long long units = 0;
  unsigned long long* unit_words = nullptr;        // pass 1
  const unsigned long long* unit_start = nullptr;  // pass 2: the scan of unit_words
  const eid_t* list_start = nullptr;               // pass 2: the packed offsets
  uint32_t* out = nullptr;                         // pass 2: mapped host words
  bool with_weights = false;
  unsigned int* unsorted = nullptr;
};

// The last v with chunk_start[v] <= c: the list unit c belongs to.
__device__ uint64_t owner_of_unit(const unsigned long long* start, uint64_t n, unsigned long long c) {
  uint64_t lo = 0, hi = n;
  while (hi - lo > 1) {
    const uint64_t mid = (lo + hi) / 2;
    if (start[mid] <= c) lo = mid;
    else hi = mid;
  }
  return lo;
}

// Chunk k of v's list (a unit), its blocks one after another:
// block(j, entries, lane's id, lane's gap, width, gap words, the block's first entry's index).
template <typename Block>
__device__ void walk_unit(const EncodeArgs& a, uint64_t v, uint64_t k, int lane, Block&& block) {
  const eid_t b = a.offsets[v];
  const uint64_t degree = a.offsets[v + 1] - b;
  const uint64_t lo = k * kPackedChunk;
  const uint64_t count = degree - lo < uint64_t{kPackedChunk} ? degree - lo : kPackedChunk;
  // A list out of order anywhere (inside a block, or from one block or unit to the next) is for the CPU encoder.
  uint32_t last = k > 0 ? a.ids[b + lo - 1] : 0;
  for (uint32_t j = 0; j * kPackedBlock < count; ++j) {
    const uint32_t entries = packed_block_entries(count, j);
    const uint64_t at = b + lo + uint64_t{j} * kPackedBlock;
    const uint32_t x = lane < static_cast<int>(entries) ? a.ids[at + lane] : 0;
    const uint32_t prev = __shfl_up_sync(kAll, x, 1);
    const bool has_gap = lane > 0 && lane < static_cast<int>(entries);
    const bool after_last = lane == 0 && (k > 0 || j > 0) && x < last;
    if (__any_sync(kAll, (has_gap && x < prev) || after_last) && lane == 0) atomicOr(a.unsorted, 1u);
    last = __shfl_sync(kAll, x, static_cast<int>(entries) - 1);
    const uint32_t gap = has_gap ? x - prev : 0;
    const uint32_t any = __reduce_or_sync(kAll, gap);
    const uint32_t width = any ? 32 - __clz(any) : 0;
    block(j, entries, x, gap, width, packed_gap_words(entries, width), at);
  }
}

// A list's words besides its gaps: its chunk table, headers and weight words
// (counted on its first unit).
__device__ uint64_t list_frame_words(uint64_t degree, bool with_weights) {
  return packed_chunk_words(degree) + packed_blocks(degree) + (with_weights ? packed_weight_words(degree) : 0);
}

// body(c, v, k, degree) for each unit c a warp, v its list and k its chunk.
template <typename Body>
__device__ void for_units(const EncodeArgs& a, Body&& body) {
  const unsigned long long warps = (static_cast<unsigned long long>(gridDim.x) * blockDim.x) >> 5;
  for (unsigned long long c = (static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; c < a.units;
       c += warps) {
    const uint64_t v = owner_of_unit(a.chunk_start, a.n, c);
    body(c, v, c - a.chunk_start[v], a.offsets[v + 1] - a.offsets[v]);
  }
}

__global__ void __launch_bounds__(kThreads) count_words(EncodeArgs a) {
  const int lane = threadIdx.x & 31;
  for_units(a, [&](unsigned long long c, uint64_t v, uint64_t k, uint64_t degree) {
    unsigned long long words = k == 0 ? list_frame_words(degree, a.with_weights) : 0;
    walk_unit(a, v, k, lane, [&](uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t gw, uint64_t) { words += gw; });
    if (lane == 0) a.unit_words[c] = words;
  });
}

__global__ void __launch_bounds__(kThreads) write_words(EncodeArgs a) {
  __shared__ uint32_t gap_buf[kThreads / 32][32];
  __shared__ uint32_t weight_buf[kThreads / 32][8];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for_units(a, [&](unsigned long long c, uint64_t v, uint64_t k, uint64_t degree) {
    const uint64_t table = packed_chunk_words(degree), blocks = packed_blocks(degree);
    const uint64_t list_words = a.list_start[v + 1] - a.list_start[v];
    const uint64_t weight_words = a.with_weights ? packed_weight_words(degree) : 0;
    uint32_t* list = a.out + a.list_start[v];
    // Where this chunk's gaps start in the list's gap region: the words of the units before it.
    const uint64_t gap_start = k == 0 ? 0 : a.unit_start[c] - a.list_start[v] - list_frame_words(degree, a.with_weights);
    if (table > 0 && lane == 0) list[k] = static_cast<uint32_t>(gap_start);
    uint32_t* gaps = list + table + blocks + gap_start;
    walk_unit(a, v, k, lane,
              [&](uint32_t j, uint32_t entries, uint32_t x, uint32_t gap, uint32_t width, uint32_t gw, uint64_t at) {
                gap_buf[warp][lane] = 0;
                if (lane < 8) weight_buf[warp][lane] = 0;
                __syncwarp();
                if (gap != 0) {  // a gap of 0 sets no bits
                  const uint32_t bit = (lane - 1) * width, q = bit >> 5, s = bit & 31;
                  atomicOr(&gap_buf[warp][q], gap << s);
                  if (s + width > 32) atomicOr(&gap_buf[warp][q + 1], gap >> (32 - s));
                }
                if (a.with_weights && lane < static_cast<int>(entries))
                  atomicOr(&weight_buf[warp][lane >> 2], static_cast<uint32_t>(a.weights[at + lane]) << (8 * (lane & 3)));
                __syncwarp();
                if (lane == 0) list[table + k * (kPackedChunk / kPackedBlock) + j] = packed_header(x, width);  // x: the first
                if (lane < static_cast<int>(gw)) gaps[lane] = gap_buf[warp][lane];
                if (a.with_weights && lane < static_cast<int>((entries + 3) / 4))
                  list[list_words - weight_words + (k * kPackedChunk + uint64_t{j} * kPackedBlock) / 4 + lane] =
                      weight_buf[warp][lane];
                gaps += gw;
                __syncwarp();
              });
  });
}

__global__ void list_offsets(const unsigned long long* chunk_start, const unsigned long long* unit_start, uint64_t n,
                             eid_t* out) {
  for (uint64_t v = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; v <= n; v += uint64_t(gridDim.x) * blockDim.x)
    out[v] = unit_start[chunk_start[v]];
}

unsigned grid(uint64_t threads) {
  int device = 0, sms = 1;
  TG_CUDA(cudaGetDevice(&device));
  TG_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return grid_for(threads, kThreads, sms);
}

}  // namespace

bool gpu_packing_asked() {
  static const bool asked = env_switch("TG_GPU_PACK");
  return asked;
}

std::optional<GpuPackedLists> gpu_pack_lists(uint64_t n, const eid_t* offsets_device, const uint32_t* ids_mapped,
                                             const weight_t* weights_mapped, bool with_weights) {
  const auto t0 = std::chrono::steady_clock::now();
  if (n > kPackedMaxVertices || (with_weights && weights_mapped == nullptr)) return std::nullopt;
  ScratchPool pool;
  auto chunk_start = DeviceArray<unsigned long long>::allocate(n + 1);
  {
    auto chunks = thrust::make_transform_iterator(thrust::counting_iterator<uint64_t>(0), ChunksOf{offsets_device, n});
    unsigned long long* out = chunk_start.data();
    run_cub(pool, [&](void* tmp, size_t& bytes) { return cub::DeviceScan::ExclusiveSum(tmp, bytes, chunks, out, n + 1); });
  }
  unsigned long long units = 0;
  TG_CUDA(cudaMemcpy(&units, chunk_start.data() + n, sizeof units, cudaMemcpyDeviceToHost));
  auto unsorted = DeviceArray<unsigned int>::allocate(1);
  TG_CUDA(cudaMemset(unsorted.data(), 0, sizeof(unsigned int)));
  auto unit_words = DeviceArray<unsigned long long>::allocate(units + 1);
  auto unit_start = DeviceArray<unsigned long long>::allocate(units + 1);
  TG_CUDA(cudaMemset(unit_words.data() + units, 0, sizeof(unsigned long long)));
  EncodeArgs a;
  a.offsets = offsets_device;
  a.ids = ids_mapped;
  a.weights = weights_mapped;
  a.chunk_start = chunk_start.data();
  a.n = n;
  a.units = units;
  a.unit_words = unit_words.data();
  a.with_weights = with_weights;
  a.unsorted = unsorted.data();
  if (units > 0) {
    count_words<<<grid(units * 32), kThreads>>>(a);
    TG_CUDA_CHECK_LAUNCH();
  }
  unsigned int bad = 0;
  TG_CUDA(cudaMemcpy(&bad, unsorted.data(), sizeof bad, cudaMemcpyDeviceToHost));
  if (bad) return std::nullopt;
  {
    const unsigned long long* in = unit_words.data();
    unsigned long long* out = unit_start.data();
    run_cub(pool, [&](void* tmp, size_t& bytes) { return cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, units + 1); });
  }
  auto starts = DeviceArray<eid_t>::allocate(n + 1);
  list_offsets<<<grid(n + 1), kThreads>>>(chunk_start.data(), unit_start.data(), n, starts.data());
  TG_CUDA_CHECK_LAUNCH();
  GpuPackedLists p;
  p.offsets.resize(n + 1);
  TG_CUDA(cudaMemcpy(p.offsets.data(), starts.data(), (n + 1) * sizeof(eid_t), cudaMemcpyDeviceToHost));
  // At least BlockCache::kAlign bytes: pages of its own, which no other array's registration shares.
  p.words = Array<uint32_t>::allocate(std::max<uint64_t>(p.offsets[n], BlockCache::kAlign / sizeof(uint32_t)));
  // Faulted in by the host's threads side by side first: cudaHostRegister
  // faults a fresh array's pages in one thread, which made this encoder
  // 1.5x slower than the CPU's on the H200 (session 28), whose threads fault
  // the pages they write in parallel; with it, a tie on the H100 (session 55).
  fault_in_pages(p.words.data(), p.words.bytes());
  if (cudaHostRegister(p.words.data(), p.words.bytes(), cudaHostRegisterMapped) != cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  void* mapped = nullptr;
  TG_CUDA(cudaHostGetDevicePointer(&mapped, p.words.data(), 0));
  p.mapped = static_cast<uint32_t*>(mapped);
  a.unit_start = unit_start.data();
  a.list_start = starts.data();
  a.out = p.mapped;
  if (units > 0) {
    write_words<<<grid(units * 32), kThreads>>>(a);
    TG_CUDA_CHECK_LAUNCH();
  }
  TG_CUDA(cudaDeviceSynchronize());
  p.build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return p;
}

}  // namespace tg::gpu
