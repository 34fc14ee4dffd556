// How many sources' values the gather's warp and chunked passes hold in
// shared memory (kernels/gather.cuh, GatherArgs::staged_per_block), apart
// from the CUDA code so that host code and tests can ask without the CUDA
// headers.
//
// Why: PageRank in GPU memory, hubs first, reads its gathered values at the
// L2's random-read ceiling (docs/PERF.md, session 49). The first ids' values
// (the hubs') take a large share of the reads: on kron:25 the first 65536
// ids about 41% of them. A cluster of two blocks of 1024 threads holds them
// in its two shared memories (128 KiB each), every read of them served
// there (the partner's by distributed shared memory) instead of by the L2.
// A probe on the H100 (docs/PERF.md, session 50) read such a stream 1.24x
// faster than its best all-global form; one block's 32 K values alone, or a
// cluster of four, gained less. In the engine: H100 kron:25 hubs first
// 8.9-9.2 -> 8.1-8.35 ms an iteration.
#pragma once

#include <algorithm>
#include <cstdint>

namespace tg::gpu {

constexpr int kStagedCluster = 2;                // blocks a cluster, sharing their values
constexpr int kStagedBlock = 1024;               // threads a block: one block an SM
constexpr uint64_t kStagedBlockBytes = 128 * 1024;  // a block's share of the values

// Values a block holds: where the lists are in GPU memory (on a GPU that
// runs clusters) and the ids run hubs first, a block's bytes of them, both
// blocks' at most the graph's n. `forced` (TG_STAGED_VALUES: values a
// cluster, 0 off; negative where unset) sets the count wherever the gather
// is in GPU memory.
constexpr uint32_t staged_per_block_for(bool in_gpu_memory, bool numbered_by_degree, uint64_t n, uint64_t value_bytes,
                                        int64_t forced) {
  if (!in_gpu_memory) return 0;
  uint64_t per = numbered_by_degree ? kStagedBlockBytes / value_bytes : 0;
  if (forced >= 0) per = static_cast<uint64_t>(forced) / kStagedCluster;
  return static_cast<uint32_t>(std::min({per, n / kStagedCluster, kStagedBlockBytes / value_bytes}));
}

}  // namespace tg::gpu
