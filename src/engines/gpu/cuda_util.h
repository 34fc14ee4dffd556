// Small CUDA helpers shared by the GPU engine's translation units: error
// checks that turn any CUDA failure into a one-line tg::Error, device arrays
// that free themselves, and a caching pool for frontiers and CUB's scratch.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include <cub/util_allocator.cuh>

#include "core/env_switch.h"
#include "core/error.h"

namespace tg::gpu {

// An allocation that failed (cudaMalloc, cudaHostAlloc) is kOutOfMemory: a
// MemoryError in Python, where it was a RuntimeError like any CUDA fault.
[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char* what, const char* file, int line) {
  const char* slash = std::strrchr(file, '/');
  throw Error(std::string("CUDA error: ") + cudaGetErrorString(e) + " (" + what + ", " + (slash ? slash + 1 : file) +
                  ":" + std::to_string(line) + ")",
              e == cudaErrorMemoryAllocation ? ErrorKind::kOutOfMemory : ErrorKind::kOther);
}

// Every CUDA call goes through TG_CUDA; every kernel launch is followed by
// TG_CUDA_CHECK_LAUNCH(), which catches bad launch configurations at once and
// asynchronous faults at the next synchronising call.
#define TG_CUDA(call)                                                                      \
  do {                                                                                     \
    cudaError_t tg_cuda_status_ = (call);                                                  \
    if (tg_cuda_status_ != cudaSuccess)                                                    \
      ::tg::gpu::throw_cuda_error(tg_cuda_status_, #call, __FILE__, __LINE__);             \
  } while (0)
#define TG_CUDA_CHECK_LAUNCH() TG_CUDA(cudaGetLastError())

constexpr int kWarp = 32;
constexpr int kBlock = 256;  // threads per block of every traversal kernel
constexpr int kWarpsPerBlock = kBlock / kWarp;

inline uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// With TG_GPU_POISON=1 in the environment (the GPU tests set it), every
// device allocation of the engine is filled with 0xA5 bytes first, so that a
// kernel that forgets to write an element cannot pass on a previous run's
// leftovers or on zeros.
inline bool poison_allocations() {
  static const bool on = env_switch("TG_GPU_POISON");
  return on;
}
inline void poison(void* p, size_t bytes) {
  if (poison_allocations() && p != nullptr && bytes > 0) TG_CUDA(cudaMemset(p, 0xA5, bytes));
}

// Blocks for a grid-stride kernel over `items` work items of `per_block`
// items each: enough to fill the GPU several times over, no more.
inline unsigned grid_for(uint64_t items, uint64_t per_block, int sms) {
  uint64_t wanted = div_up(items, per_block);
  uint64_t cap = static_cast<uint64_t>(sms) * 16;
  if (wanted > cap) wanted = cap;
  return static_cast<unsigned>(wanted < 1 ? 1 : wanted);
}

// Pins host memory in place for mapped (zero-copy) reads: read-only where the
// driver allows it, else plainly (the read-only flag is not supported
// everywhere); a refused first try's error is cleared. Returns the last
// try's status: memory already registered is not tried twice.
inline cudaError_t register_mapped_read_only(void* host, size_t bytes, unsigned flags = cudaHostRegisterMapped) {
  const cudaError_t e = cudaHostRegister(host, bytes, flags | cudaHostRegisterReadOnly);
  if (e == cudaSuccess || e == cudaErrorHostMemoryAlreadyRegistered) return e;
  cudaGetLastError();
  return cudaHostRegister(host, bytes, flags);
}

// Device memory from cudaMalloc, freed when the last copy goes away.
template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  static DeviceArray allocate(uint64_t n) {
    DeviceArray a;
    a.size_ = n;
    if (n == 0) return a;
    T* p = nullptr;
    TG_CUDA(cudaMalloc(&p, n * sizeof(T)));
    poison(p, n * sizeof(T));
    a.owner_ = std::shared_ptr<T>(p, [](T* q) { cudaFree(q); });
    return a;
  }
  T* data() const { return owner_.get(); }
  uint64_t size() const { return size_; }

 private:
  std::shared_ptr<T> owner_;
  uint64_t size_ = 0;
};

// Frontier queues, bitmaps and CUB's temporary storage come from a caching
// pool: a BFS level allocates several of them, and cudaMalloc/cudaFree would
// synchronise the device each time.
class ScratchPool {
 public:
  ScratchPool() : alloc_(std::make_shared<cub::CachingDeviceAllocator>(2u, 10u, 40u, ~size_t{0}, false)) {}

  // Raw bytes, returned to the pool when the shared_ptr is released.
  std::shared_ptr<void> get(size_t bytes) {
    if (bytes == 0) bytes = 1;
    void* p = nullptr;
    TG_CUDA(alloc_->DeviceAllocate(&p, bytes));
    poison(p, bytes);
    auto alloc = alloc_;
    return std::shared_ptr<void>(p, [alloc](void* q) { alloc->DeviceFree(q); });
  }
  template <typename T>
  std::shared_ptr<void> get_n(uint64_t n) {
    return get(n * sizeof(T));
  }

 private:
  std::shared_ptr<cub::CachingDeviceAllocator> alloc_;
};

// Runs a CUB device-wide algorithm: asks for its temporary storage size,
// takes that from the pool, and runs it.
template <typename F>
void run_cub(ScratchPool& pool, F&& f) {
  size_t bytes = 0;
  TG_CUDA(f(static_cast<void*>(nullptr), bytes));
  auto tmp = pool.get(bytes);
  TG_CUDA(f(tmp.get(), bytes));
}

}  // namespace tg::gpu
