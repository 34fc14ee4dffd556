// The traversal kernels for Access::kNaive (pinned host memory, a thread per list), for every operator of the
// algorithm registry (instantiate.cuh).
#include "engines/gpu/kernels/instantiate.cuh"

TG_GPU_COMPILE_STEPS(kNaive)
