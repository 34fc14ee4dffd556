// What a rank records of each level (BFS) or round (CC, PageRank) over the
// degree-separated partition, and how the ranks' records combine into the
// run's statistics (DistributedStats::levels): the slowest rank's times, the
// fastest's compute and communication, every rank's counts summed. One
// definition for both drivers: the threads of one process combine their
// records in a loop (gpu/multi_gpu_run.cu), the processes of mpirun by three
// allreduces of the packed arrays (gpu/rank_run.cu).
#pragma once

#include <cstdint>
#include <vector>

#include "engines/run_stats.h"

namespace tg::dist::gpu {

// One level (BFS) or round (CC, PageRank) as this rank saw it.
struct LevelRecord {
  double compute_s = 0;        // kernels
  double communication_s = 0;  // NCCL (waits for slower ranks included)
  uint64_t bytes_sent = 0;     // this rank's payload
  uint64_t normals_received = 0;
  uint32_t delegate_frontier = 0;  // delegates active this level (the same on every rank)
  bool pulled = false;             // BFS: the delegates' edges bottom-up on this rank
  bool normals_pulled = false;     // BFS: the normal frontier bottom-up too (on every rank)
  // BFS: how the level crossed ranks, the same on every rank (DistributedLevel::exchange).
  const char* exchange = "";
  // BFS: the edges of the frontiers entering the level, the inputs of the
  // directions: this rank's dn and dd edges of the delegate frontier, every
  // rank's nn and nd edges of the normal frontier (as announced).
  uint64_t delegate_frontier_edges = 0, normal_frontier_edges = 0;
  // BFS: compute_s by phase (the normals' expansion or pull; the delegates'
  // degree scan, host read of its total and push or pull; the visit of the
  // normals received; the delegates' settle), to find where a level goes.
  double normals_s = 0, delegates_s = 0, visit_s = 0, settle_s = 0;
  // BFS: communication_s by phase (the normals' counts and queues; the
  // reached delegates' mask, or a quiet level's announcements; the normal
  // frontier's bits).
  double normals_exchange_s = 0, delegates_exchange_s = 0, frontier_share_s = 0;
  // Where the part is in host memory (zero-copy): the bytes of the lists
  // this level's kernels read whole (PageRank: all four, every round), and
  // the time of those kernels. The link carried at least these bytes (whole
  // 32-byte sectors), so bytes over time is a lower bound on its rate.
  uint64_t host_bytes_read = 0;
  double host_read_s = 0;
};

struct RankRunRecord {
  double seconds = 0;  // first level to last, CUDA events on this rank
  std::vector<LevelRecord> levels;
  uint64_t edges = 0;   // edges this rank pushed along (CC, SSSP, PageRank; BFS counts from its depths)
  double residual = 0;  // PageRank: the last L1 change over the scores' sum
};

}  // namespace tg::dist::gpu

namespace tg::dist {

// A rank's levels as three arrays, each reduced element by element across the
// ranks: by maximum, by minimum, by sum.
struct PackedLevels {
  std::vector<double> slowest;
  std::vector<double> fastest;
  std::vector<uint64_t> summed;
  size_t levels = 0;
};
PackedLevels pack_levels(const std::vector<gpu::LevelRecord>& levels);
// Another rank's into `into` (a rank with fewer levels adds nothing to the
// others; every driver stops all ranks at the same level).
void reduce_levels(PackedLevels& into, const PackedLevels& other);
// The reduced arrays as the run's levels; what every rank holds alike (the
// delegate frontier, whether the normals pulled, the normal frontier's edges)
// from `any_rank`'s records.
std::vector<DistributedLevel> unpack_levels(const PackedLevels& reduced, const std::vector<gpu::LevelRecord>& any_rank);

}  // namespace tg::dist
