#include "features/gpu/feature_gather.h"

#include <algorithm>

#include "engines/gpu/cuda_util.h"

namespace tg::features {
namespace {

constexpr int kBlock = 256;
constexpr int kWarpsPerBlock = kBlock / 32;
constexpr uint64_t kLine = 128;

// A warp per row. The warp walks the 128-byte lines that cover the row, from
// the line holding its first byte; lane l reads bytes [4l, 4l + 4) of each
// line, or fewer at the row's ends. With 4-byte aligned rows a lane moves one
// word per line; otherwise bytes, still one line per warp load.
__global__ void gather_aligned(RowTable t, const int64_t* ids, uint64_t count, uint8_t* out) {
  const unsigned lane = threadIdx.x % 32;
  const uint64_t warps = uint64_t{gridDim.x} * kWarpsPerBlock;
  const bool words = ((reinterpret_cast<uintptr_t>(t.rows) | t.stride_bytes | t.row_bytes) & 3) == 0;
  for (uint64_t i = (blockIdx.x * uint64_t{blockDim.x} + threadIdx.x) / 32; i < count; i += warps) {
    const uint8_t* row = t.rows + static_cast<uint64_t>(ids[i]) * t.stride_bytes;
    uint8_t* to = out + i * t.row_bytes;
    const uintptr_t begin = reinterpret_cast<uintptr_t>(row), end = begin + t.row_bytes;
    for (uintptr_t line = begin & ~uintptr_t{kLine - 1}; line < end; line += kLine) {
      const uintptr_t at = line + lane * 4;
      if (words) {
        if (at >= begin && at < end) *reinterpret_cast<uint32_t*>(to + (at - begin)) = *reinterpret_cast<const uint32_t*>(at);
      } else {
        for (uintptr_t b = at; b < at + 4; ++b)
          if (b >= begin && b < end) to[b - begin] = *reinterpret_cast<const uint8_t*>(b);
      }
    }
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

}  // namespace

RegisteredHostRows::RegisteredHostRows(const void* data, uint64_t num_rows, uint64_t row_bytes,
                                       uint64_t stride_bytes) {
  table_ = {nullptr, num_rows, row_bytes, stride_bytes};
  if (num_rows == 0 || row_bytes == 0) return;
  host_ = const_cast<void*>(data);
  const uint64_t bytes = (num_rows - 1) * stride_bytes + row_bytes;
  cudaError_t e = cudaHostRegister(host_, bytes, cudaHostRegisterMapped | cudaHostRegisterReadOnly);
  if (e != cudaSuccess && e != cudaErrorHostMemoryAlreadyRegistered) {
    cudaGetLastError();  // read-only registration is not everywhere (as placed_graph.cu)
    e = cudaHostRegister(host_, bytes, cudaHostRegisterMapped);
  }
  if (e == cudaErrorHostMemoryAlreadyRegistered) {
    cudaGetLastError();  // someone pinned it already: use it as it is
  } else {
    TG_CUDA(e);
    registered_here_ = true;
  }
  void* device = nullptr;
  TG_CUDA(cudaHostGetDevicePointer(&device, host_, 0));
  table_.rows = static_cast<const uint8_t*>(device);
}

RegisteredHostRows::~RegisteredHostRows() {
  if (registered_here_) cudaHostUnregister(host_);
}

void gather_rows(const RowTable& table, const int64_t* ids, uint64_t count, uint8_t* out, GatherKernel kernel,
                 int max_blocks, cudaStream_t stream) {
  if (count == 0 || table.row_bytes == 0) return;
  int device = 0, sms = 1;
  TG_CUDA(cudaGetDevice(&device));
  TG_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  uint64_t blocks = kernel == GatherKernel::kAligned ? gpu::div_up(count, kWarpsPerBlock)
                                                     : gpu::div_up(count * gpu::div_up(table.row_bytes, 4), kBlock);
  blocks = std::min<uint64_t>(blocks, static_cast<uint64_t>(sms) * 16);
  if (max_blocks > 0) blocks = std::min<uint64_t>(blocks, static_cast<uint64_t>(max_blocks));
  if (kernel == GatherKernel::kAligned)
    gather_aligned<<<static_cast<unsigned>(blocks), kBlock, 0, stream>>>(table, ids, count, out);
  else
    gather_naive<<<static_cast<unsigned>(blocks), kBlock, 0, stream>>>(table, ids, count, out);
  TG_CUDA_CHECK_LAUNCH();
}

}  // namespace tg::features
