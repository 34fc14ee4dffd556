// PageRank on one rank of a degree-separated partition (docs/DISTRIBUTED.md's
// table; the host program of tests/distributed/host_programs.h with CUDA
// kernels and NCCL): every iteration pushes each vertex's score over its
// out-degree along its out-edges, summed at once for a local normal
// destination, in its owner's dense segment for a remote one
// (owner_segments.h, reduced with ncclSum), and in the delegates' sums,
// sum-allreduced so every rank settles the delegates alike. A delegate's
// out-degree is the sum of its dn and dd degrees over the ranks. The
// iteration, the stop rule and the final scaling are the one-GPU pull form's
// (algorithms/pagerank.h, pagerank_pull): y = (1 - d) / n + d M y without the
// dangling mass, stopped once the L1 change is below tolerance * |y|_1 / 2,
// then x = y / |y|_1. Directed graphs too: only out-edges are read.
#pragma once

#include "distributed/gpu/device_rank_graph.h"
#include "distributed/gpu/owner_segments.h"
#include "distributed/gpu/rank_program.h"

namespace tg::dist::gpu {

class RankPageRank : public RankProgram {
 public:
  RankPageRank(const RankGraph& graph, ncclComm_t comm, PartMemory where = PartMemory::kDevice);
  ~RankPageRank() override;
  RankPageRank(const RankPageRank&) = delete;
  RankPageRank& operator=(const RankPageRank&) = delete;

  void warm_up() override;
  RankRunRecord run(const RunRequest& request) override;
  RankResult result() const override;

 private:
  double sum_of_scores();  // |y|_1 over every rank (every rank calls it)
  double allreduced(double* value, int mark = -1);

  const RankGraph& host_;
  ncclComm_t comm_;
  RankStream stream_;
  DeviceRankGraph graph_;
  tg::gpu::DeviceArray<double> score_, contribution_, sum_;  // local normals: y, y / out-degree, what reached them
  tg::gpu::DeviceArray<double> delegate_score_, delegate_contribution_, delegate_sum_, delegate_degree_;
  tg::gpu::DeviceArray<double> scalars_;  // [0] this iteration's change, [1] a sum of scores
  OwnerSegments<double> remote_;
  double* pinned_ = nullptr;
  uint64_t host_list_bytes_ = 0;  // the lists' bytes where the part is in host memory: every round reads them
  bool have_degrees_ = false;
  double total_ = 1;  // |y|_1 at the end of the last run
};

}  // namespace tg::dist::gpu
