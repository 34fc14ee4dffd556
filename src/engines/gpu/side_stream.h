// A stream of one GPU's own for work that a caller's stream (a trainer's:
// torch's current one) consumes: the feature store's gathers, the GPU
// sampler's hops. They are ordered by events, not host waits, so the caller
// keeps queueing its own work while they run.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <memory>

#include "engines/gpu/cuda_util.h"
#include "engines/gpu/device_scope.h"

namespace tg::gpu {

// Declare it after the memory its work uses: members go in reverse order,
// so it waits for that work before the memory is freed.
class SideStream {
 public:
  explicit SideStream(int device) : device_(device) {
    DeviceScope scope(device);
    TG_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    TG_CUDA(cudaEventCreateWithFlags(&caller_ready_, cudaEventDisableTiming));
    TG_CUDA(cudaEventCreateWithFlags(&results_ready_, cudaEventDisableTiming));
    TG_CUDA(cudaEventCreateWithFlags(&marked_, cudaEventDisableTiming));
  }
  ~SideStream() {
    int previous = 0;
    cudaGetDevice(&previous);
    cudaSetDevice(device_);
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
    cudaEventDestroy(caller_ready_);
    cudaEventDestroy(results_ready_);
    cudaEventDestroy(marked_);
    cudaSetDevice(previous);
  }
  SideStream(const SideStream&) = delete;
  SideStream& operator=(const SideStream&) = delete;

  cudaStream_t get() const { return stream_; }

  // This stream's next work waits for what `caller` has queued so far: what
  // it wrote (ids, seeds), and its reads of memory a caching allocator may
  // hand out again at once.
  void wait_for(cudaStream_t caller) {
    TG_CUDA(cudaEventRecord(caller_ready_, caller));
    TG_CUDA(cudaStreamWaitEvent(stream_, caller_ready_, 0));
  }
  // `caller`'s next work waits for what this stream has queued so far.
  void release_to(cudaStream_t caller) {
    TG_CUDA(cudaEventRecord(results_ready_, stream_));
    TG_CUDA(cudaStreamWaitEvent(caller, results_ready_, 0));
  }
  // A mark after the work queued so far, which the host waits for later
  // (wait_for_mark) while more work is queued behind it.
  void mark() { TG_CUDA(cudaEventRecord(marked_, stream_)); }
  void wait_for_mark() { TG_CUDA(cudaEventSynchronize(marked_)); }

 private:
  int device_ = 0;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t caller_ready_ = nullptr, results_ready_ = nullptr, marked_ = nullptr;
};

// Pinned host memory for `count` values of T (counts read back without a
// pageable copy's staging), freed with its last owner.
template <typename T>
std::shared_ptr<T> pinned_array(size_t count) {
  void* p = nullptr;
  TG_CUDA(cudaMallocHost(&p, count * sizeof(T)));
  return std::shared_ptr<T>(static_cast<T*>(p), [](T* q) { cudaFreeHost(q); });
}

}  // namespace tg::gpu
