// CUDA translation units whose host code runs OpenMP loops include this.
// nvcc hands -fopenmp to the host compiler only where CMake says so
// (src/CMakeLists.txt: every CUDA source of tiergraph_gpu); without it each
// `#pragma omp` is ignored without a word and the loop runs on one thread,
// as the several-GPU copy-back did until 2026-11-26 (0.6 s a root at kron:28).
#pragma once

#if !defined(__CUDA_ARCH__) && !defined(_OPENMP)
#error "this CUDA source runs OpenMP loops on the host: compile it with -Xcompiler=-fopenmp"
#endif

#include <cstddef>

namespace tg::gpu {

// Writes one byte a 4 KiB page of a fresh host array with all the host's
// threads, so its pages fault in side by side before cudaHostRegister, which
// would fault them in one thread. A byte a page and no more: the kernel
// clears each page as it maps it.
inline void fault_in_pages(void* data, size_t bytes) {
  constexpr size_t kPage = 4096;
  char* p = static_cast<char*>(data);
#pragma omp parallel for schedule(static)
  for (size_t at = 0; at < bytes; at += kPage) p[at] = 0;
}

}  // namespace tg::gpu
