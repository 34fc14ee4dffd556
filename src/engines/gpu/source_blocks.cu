// Building the source-blocked in-edges (source_blocks.h): count each
// vertex's entries per block by binary search in its sorted list, one scan of
// the counts laid out block by block, then a warp per list copies its entries
// to their blocks and checks that the list was sorted.
#include "engines/gpu/source_blocks.h"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <chrono>

#include "engines/gpu_footprint.h"

namespace tg::gpu {

int source_blocks_for(int requested, uint64_t n, uint64_t l2_bytes) {
  if (requested >= 2) return std::min(requested, kMaxSourceBlocks);
  if (requested == 1 || l2_bytes == 0) return 1;
  // 4-byte values filling three quarters of the L2 (the rest for the ids,
  // offsets and partial sums streaming past): on kron:25 (H100, 50 MB of L2)
  // that is 4 blocks, measured the fastest (17.16 ms an iteration against
  // 17.37 with 3, 17.55 with 5, 18.08 with 6, 20.1 in one pass; docs/PERF.md,
  // session 14).
  const uint64_t per_block = std::max<uint64_t>(l2_bytes * 3 / 4 / 4, 1);
  return static_cast<int>(std::min<uint64_t>((n + per_block - 1) / per_block, kMaxSourceBlocks));
}

namespace {

constexpr unsigned kAllLanes = 0xffffffffu;

// The first entry of list [b, e) not below `key`.
template <typename V>
__device__ inline eid_t lower_bound_in(const V* ids, eid_t b, eid_t e, uint64_t key) {
  while (b < e) {
    const eid_t mid = b + (e - b) / 2;
    if (static_cast<uint64_t>(ids[mid]) < key) b = mid + 1;
    else e = mid;
  }
  return b;
}

// counts[k * n + v]: v's entries from block k (sorted lists: the gaps between
// the blocks' first entries). counts[blocks * n] = 0, for the scan's total.
template <typename V>
__global__ void count_kernel(CsrView<V> in, uint64_t n, int blocks, uint64_t block_vertices, eid_t* counts) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t v = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n; v += stride) {
    const eid_t b = in.offsets[v], e = in.offsets[v + 1];
    eid_t at = b;
    for (int k = 0; k < blocks; ++k) {
      const eid_t next = k + 1 == blocks ? e : lower_bound_in(in.neighbors, at, e, (k + 1) * block_vertices);
      counts[static_cast<uint64_t>(k) * n + v] = next - at;
      at = next;
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) counts[static_cast<uint64_t>(blocks) * n] = 0;
}

__device__ inline int block_of(uint64_t id, uint64_t block_vertices, int blocks) {
  const uint64_t k = id / block_vertices;
  return k < static_cast<uint64_t>(blocks) ? static_cast<int>(k) : blocks - 1;
}

// A warp per list: lane k holds block k's start in the copy and in the list,
// each entry goes to its block's place. An entry out of order (a list not
// sorted) sets *unsorted and is not written where it would land outside its
// block's range.
template <typename V>
__global__ void scatter_kernel(CsrView<V> in, uint64_t n, int blocks, uint64_t block_vertices, const eid_t* offsets,
                               V* out, unsigned* unsorted) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  for (uint64_t v = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; v < n; v += warps) {
    const eid_t b = in.offsets[v], e = in.offsets[v + 1];
    if (b == e) continue;
    eid_t start = 0, count = 0;
    if (lane < blocks) {
      start = offsets[static_cast<uint64_t>(lane) * n + v];
      count = offsets[static_cast<uint64_t>(lane) * n + v + 1] - start;
    }
    // in_list: where block `lane` begins within v's list (an exclusive scan of the counts).
    eid_t in_list = count;
    for (int o = 1; o < 32; o <<= 1) {
      const eid_t up = __shfl_up_sync(kAllLanes, in_list, o);
      if (lane >= o) in_list += up;
    }
    in_list -= count;
    bool bad = false;
    for (eid_t base = b; base < e; base += 32) {
      const eid_t k = base + lane;
      const bool here = k < e;
      const V id = here ? in.neighbors[k] : V{0};
      const int block = here ? block_of(id, block_vertices, blocks) : 0;
      const eid_t block_start = __shfl_sync(kAllLanes, start, block), block_count = __shfl_sync(kAllLanes, count, block);
      const eid_t block_in_list = __shfl_sync(kAllLanes, in_list, block);
      if (here) {
        if (k > b && in.neighbors[k - 1] > id) bad = true;
        const eid_t r = (k - b) - block_in_list;  // rank within the block's entries of v
        if (r < block_count) out[block_start + r] = id;  // r < 0 wraps to a huge value: skipped
        else bad = true;
      }
    }
    if (__any_sync(kAllLanes, bad) && lane == 0) atomicExch(unsorted, 1u);
  }
}

}  // namespace

template <typename V>
const SourceBlockLayout<V>* SourceBlocks<V>::layout(const CsrView<V>& in, uint64_t n, uint64_t m, ScratchPool& pool) {
  if (tried_) return layout_.get();
  tried_ = true;
  const auto t0 = std::chrono::steady_clock::now();
  const int blocks = source_blocks_for(requested_, n, l2_bytes_);
  stats_.blocks = 0;
  if (blocks < 2) {
    stats_.note = requested_ == 1 ? "off (--source-blocks 1)" : "the sources' values fit in 3/4 of the L2";
    return nullptr;
  }
  const uint64_t block_vertices = std::max<uint64_t>((n + blocks - 1) / blocks, 1);
  const uint64_t bytes = m * sizeof(V) + (static_cast<uint64_t>(blocks) * n + 1) * sizeof(eid_t);
  size_t free_bytes = 0, total_bytes = 0;
  TG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  // The gather's partial sums (8 bytes a vertex) come after it.
  if (bytes > room_ || bytes + n * sizeof(double) + kGpuMemoryMargin > free_bytes) {
    stats_.note = "no room: the copy takes " + std::to_string(bytes >> 20) + " MiB beside the placement";
    return nullptr;
  }
  auto l = std::make_unique<SourceBlockLayout<V>>();
  l->blocks = blocks;
  l->n = n;
  l->block_vertices = block_vertices;
  l->offsets = DeviceArray<eid_t>::allocate(static_cast<uint64_t>(blocks) * n + 1);
  l->neighbors = DeviceArray<V>::allocate(m);
  int sms = 1;
  int device = 0;
  TG_CUDA(cudaGetDevice(&device));
  TG_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const unsigned grid = static_cast<unsigned>(sms) * 8;
  count_kernel<V><<<grid, 256>>>(in, n, blocks, block_vertices, l->offsets.data());
  TG_CUDA_CHECK_LAUNCH();
  eid_t* counts = l->offsets.data();
  const uint64_t items = static_cast<uint64_t>(blocks) * n + 1;
  run_cub(pool, [&](void* tmp, size_t& b) { return cub::DeviceScan::ExclusiveSum(tmp, b, counts, counts, items); });
  if (requested_ == 0) {  // auto: the sources crowded into the first block? (source_block_rule.h)
    eid_t first_block = 0;
    TG_CUDA(cudaMemcpy(&first_block, counts + n, sizeof first_block, cudaMemcpyDeviceToHost));
    if (crowded_in_first_block(first_block, m)) {
      stats_.build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      stats_.note = "auto: " + std::to_string(first_block * 100 / m) +
                    "% of the entries read the first block's sources, one pass reads them from the L2";
      return nullptr;
    }
  }
  DeviceArray<unsigned> unsorted = DeviceArray<unsigned>::allocate(1);
  TG_CUDA(cudaMemset(unsorted.data(), 0, sizeof(unsigned)));
  scatter_kernel<V><<<grid, 256>>>(in, n, blocks, block_vertices, l->offsets.data(), l->neighbors.data(), unsorted.data());
  TG_CUDA_CHECK_LAUNCH();
  unsigned bad = 0;
  TG_CUDA(cudaMemcpy(&bad, unsorted.data(), sizeof bad, cudaMemcpyDeviceToHost));
  stats_.build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (bad) {
    stats_.note = "an in-list is not sorted: gathers read the lists as they are";
    return nullptr;
  }
  stats_.blocks = blocks;
  stats_.block_vertices = block_vertices;
  stats_.bytes = bytes;
  stats_.note = requested_ >= 2 ? "--source-blocks" : "auto: a block's values fill at most 3/4 of the L2";
  layout_ = std::move(l);
  return layout_.get();
}

template <typename V>
SourceBlockStats SourceBlocks<V>::stats() const {
  return stats_;
}

template class SourceBlocks<uint32_t>;
template class SourceBlocks<uint64_t>;

}  // namespace tg::gpu
