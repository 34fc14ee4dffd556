// CUDA translation units whose host code runs OpenMP loops include this.
// nvcc hands -fopenmp to the host compiler only where CMake says so
// (src/CMakeLists.txt: every CUDA source of tiergraph_gpu); without it each
// `#pragma omp` is ignored without a word and the loop runs on one thread,
// as the several-GPU copy-back did until 2026-11-26 (0.6 s a root at kron:28).
#pragma once

#if !defined(__CUDA_ARCH__) && !defined(_OPENMP)
#error "this CUDA source runs OpenMP loops on the host: compile it with -Xcompiler=-fopenmp"
#endif
