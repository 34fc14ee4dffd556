// How many sources' values a gather's blocks stage in shared memory
// (kernels/gather.cuh, GatherArgs::staged_sources), apart from the CUDA code,
// so that host code and tests can ask without the CUDA headers.
#pragma once

#include <algorithm>
#include <cstdint>

namespace tg::gpu {

// The hubs' values, where the lists are in GPU memory (device or UVM: over a
// link the link is the bound) and the ids run hubs first: kStagedSourceBytes
// of them. `forced` (TG_STAGED_SOURCES, for experiments and tests; negative
// where unset) sets the count on any placement whose kernels stage (all but
// the naive one, a thread a list). At most the graph's n and
// kMaxStagedSourceBytes, what a block's shared memory holds.
constexpr uint64_t kStagedSourceBytes = 24 * 1024;
constexpr uint64_t kMaxStagedSourceBytes = 200 * 1024;
constexpr uint32_t staged_sources_for(bool in_gpu_memory, bool numbered_by_degree, bool kernels_stage, uint64_t n,
                                      uint64_t value_bytes, int64_t forced) {
  uint64_t count = in_gpu_memory && numbered_by_degree ? kStagedSourceBytes / value_bytes : 0;
  if (forced >= 0) count = static_cast<uint64_t>(forced);
  if (!kernels_stage) count = 0;
  return static_cast<uint32_t>(std::min({count, n, kMaxStagedSourceBytes / value_bytes}));
}

}  // namespace tg::gpu
