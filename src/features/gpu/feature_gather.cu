#include "features/gpu/feature_gather.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include <cub/device/device_radix_sort.cuh>

#include "core/host_mapping.h"
#include "engines/gpu/cuda_util.h"

namespace tg::features {
namespace {

using gpu::kBlock;
using gpu::kWarpsPerBlock;
constexpr uint64_t kLine = 128;

// One warp copies a row at a time. It walks the 128-byte lines that cover
// the row, from the line holding its first byte (Listing 3.2's circular
// shift: lane 0 starts at the aligned line, not at the row, so each warp load
// touches one line). Lane l takes bytes [4l, 4l + 4) of each line: a 4-byte
// word where the piece lies inside the row and source and destination agree
// modulo 4 (any row whose start and output slot are both 4-byte aligned, and
// half the rows of 2-byte types), single bytes at the row's ends otherwise.
//
// A warp takes kRows rows together and issues the loads of kLines lines of
// each before any store, so it keeps kRows x kLines requests on the link at
// once. Zero-copy reads wait microseconds each (address translation, the
// link), so with one request per warp a gather held to a tenth of the SMs
// stalls: on the H100, 4 KB rows went from 41.4 to 49.0 GB/s with 8 lines in
// flight. Short rows take several rows at a time instead: unrolling 8 lines
// over a 128-byte row cost it a third of its rate from GPU memory.
__device__ __forceinline__ uint64_t place(const GatherRequest& r, uint64_t i) {
  return r.positions != nullptr ? r.positions[i] : i;
}
__device__ __forceinline__ uint64_t row_of(const GatherRequest& r, uint64_t i) {
  return r.ids != nullptr ? static_cast<uint64_t>(r.ids[i]) : i;
}

template <int kRows, int kLines, typename Rows>
__global__ void gather_rows_kernel(Rows rows, GatherRequest r, uint64_t row_bytes) {
  const unsigned lane = threadIdx.x % 32;
  const uint64_t warps = uint64_t{gridDim.x} * kWarpsPerBlock;
  for (uint64_t base = (blockIdx.x * uint64_t{blockDim.x} + threadIdx.x) / 32 * kRows; base < r.count;
       base += warps * kRows) {
    uintptr_t begin[kRows], line[kRows];
    uint8_t* to[kRows];
    bool same_phase[kRows];
#pragma unroll
    for (int k = 0; k < kRows; ++k) {
      const uint64_t i = base + k < r.count ? base + k : base;  // past the end: a repeat of the first, not stored
      begin[k] = reinterpret_cast<uintptr_t>(rows(row_of(r, i)));
      line[k] = begin[k] & ~uintptr_t{kLine - 1};
      to[k] = r.out + place(r, i) * row_bytes;
      same_phase[k] = ((begin[k] ^ reinterpret_cast<uintptr_t>(to[k])) & 3) == 0;
    }
    // Every row spans at most row_bytes + 127 bytes from its first line.
    for (uint64_t offset = 0; offset < row_bytes + kLine - 1; offset += kLine * kLines) {
      uint32_t word[kRows][kLines];
#pragma unroll
      for (int k = 0; k < kRows; ++k)
#pragma unroll
        for (int j = 0; j < kLines; ++j) {
          const uintptr_t at = line[k] + offset + j * kLine + lane * 4;
          if (same_phase[k] && at >= begin[k] && at + 4 <= begin[k] + row_bytes)
            word[k][j] = *reinterpret_cast<const uint32_t*>(at);
        }
#pragma unroll
      for (int k = 0; k < kRows; ++k) {
        if (base + k >= r.count) break;
        const uintptr_t end = begin[k] + row_bytes;
#pragma unroll
        for (int j = 0; j < kLines; ++j) {
          const uintptr_t at = line[k] + offset + j * kLine + lane * 4;
          if (same_phase[k] && at >= begin[k] && at + 4 <= end) {
            *reinterpret_cast<uint32_t*>(to[k] + (at - begin[k])) = word[k][j];
          } else {
            const uintptr_t from = at > begin[k] ? at : begin[k], until = at + 4 < end ? at + 4 : end;
            for (uintptr_t b = from; b < until; ++b) to[k][b - begin[k]] = *reinterpret_cast<const uint8_t*>(b);
          }
        }
      }
    }
  }
}

// Where row `id` lies: the host table (zero-copy), or for a tiered table
// the tier its rank names (features/tier_place.h): this GPU's memory, a
// peer's, or the host table.
struct HostRows {
  RowTable t;
  __device__ const uint8_t* operator()(uint64_t id) const { return t.rows + id * t.stride_bytes; }
};
struct TieredRows {
  TieredTable t;
  __device__ const uint8_t* operator()(uint64_t id) const {
    const uint64_t rank = t.rank_of_row != nullptr ? t.rank_of_row[id] : id;
    const TierPlace p = place_of_rank(rank, t.bounds);
    switch (p.tier) {
      case Tier::kGpu: return t.local + p.slot * t.host.row_bytes;
      case Tier::kPeer: {
        // Constant indices only: a parameter array indexed by a variable may
        // be copied to local memory, a stack load per row.
        const uint8_t* base = t.peers[0];
#pragma unroll
        for (uint32_t i = 1; i < kMaxPeers; ++i)
          if (p.peer == i) base = t.peers[i];
        return base + p.slot * t.host.row_bytes;
      }
      default: return t.host.rows + id * t.host.stride_bytes;
    }
  }
};

// The baseline: a thread per 4-byte piece of the output, rows read wherever
// they start (misaligned rows split the warp's loads over two lines).
__global__ void gather_naive(RowTable t, GatherRequest r) {
  const uint64_t pieces = (t.row_bytes + 3) / 4, total = r.count * pieces;
  for (uint64_t p = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; p < total; p += uint64_t{gridDim.x} * blockDim.x) {
    const uint64_t i = p / pieces, first = (p % pieces) * 4;
    const uint8_t* row = t.rows + row_of(r, i) * t.stride_bytes;
    uint8_t* to = r.out + place(r, i) * t.row_bytes;
    for (uint64_t b = first; b < first + 4 && b < t.row_bytes; ++b) to[b] = row[b];
  }
}

__global__ void fill_order(uint32_t* order, uint64_t count) {
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < count; i += uint64_t{gridDim.x} * blockDim.x)
    order[i] = static_cast<uint32_t>(i);
}


int multiprocessors() {
  int device = 0, sms = 1;
  TG_CUDA(cudaGetDevice(&device));
  TG_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

// Blocks for `items` items of `per_block` each: enough to fill every SM
// several times over, no more, and no more than max_blocks where set.
unsigned blocks_for(uint64_t items, uint64_t per_block, int max_blocks) {
  const unsigned blocks = gpu::grid_for(items, per_block, multiprocessors());
  return max_blocks > 0 ? std::min(blocks, static_cast<unsigned>(max_blocks)) : blocks;
}

// Rows of up to two lines (three where misaligned): four rows a warp, all
// their lines at once; longer rows one at a time, eight lines at once.
constexpr uint64_t kShortRowBytes = 2 * kLine;
constexpr int kShortRowsPerWarp = 4, kShortRowLines = 3, kLongRowLines = 8;

template <typename Rows>
void launch_aligned(const Rows& rows, const GatherRequest& r, uint64_t row_bytes, int max_blocks, cudaStream_t stream) {
  if (row_bytes <= kShortRowBytes)
    gather_rows_kernel<kShortRowsPerWarp, kShortRowLines>
        <<<blocks_for(gpu::div_up(r.count, kShortRowsPerWarp), kWarpsPerBlock, max_blocks), kBlock, 0, stream>>>(
            rows, r, row_bytes);
  else
    gather_rows_kernel<1, kLongRowLines>
        <<<blocks_for(r.count, kWarpsPerBlock, max_blocks), kBlock, 0, stream>>>(rows, r, row_bytes);
  TG_CUDA_CHECK_LAUNCH();
}

// Ranges this process registered, with how many RegisteredHostRows use each:
// two stores over one array share the registration, and the first to go
// must not unregister memory the other still reads.
struct Registrations {
  std::mutex mutex;
  std::map<std::pair<void*, uint64_t>, int> users;
};
Registrations& registrations() {
  static Registrations r;
  return r;
}

}  // namespace

RegisteredHostRows::RegisteredHostRows(const void* data, uint64_t num_rows, uint64_t row_bytes,
                                       uint64_t stride_bytes) {
  table_ = {nullptr, num_rows, row_bytes, stride_bytes};
  if (num_rows == 0 || row_bytes == 0) return;
  host_ = const_cast<void*>(data);
  bytes_ = (num_rows - 1) * stride_bytes + row_bytes;
  Registrations& r = registrations();
  std::lock_guard<std::mutex> lock(r.mutex);
  // A range inside one this process registered (the same array, or a slice
  // of it) shares that registration.
  for (auto& [range, users] : r.users) {
    const auto* start = static_cast<const uint8_t*>(range.first);
    const auto* ours = static_cast<const uint8_t*>(host_);
    if (ours < start || ours + bytes_ > start + range.second) continue;
    void* device = nullptr;
    TG_CUDA(cudaHostGetDevicePointer(&device, host_, 0));
    ++users;
    shared_range_ = range;
    registered_here_ = true;
    table_.rows = static_cast<const uint8_t*>(device);
    return;
  }
  // Memory pinned by its owner already (cudaHostAlloc, a pinned torch tensor,
  // another store over the same array) is read through its own mapping.
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, host_) == cudaSuccess && attributes.type == cudaMemoryTypeHost &&
      attributes.devicePointer != nullptr) {
    table_.rows = static_cast<const uint8_t*>(attributes.devicePointer);
    return;
  }
  cudaGetLastError();  // older runtimes report plain pageable memory as an error
  // A private file mapping (np.memmap(mode="c")) is not pinned in place: that
  // took minutes on the lent H100 (core/host_mapping.h). Shared ones are.
  const bool private_file = host_mapping_at(host_) == HostMapping::kPrivateFile;
  const cudaError_t e = private_file ? cudaErrorNotSupported : gpu::register_mapped_read_only(host_, bytes_);
  void* device = nullptr;
  if (e == cudaSuccess) {
    if (const cudaError_t got = cudaHostGetDevicePointer(&device, host_, 0); got != cudaSuccess) {
      cudaHostUnregister(host_);
      TG_CUDA(got);
    }
    registered_here_ = true;
    shared_range_ = {host_, bytes_};
    r.users[shared_range_] = 1;
    table_.rows = static_cast<const uint8_t*>(device);
    return;
  }
  // The range shares a page with memory registered elsewhere (a small array
  // beside another on the heap), which CUDA refuses to register twice, or it
  // cannot be pinned in place (a read-only file mapping where read-only
  // registration is unsupported), or should not be (a private file mapping):
  // the rows are copied once into pinned memory of our own instead.
  const std::string why = private_file ? "a private file mapping" : cudaGetErrorString(e);
  cudaGetLastError();
  if (const cudaError_t a = cudaHostAlloc(&pinned_copy_, bytes_, cudaHostAllocMapped); a != cudaSuccess) {
    cudaGetLastError();
    pinned_copy_ = nullptr;
    throw Error("feature rows: " + std::to_string(bytes_) + " bytes can be neither registered in place (" + why +
                ") nor copied into pinned memory (" + cudaGetErrorString(a) + ")");
  }
  std::memcpy(pinned_copy_, host_, bytes_);
  copied_because_ = private_file ? "a private (copy-on-write) file mapping, too slow to pin in place: map the file shared"
                                 : "the range could not be registered in place: " + why;
  TG_CUDA(cudaHostGetDevicePointer(&device, pinned_copy_, 0));
  table_.rows = static_cast<const uint8_t*>(device);
}

RegisteredHostRows::~RegisteredHostRows() {
  if (pinned_copy_ != nullptr) cudaFreeHost(pinned_copy_);
  if (!registered_here_) return;
  Registrations& r = registrations();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.users.find(shared_range_);
  if (it == r.users.end() || --it->second > 0) return;
  r.users.erase(it);
  cudaHostUnregister(shared_range_.first);
}

int blocks_for_sm_share(double sm_fraction) {
  if (!(sm_fraction > 0.0) || sm_fraction >= 1.0) return 0;
  int per_sm = 1;
  TG_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gather_rows_kernel<1, kLongRowLines, TieredRows>,
                                                        kBlock, 0));
  const int sms = std::max(1, static_cast<int>(std::ceil(sm_fraction * multiprocessors())));
  return sms * std::max(per_sm, 1);
}

void gather_rows(const RowTable& table, const GatherRequest& r, GatherKernel kernel, int max_blocks,
                 cudaStream_t stream) {
  if (r.count == 0 || table.row_bytes == 0) return;
  if (kernel == GatherKernel::kAligned)
    launch_aligned(HostRows{table}, r, table.row_bytes, max_blocks, stream);
  else
    gather_naive<<<blocks_for(r.count * gpu::div_up(table.row_bytes, 4), kBlock, max_blocks), kBlock, 0, stream>>>(
        table, r);
  TG_CUDA_CHECK_LAUNCH();
}

void gather_tiered(const TieredTable& table, const GatherRequest& r, int max_blocks, cudaStream_t stream) {
  if (r.count == 0 || table.host.row_bytes == 0) return;
  launch_aligned(TieredRows{table}, r, table.host.row_bytes, max_blocks, stream);
}

namespace {

__global__ void tally_ids_kernel(TieredTable t, const int64_t* ids, uint64_t count, IdTally* tally) {
  unsigned gpu_hits = 0, peer_hits = 0, host_hits = 0, bad = 0;
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < count; i += uint64_t{gridDim.x} * blockDim.x) {
    const int64_t id = ids[i];
    if (id < 0 || static_cast<uint64_t>(id) >= t.host.num_rows) {
      ++bad;
      tally->an_out_of_range_id = id;  // any one of them: a plain store
      continue;
    }
    const uint64_t rank = t.rank_of_row != nullptr ? t.rank_of_row[id] : static_cast<uint64_t>(id);
    const Tier tier = place_of_rank(rank, t.bounds).tier;
    gpu_hits += tier == Tier::kGpu ? 1u : 0u;
    peer_hits += tier == Tier::kPeer ? 1u : 0u;
    host_hits += tier == Tier::kHost ? 1u : 0u;
  }
  gpu_hits = __reduce_add_sync(0xffffffffu, gpu_hits);
  peer_hits = __reduce_add_sync(0xffffffffu, peer_hits);
  host_hits = __reduce_add_sync(0xffffffffu, host_hits);
  bad = __reduce_add_sync(0xffffffffu, bad);
  if ((threadIdx.x & 31) != 0) return;
  if (gpu_hits) atomicAdd(&tally->gpu, gpu_hits);
  if (peer_hits) atomicAdd(&tally->peer, peer_hits);
  if (host_hits) atomicAdd(&tally->host, host_hits);
  if (bad) atomicAdd(&tally->out_of_range, bad);
}

}  // namespace

void tally_ids(const TieredTable& table, const int64_t* ids, uint64_t count, IdTally* tally, cudaStream_t stream) {
  TG_CUDA(cudaMemsetAsync(tally, 0, sizeof(IdTally), stream));
  if (count == 0) return;
  // Every warp whole (the reductions take all 32 lanes): the grid covers whole blocks.
  tally_ids_kernel<<<blocks_for(count, kBlock, 0), kBlock, 0, stream>>>(table, ids, count, tally);
  TG_CUDA_CHECK_LAUNCH();
}

AddressOrder::~AddressOrder() {
  cudaFree(ids_);
  cudaFree(order_);
  cudaFree(positions_);
  cudaFree(temp_);
}

void AddressOrder::reserve(uint64_t count, uint64_t num_rows, cudaStream_t stream) {
  end_bit_ = 1;
  while (end_bit_ < 63 && (uint64_t{1} << end_bit_) < num_rows) ++end_bit_;
  size_t temp_bytes = 0;
  TG_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, static_cast<const uint64_t*>(nullptr),
                                          static_cast<uint64_t*>(nullptr), static_cast<const uint32_t*>(nullptr),
                                          static_cast<uint32_t*>(nullptr), static_cast<int64_t>(count), 0, end_bit_,
                                          stream));
  if (count <= capacity_ && temp_bytes <= temp_bytes_) return;
  TG_CUDA(cudaStreamSynchronize(stream));  // the old buffers may still be read
  if (count > capacity_) {
    cudaFree(ids_);
    cudaFree(order_);
    cudaFree(positions_);
    ids_ = nullptr, order_ = positions_ = nullptr, capacity_ = 0;
    TG_CUDA(cudaMalloc(&ids_, count * sizeof(int64_t)));
    TG_CUDA(cudaMalloc(&order_, count * sizeof(uint32_t)));
    TG_CUDA(cudaMalloc(&positions_, count * sizeof(uint32_t)));
    capacity_ = count;
  }
  if (temp_bytes > temp_bytes_) {
    cudaFree(temp_);
    temp_ = nullptr, temp_bytes_ = 0;
    TG_CUDA(cudaMalloc(&temp_, temp_bytes));
    temp_bytes_ = temp_bytes;
  }
}

GatherRequest AddressOrder::sort(const GatherRequest& r, uint64_t num_rows, cudaStream_t stream) {
  if (r.count < 2) return r;
  if (r.count >= (uint64_t{1} << 32)) throw Error("a gather of 2^32 rows or more cannot be put in address order");
  reserve(r.count, num_rows, stream);
  fill_order<<<blocks_for(r.count, kBlock, 0), kBlock, 0, stream>>>(order_, r.count);
  TG_CUDA_CHECK_LAUNCH();
  // Ids below num_rows are non-negative: their bits sort as unsigned.
  size_t temp_bytes = temp_bytes_;
  TG_CUDA(cub::DeviceRadixSort::SortPairs(temp_, temp_bytes, reinterpret_cast<const uint64_t*>(r.ids),
                                          reinterpret_cast<uint64_t*>(ids_), order_, positions_,
                                          static_cast<int64_t>(r.count), 0, end_bit_, stream));
  return {ids_, positions_, r.count, r.out};
}

}  // namespace tg::features
