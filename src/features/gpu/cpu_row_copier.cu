#include "features/gpu/cpu_row_copier.h"

#include <algorithm>

#include "engines/gpu/cuda_util.h"
#include "engines/gpu/device_scope.h"
#include "features/cpu_gather.h"

namespace tg::features {

CpuRowCopier::CpuRowCopier(int device) : device_(device) {
  gpu::DeviceScope scope(device);
  TG_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  for (cudaEvent_t& e : chunk_done_) TG_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  TG_CUDA(cudaEventCreate(&done_));  // timed: the store measures its side's rate by it
}

CpuRowCopier::~CpuRowCopier() {
  int previous = 0;
  cudaGetDevice(&previous);
  cudaSetDevice(device_);
  cudaStreamSynchronize(stream_);
  cudaFreeHost(pinned_);
  cudaFree(landing_);
  for (cudaEvent_t e : chunk_done_) cudaEventDestroy(e);
  cudaEventDestroy(done_);
  cudaStreamDestroy(stream_);
  cudaSetDevice(previous);
}

cudaEvent_t CpuRowCopier::copy(const HostMatrix& matrix, std::span<const int64_t> ids, uint8_t* to,
                               cudaEvent_t ready) {
  gpu::DeviceScope scope(device_);
  TG_CUDA(cudaStreamWaitEvent(stream_, ready, 0));
  const uint64_t row_bytes = matrix.row_bytes;
  const uint64_t chunk_rows = std::max<uint64_t>(1, kChunkBytes / std::max<uint64_t>(row_bytes, 1));
  const uint64_t chunk_bytes = chunk_rows * row_bytes;
  if (chunk_bytes > slot_bytes_) {  // first use, or rows wider than a chunk
    TG_CUDA(cudaStreamSynchronize(stream_));
    cudaFreeHost(pinned_);
    pinned_ = nullptr, slot_bytes_ = 0;
    TG_CUDA(cudaMallocHost(&pinned_, 2 * chunk_bytes));
    slot_bytes_ = chunk_bytes;
  }
  const auto* rows = static_cast<const uint8_t*>(matrix.data);
  for (uint64_t first = 0, chunk = 0; first < ids.size(); first += chunk_rows, ++chunk) {
    const uint64_t count = std::min<uint64_t>(chunk_rows, ids.size() - first);
    const int slot = static_cast<int>(chunk % 2);
    uint8_t* staging = pinned_ + slot * slot_bytes_;
    TG_CUDA(cudaEventSynchronize(chunk_done_[slot]));  // its last copy has read it
    gather_rows_cpu(rows, row_bytes, matrix.stride_bytes, ids.subspan(first, count), staging);
    TG_CUDA(cudaMemcpyAsync(to + first * row_bytes, staging, count * row_bytes, cudaMemcpyHostToDevice, stream_));
    TG_CUDA(cudaEventRecord(chunk_done_[slot], stream_));
  }
  TG_CUDA(cudaEventRecord(done_, stream_));
  return done_;
}

uint8_t* CpuRowCopier::landing(uint64_t bytes, cudaStream_t user) {
  if (bytes <= landing_bytes_) return landing_;
  gpu::DeviceScope scope(device_);
  TG_CUDA(cudaStreamSynchronize(user));  // its last reads of the old place
  TG_CUDA(cudaStreamSynchronize(stream_));
  cudaFree(landing_);
  landing_ = nullptr, landing_bytes_ = 0;
  TG_CUDA(cudaMalloc(&landing_, bytes));
  landing_bytes_ = bytes;
  return landing_;
}

}  // namespace tg::features
