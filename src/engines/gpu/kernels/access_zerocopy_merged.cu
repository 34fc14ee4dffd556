// The traversal kernels for Access::kMerged (pinned host memory, a warp per list), for every operator of the
// algorithm registry (instantiate.cuh).
#include "engines/gpu/kernels/instantiate.cuh"

TG_GPU_COMPILE_STEPS(kMerged)
