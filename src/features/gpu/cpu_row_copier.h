// The CPU's side of a shared gather (features/cpu_share.h): rows gathered by
// OpenMP threads into pinned memory a chunk at a time, each chunk copied to
// GPU memory by the copy engine on a stream of its own while the threads
// gather the next, and while the gather kernel reads its own rows by
// zero-copy on the store's stream.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <span>

#include "features/gpu_tiers.h"

namespace tg::features {

class CpuRowCopier {
 public:
  explicit CpuRowCopier(int device);
  ~CpuRowCopier();  // after its copies
  CpuRowCopier(const CpuRowCopier&) = delete;
  CpuRowCopier& operator=(const CpuRowCopier&) = delete;

  // Rows ids[i] of `matrix` (ids must be rows) written packed at `to` (GPU
  // memory), after `ready` (an event of the stream that owns `to`). Returns
  // once the threads have gathered every row and the last copy is queued;
  // the copies are complete when the returned event is.
  cudaEvent_t copy(const HostMatrix& matrix, std::span<const int64_t> ids, uint8_t* to, cudaEvent_t ready);
  // GPU memory of this copier's for `bytes` (grown as asked, after the
  // queued work of `user`, its one reader): a landing place for rows that are
  // then moved into their places on the GPU. A copy() into it is ordered
  // after the previous reads by its `ready` event, recorded on `user`.
  uint8_t* landing(uint64_t bytes, cudaStream_t user);

  // Pinned chunks: two, so the threads fill one while the other crosses.
  static constexpr uint64_t kChunkBytes = uint64_t{8} << 20;

 private:
  int device_ = 0;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t chunk_done_[2] = {};  // each pinned chunk's last copy
  cudaEvent_t done_ = nullptr;
  uint8_t* pinned_ = nullptr;  // two slots of slot_bytes_
  uint64_t slot_bytes_ = 0;
  uint8_t* landing_ = nullptr;
  uint64_t landing_bytes_ = 0;
};

}  // namespace tg::features
