#include "features/gpu/feature_gather.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "engines/gpu/cuda_util.h"

namespace tg::features {
namespace {

constexpr int kBlock = 256;
constexpr int kWarpsPerBlock = kBlock / 32;
constexpr uint64_t kLine = 128;

// One warp copies one row. It walks the 128-byte lines that cover the row,
// from the line holding its first byte (Listing 3.2's circular shift: lane 0
// starts at the aligned line, not at the row, so each warp load touches one
// line). Lane l takes bytes [4l, 4l + 4) of each line: a 4-byte word where
// the piece lies inside the row and source and destination agree modulo 4
// (any row whose start and output slot are both 4-byte aligned, and half the
// rows of 2-byte types), single bytes at the row's ends otherwise.
__device__ __forceinline__ void copy_row(const uint8_t* row, uint64_t row_bytes, uint8_t* to, unsigned lane) {
  const uintptr_t begin = reinterpret_cast<uintptr_t>(row), end = begin + row_bytes;
  const bool same_phase = ((begin ^ reinterpret_cast<uintptr_t>(to)) & 3) == 0;
  for (uintptr_t line = begin & ~uintptr_t{kLine - 1}; line < end; line += kLine) {
    const uintptr_t at = line + lane * 4;
    if (same_phase && at >= begin && at + 4 <= end) {
      *reinterpret_cast<uint32_t*>(to + (at - begin)) = *reinterpret_cast<const uint32_t*>(at);
    } else {
      const uintptr_t from = at > begin ? at : begin, until = at + 4 < end ? at + 4 : end;
      for (uintptr_t b = from; b < until; ++b) to[b - begin] = *reinterpret_cast<const uint8_t*>(b);
    }
  }
}

__global__ void gather_aligned(RowTable t, const int64_t* ids, uint64_t count, uint8_t* out) {
  const unsigned lane = threadIdx.x % 32;
  const uint64_t warps = uint64_t{gridDim.x} * kWarpsPerBlock;
  for (uint64_t i = (blockIdx.x * uint64_t{blockDim.x} + threadIdx.x) / 32; i < count; i += warps)
    copy_row(t.rows + static_cast<uint64_t>(ids[i]) * t.stride_bytes, t.row_bytes, out + i * t.row_bytes, lane);
}

// The same copy, each row read from the tier that holds it: the hot table
// (device memory, packed in slot order) where slot_of_row says so, the host
// table (zero-copy) otherwise.
__global__ void gather_tiered_rows(TieredTable t, const int64_t* ids, uint64_t count, uint8_t* out) {
  const unsigned lane = threadIdx.x % 32;
  const uint64_t warps = uint64_t{gridDim.x} * kWarpsPerBlock;
  for (uint64_t i = (blockIdx.x * uint64_t{blockDim.x} + threadIdx.x) / 32; i < count; i += warps) {
    const uint64_t id = static_cast<uint64_t>(ids[i]);
    const int64_t slot = t.slot_of_row[id];
    const uint8_t* row = slot >= 0 ? t.hot + static_cast<uint64_t>(slot) * t.host.row_bytes
                                   : t.host.rows + id * t.host.stride_bytes;
    copy_row(row, t.host.row_bytes, out + i * t.host.row_bytes, lane);
  }
}

// The baseline: a thread per 4-byte piece of the output, rows read wherever
// they start (misaligned rows split the warp's loads over two lines).
__global__ void gather_naive(RowTable t, const int64_t* ids, uint64_t count, uint8_t* out) {
  const uint64_t pieces = (t.row_bytes + 3) / 4, total = count * pieces;
  for (uint64_t p = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; p < total; p += uint64_t{gridDim.x} * blockDim.x) {
    const uint64_t i = p / pieces, first = (p % pieces) * 4;
    const uint8_t* row = t.rows + static_cast<uint64_t>(ids[i]) * t.stride_bytes;
    for (uint64_t b = first; b < first + 4 && b < t.row_bytes; ++b) out[i * t.row_bytes + b] = row[b];
  }
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
  uint64_t blocks = std::min<uint64_t>(gpu::div_up(items, per_block), static_cast<uint64_t>(multiprocessors()) * 16);
  if (max_blocks > 0) blocks = std::min<uint64_t>(blocks, static_cast<uint64_t>(max_blocks));
  return static_cast<unsigned>(std::max<uint64_t>(blocks, 1));
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
  cudaError_t e = cudaHostRegister(host_, bytes_, cudaHostRegisterMapped | cudaHostRegisterReadOnly);
  if (e != cudaSuccess && e != cudaErrorHostMemoryAlreadyRegistered) {
    cudaGetLastError();  // read-only registration is not everywhere (as placed_graph.cu)
    e = cudaHostRegister(host_, bytes_, cudaHostRegisterMapped);
  }
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
  // registration is unsupported): the rows are copied once into pinned
  // memory of our own instead.
  const std::string why = cudaGetErrorString(e);
  cudaGetLastError();
  if (const cudaError_t a = cudaHostAlloc(&pinned_copy_, bytes_, cudaHostAllocMapped); a != cudaSuccess) {
    cudaGetLastError();
    pinned_copy_ = nullptr;
    throw Error("feature rows: " + std::to_string(bytes_) + " bytes can be neither registered in place (" + why +
                ") nor copied into pinned memory (" + cudaGetErrorString(a) + ")");
  }
  std::memcpy(pinned_copy_, host_, bytes_);
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
  TG_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gather_tiered_rows, kBlock, 0));
  const int sms = std::max(1, static_cast<int>(std::ceil(sm_fraction * multiprocessors())));
  return sms * std::max(per_sm, 1);
}

void gather_rows(const RowTable& table, const int64_t* ids, uint64_t count, uint8_t* out, GatherKernel kernel,
                 int max_blocks, cudaStream_t stream) {
  if (count == 0 || table.row_bytes == 0) return;
  if (kernel == GatherKernel::kAligned)
    gather_aligned<<<blocks_for(count, kWarpsPerBlock, max_blocks), kBlock, 0, stream>>>(table, ids, count, out);
  else
    gather_naive<<<blocks_for(count * gpu::div_up(table.row_bytes, 4), kBlock, max_blocks), kBlock, 0, stream>>>(
        table, ids, count, out);
  TG_CUDA_CHECK_LAUNCH();
}

void gather_tiered(const TieredTable& table, const int64_t* ids, uint64_t count, uint8_t* out, int max_blocks,
                   cudaStream_t stream) {
  if (count == 0 || table.host.row_bytes == 0) return;
  gather_tiered_rows<<<blocks_for(count, kWarpsPerBlock, max_blocks), kBlock, 0, stream>>>(table, ids, count, out);
  TG_CUDA_CHECK_LAUNCH();
}

}  // namespace tg::features
