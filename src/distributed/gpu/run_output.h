// What a run across GPUs returns, the same whether its ranks are threads of
// one process (multi_gpu_run.cu) or processes of mpirun (rank_run.cu): the
// values by global id and the run's statistics.
#pragma once

#include <chrono>
#include <cstdint>

#include "core/seconds_since.h"
#include "engines/run.h"

namespace tg::dist::gpu {

struct RunTimes {
  double partition_s = 0;
  double transfer_s = 0;
  double compute_s = 0;  // the slowest rank's, source to last level
  double copy_back_s = 0;
};

// stats.levels are the per-level records already combined over ranks;
// edges_pushed, the edges every rank pushed along (CC, PageRank: a BFS's
// are counted from its depths, as the one-GPU engine counts them).
RunOutput distributed_output(const AnyGraph& graph, const AlgorithmInfo& algorithm, VertexValues values,
                             DistributedStats stats, const RunTimes& times, uint64_t placed_bytes, uint64_t edges_pushed,
                             double residual);

}  // namespace tg::dist::gpu
