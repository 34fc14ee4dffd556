// What a BFS across GPUs returns, the same whether its ranks are threads of
// one process (multi_gpu_run.cu) or processes of mpirun (rank_run.cu): the
// depths by global id and the run's statistics.
#pragma once

#include <chrono>
#include <cstdint>

#include "engines/run.h"

namespace tg::dist::gpu {

inline double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

struct BfsTimes {
  double partition_s = 0;
  double transfer_s = 0;
  double compute_s = 0;  // the slowest rank's, source to last level
  double copy_back_s = 0;
};

// stats.levels are the per-level records already combined over ranks.
RunOutput bfs_output(const AnyGraph& graph, ResultVector<int32_t> depth, DistributedStats stats, const BfsTimes& times,
                     uint64_t placed_bytes);

}  // namespace tg::dist::gpu
