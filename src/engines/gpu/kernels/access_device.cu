// The traversal kernels for Access::kDevice (edges in GPU memory), for every operator of the
// algorithm registry (instantiate.cuh).
#include "engines/gpu/kernels/instantiate.cuh"

TG_GPU_COMPILE_STEPS(kDevice)
