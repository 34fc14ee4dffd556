// Connected components on one rank of a degree-separated partition, by
// min-label propagation (docs/DISTRIBUTED.md's table; the host program of
// tests/distributed/host_programs.h with CUDA kernels and NCCL): every
// vertex starts labelled by its global id; a round pushes the label of every
// vertex whose label fell in the last round along its out-edges, a local
// normal destination taking the smaller at once, a remote one through its
// owner's dense segment (owner_segments.h, reduced with ncclMin), a delegate
// through a min-allreduce of the delegates' candidates, so every rank settles
// them alike. Undirected graphs only: every edge's reverse is stored too, so
// out-edges carry labels both ways. The labels end as each component's
// smallest id, as the one-GPU CC's.
#pragma once

#include "distributed/gpu/device_rank_graph.h"
#include "distributed/gpu/owner_segments.h"
#include "distributed/gpu/rank_program.h"

namespace tg::dist::gpu {

class RankCc : public RankProgram {
 public:
  RankCc(const RankGraph& graph, ncclComm_t comm);
  ~RankCc() override;
  RankCc(const RankCc&) = delete;
  RankCc& operator=(const RankCc&) = delete;
  static uint64_t bytes_needed(const RankGraph& graph);

  void warm_up() override;
  RankRunRecord run(const RunRequest& request) override;
  RankResult result() const override;

 private:
  const RankGraph& host_;
  ncclComm_t comm_;
  RankStream stream_;
  DeviceRankGraph graph_;
  tg::gpu::DeviceArray<uint32_t> delegate_global_;          // d: the delegates' first labels
  tg::gpu::DeviceArray<uint32_t> label_, next_label_;       // local normals
  tg::gpu::DeviceArray<uint32_t> delegate_label_, delegate_candidate_;  // d each
  tg::gpu::DeviceArray<uint8_t> active_, delegate_active_;  // labels that fell last round
  tg::gpu::DeviceArray<unsigned long long> counters_;       // settle_delegates' comment says what each holds
  OwnerSegments<uint32_t> remote_;
  unsigned long long* pinned_ = nullptr;
};

}  // namespace tg::dist::gpu
