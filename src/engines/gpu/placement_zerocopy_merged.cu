// Placement `zerocopy-merged`: edges in pinned host memory, a warp per neighbour list.
// The traversal kernels of edge_kernels.cuh, compiled for this access pattern
// and the operators of algorithms/operators.h, for 4- and 8-byte vertex ids.
#include "algorithms/operators.h"
#include "engines/gpu/edge_kernels.cuh"

#define TG_GPU_ACCESS ::tg::gpu::Access::kMerged
TG_GPU_INSTANTIATE_PLACEMENT()
