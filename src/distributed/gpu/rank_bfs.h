// BFS on one rank of a degree-separated partition, its GPU and its NCCL
// communicator: the level loop of Pan, Pearce and Owens (IPDPS 2018, Section
// V) that tests/distributed/partition_bfs_test.cc runs on the host, here with
// CUDA kernels and NCCL. The same object serves a thread of `--gpus N` and,
// later, a process of `mpirun`: it needs its RankGraph, its device current,
// and a communicator whose other ranks run the same calls.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "distributed/gpu/bfs_kernels.cuh"
#include "distributed/gpu/device_rank_graph.h"
#include "distributed/gpu/rank_program.h"
#include "distributed/partition.h"
#include "distributed/small_levels.h"

namespace tg::dist::gpu {

class RankBfs : public RankProgram {
 public:
  // Uploads the rank's part onto the current device; refuses (one line) when
  // it and the BFS's state do not fit the device's free memory. Levels go
  // bottom-up where it pays only when the graph is undirected (`symmetric`):
  // then the reverse of every edge is on the same rank.
  RankBfs(const RankGraph& graph, ncclComm_t comm, bool symmetric, PartMemory where = PartMemory::kDevice);
  // Over a part another program placed (CC's seeding BFS, rank_relax.h),
  // which counted this program's state in its own fit.
  RankBfs(const RankGraph& graph, ncclComm_t comm, bool symmetric, std::shared_ptr<const DeviceRankGraph> placed);
  ~RankBfs() override;
  RankBfs(const RankBfs&) = delete;
  RankBfs& operator=(const RankBfs&) = delete;

  void warm_up() override;
  // Every rank runs the same request: its source a global id.
  RankRunRecord run(const RunRequest& request) override {
    push_only_ = request.options.push_only;
    return run(request.source());
  }
  RankRunRecord run(uint64_t source);
  // Depths of this rank's normal vertices (local ids) and of every delegate.
  RankResult result() const override;
  // The same on the device, until the next run.
  const int32_t* normal_depth() const { return normal_depth_.data(); }
  const int32_t* delegate_depth() const { return delegate_depth_.data(); }

 private:
  void reset(uint64_t source);
  uint64_t exchange_normals(BfsLevel& s);  // returns the slots received
  bool no_rank_reached_delegates() const;  // after exchange_normals: the level is quiet (bfs_kernels.cuh)
  void share_quiet();                      // a quiet level's announcements in place of the mask
  void exchange_reached();                 // every rank's reached mask gathered into each
  GatheredReached gathered_reached(bool small) const;  // where the settle reads them (one rank: its byte mask)
  // A level whose normal frontier is small enough that a bound on its
  // queues is known before it expands (the tail levels, the first ones)
  // sends every queue at that fixed length with its mask, in one group, and
  // no rank waits for the queues' lengths (rank_bfs.cu).
  static constexpr uint64_t kSmallLevelRoom = 1u << 15, kNotSmall = dist::kNotSmall;
  uint64_t small_level_room() const;
  uint64_t small_level_queue(const NormalFrontierSize& frontier, int32_t level) const;
  // Past the run's peak a small level is a tail level: its queues at the
  // fixed length with the rows of lengths alone (`with_mask` false); the
  // mask follows only where some rank reached a delegate (settle_tail_level).
  // TG_MGPU_TAIL_LEVELS=0 sends those levels as quiet ones (the queues'
  // lengths first), as before 2026-11-27 (A/B).
  void exchange_small_level(uint64_t fixed, bool with_mask);
  void settle_tail_level(BfsLevel& s);
  uint64_t small_capacity_ = 0;  // agreed by the ranks at the warm-up
  bool tail_levels_ = true;
  // Whether this level pulls the normal frontier too, from what the ranks
  // announced of it (the same answer on every rank), and the bits it pulls by.
  bool choose_normals_pull(const NormalFrontierSize& frontier);
  const uint32_t* share_visited_normals(const BfsLevel& s);
  void place_delegate_degrees();
  tg::gpu::DeviceArray<uint32_t> delegate_degree_;  // empty: the settle reads the offsets

  const RankGraph& host_;
  ncclComm_t comm_;
  bool symmetric_;
  bool push_only_ = false;  // this run's levels all top-down (AlgorithmOptions::push_only)
  // Events 0-5 and 8-13 mark a level's phases (marks in run()), 6 and 7 the run's ends.
  static constexpr int kRunStart = 6, kRunStop = 7, kDelegatesStart = 8, kFrontierShareStart = 9, kFrontierShareStop = 10,
                       kTailMaskStart = 11, kTailSettleStart = 12, kTailSettleStop = 13;
  RankStream stream_{14};
  std::shared_ptr<const DeviceRankGraph> graph_;
  tg::gpu::ScratchPool pool_;
  tg::gpu::DeviceArray<int32_t> normal_depth_, delegate_depth_;
  tg::gpu::DeviceArray<uint8_t> reached_;
  // The reached mask crosses ranks as bits: P segments of segment_words_
  // (the mask's bits and the normals flag at bit d, then at announce_at_ the
  // rank's NormalFrontierSize, at counts_at_ its row of the counts), packed
  // at the end of a level's expansion, gathered, then OR-ed as the settle
  // reads them (bfs_kernels.cuh says why).
  uint64_t segment_words_ = 0, announce_at_ = 0, counts_at_ = 0;
  uint64_t reduce_over_ranks(uint64_t mine, ncclRedOp_t op);  // the warm-up's agreements (a host sync)
  tg::gpu::DeviceArray<uint32_t> reached_bits_;
  uint32_t* my_segment() const { return reached_bits_.data() + static_cast<uint64_t>(host_.rank) * segment_words_; }
  // The normals' direction (choose_normals_pull): every rank's visited
  // normals as bits by slot, P segments of normal_words_ (sent_bits_'s layout); every normal edge
  // of the graph (nn and nd), and those not yet
  // explored top-down. TG_MGPU_NORMALS_PULL=always|never overrides the
  // rule (tests).
  tg::gpu::DeviceArray<uint32_t> visited_normal_bits_;
  uint64_t normal_words_ = 0;
  uint64_t normal_edges_ = 0, normal_edges_unexplored_ = 0;
  bool pulled_normals_last_ = false;
  uint64_t last_normal_frontier_edges_ = 0;
  tg::gpu::DeviceArray<uint32_t> frontier_bits_;  // the delegate frontier as bits, for bottom-up levels
  tg::gpu::DeviceArray<uint32_t> normals_[2], delegates_[2];
  tg::gpu::DeviceArray<eid_t> scan_;
  tg::gpu::DeviceArray<uint32_t> sent_bits_, send_, receive_, count_matrix_;
  // The level's totals (bfs_kernels.cuh), and their pinned twin, read back in one copy.
  tg::gpu::DeviceArray<LevelTotals> totals_;
  LevelTotals* pinned_totals_ = nullptr;
  uint32_t* counters() const { return totals_.data()->counters; }
  NormalFrontierSize* announced_sum() const { return &totals_.data()->announced; }
  // This rank's row of the count exchange: its P queue lengths, then whether
  // it reached a delegate this level (count_row_ = P + 1 words); in its
  // segment on several ranks, so that a small level sends it with the mask.
  tg::gpu::DeviceArray<uint32_t> send_count_;  // one rank's
  uint32_t* send_counts() const { return host_.num_ranks > 1 ? my_segment() + counts_at_ : send_count_.data(); }
  int count_row_ = 0;
  tg::gpu::DeviceArray<QuietAnnouncement> quiet_;  // P of them (P > 1): a quiet level's allgather
  tg::gpu::DeviceArray<uint64_t> send_start_;
  std::vector<uint64_t> send_start_host_;
  uint32_t* pinned_counts_ = nullptr;  // P rows of count_row_ words
};

}  // namespace tg::dist::gpu
