// The traversal kernels for Access::kUvm (edges in managed memory, pages counted), for every operator of the
// algorithm registry (instantiate.cuh).
#include "engines/gpu/kernels/instantiate.cuh"

TG_GPU_COMPILE_STEPS(kUvm)
