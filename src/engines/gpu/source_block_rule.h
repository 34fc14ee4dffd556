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

// Auto's second look, once the entries are counted by block: none where at
// least 3/4 of the `entries` read the first block's sources (a graph numbered
// hubs first, --vertex-order degree: one pass then reads most values from the
// L2, and more passes cost more than the misses they spare; kron:25 on the
// H100, 9.4 ms an iteration in one pass against 10.9 in 4 blocks). Spread
// evenly, the first of B >= 2 blocks holds 1/B <= 1/2 of them.
constexpr bool crowded_in_first_block(uint64_t first_block_entries, uint64_t entries) {
  return entries > 0 && first_block_entries >= entries - entries / 4;
}

}  // namespace tg::gpu
