// How many source blocks a dense gather in GPU memory uses (source_blocks.h),
// apart from the CUDA code that builds them, so that host code and tests can
// ask without the CUDA headers.
#pragma once

#include <cstdint>

namespace tg::gpu {

// How many blocks a gather over n vertices' values should use: `requested`
// (GpuOptions::source_blocks) where it is 2 or more, none (1) where it is 1,
// and for 0 (auto) enough that a block's 4-byte values fill at most three
// quarters of an L2 of `l2_bytes`, at most kMaxSourceBlocks (1 where they
// already fit).
constexpr int kMaxSourceBlocks = 32;  // a lane each in the scatter
int source_blocks_for(int requested, uint64_t n, uint64_t l2_bytes);

}  // namespace tg::gpu
