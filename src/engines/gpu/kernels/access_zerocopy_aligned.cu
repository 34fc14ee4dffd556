// The traversal kernels for Access::kAligned (pinned host memory, a warp per list on 128-byte lines), for every operator of the
// algorithm registry (instantiate.cuh).
#include "engines/gpu/kernels/instantiate.cuh"

TG_GPU_COMPILE_STEPS(kAligned)
