// The GPU engine as the hybrid engine's accelerator (engines/hybrid/): the
// engine itself plus the exchange's copies, on two streams so that the
// copies down and up overlap, into pinned mirrors. A mirror is what the CPU
// threads read at random (PageRank's contributions), so it is a CPU array
// first: 2 MiB pages, touched by all threads, then pinned in place. Mirrors
// from cudaMallocHost (4 KiB pages) made the CPU side's gather 2.5x slower
// than the CPU engine's on kron:25: a TLB miss per read.
#pragma once

#include <cuda_runtime.h>

#include <omp.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "core/array.h"
#include "core/env_switch.h"
#include "engines/gpu/gpu_engine.cuh"
#include "engines/gpu/host_openmp.h"
#include "graph/huge_pages.h"
#include "engines/hybrid/hybrid_engine.h"

namespace tg::gpu {

template <typename V>
class GpuAccelerator : public GpuEngine<V> {
 public:
  GpuAccelerator(const DeviceGraph<V>& graph, const EdgeReads& reads) : GpuEngine<V>(graph, reads) {
    TG_CUDA(cudaGetDevice(&device_));
    TG_CUDA(cudaStreamCreateWithFlags(&down_, cudaStreamNonBlocking));
    TG_CUDA(cudaStreamCreateWithFlags(&up_, cudaStreamNonBlocking));
  }
  ~GpuAccelerator() {
    cudaStreamDestroy(down_);
    cudaStreamDestroy(up_);
  }

  void copy(void* dst, const void* src, size_t bytes, hybrid::CopyDirection d) {
    const bool down = d == hybrid::CopyDirection::kToHost;
    TG_CUDA(cudaMemcpyAsync(dst, src, bytes, down ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice, down ? down_ : up_));
  }
  void finish_copies() {
    TG_CUDA(cudaStreamSynchronize(down_));
    TG_CUDA(cudaStreamSynchronize(up_));
  }
  void finish_copies(hybrid::CopyDirection d) {
    TG_CUDA(cudaStreamSynchronize(d == hybrid::CopyDirection::kToHost ? down_ : up_));
  }
  std::shared_ptr<void> host_buffer(size_t bytes) {
    // Below a huge page: cudaMallocHost (a small heap block may share its
    // pages with others, which cudaHostRegister refuses).
    if (bytes < (size_t{2} << 20)) {
      void* p = nullptr;
      TG_CUDA(cudaMallocHost(&p, bytes > 0 ? bytes : 1));
      return std::shared_ptr<void>(p, [](void* q) { cudaFreeHost(q); });
    }
    // The parts' times under TG_HYBRID_TRACE: a run's first split gather pays them (docs/HYBRID.md).
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    auto array = std::make_shared<Array<unsigned char>>(allocate_huge<unsigned char>(bytes));
    unsigned char* p = array->data();
    const size_t size = array->size();
    // Faulted in by all threads, a write a 4 KiB page: the whole mirror is
    // copied down before the CPU side reads it (refresh_mirrors), so a memset
    // of every byte only wrote it a second time (134 MB on the 2-core VM:
    // memset 23.6-24.7 ms, a write a page 15.7-23.7).
    const auto t1 = Clock::now();
    fault_in_pages(p, size);
    const auto t2 = Clock::now();
    TG_CUDA(cudaHostRegister(p, size, cudaHostRegisterDefault));
    if (trace_) {
      const auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
      std::fprintf(stderr, "tg-hybrid mirror of %.1f MB: allocated %.3f ms, touched %.3f ms (%d threads), pinned %.3f ms\n",
                   size / 1e6, ms(t0, t1), ms(t1, t2), omp_get_max_threads(), ms(t2, Clock::now()));
    }
    return std::shared_ptr<void>(p, [array](void* q) { cudaHostUnregister(q); });
  }
  void enter_thread() { TG_CUDA(cudaSetDevice(device_)); }
  bool owns(uintptr_t address) const {
    if (address == 0) return false;
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, reinterpret_cast<const void*>(address)) != cudaSuccess) {
      cudaGetLastError();  // not a pointer CUDA knows: clear the error it left
      return false;
    }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
  }

 private:
  int device_ = 0;
  bool trace_ = env_switch("TG_HYBRID_TRACE");
  cudaStream_t down_ = nullptr, up_ = nullptr;
};

}  // namespace tg::gpu
