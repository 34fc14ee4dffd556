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
#include <span>
#include <vector>

#include "distributed/gpu/bfs_kernels.cuh"
#include "distributed/gpu/device_rank_graph.h"
#include "distributed/partition.h"

namespace tg::dist::gpu {

// One level as this rank saw it.
struct LevelRecord {
  double compute_s = 0;        // kernels
  double communication_s = 0;  // NCCL: counts, the exchange, the delegate reduction (waits for slower ranks included)
  uint64_t bytes_sent = 0;     // this rank's payload: owner slots to peers, the delegate mask, its counts
  uint64_t normals_received = 0;
  uint32_t delegate_frontier = 0;  // delegates in this level's frontier (the same on every rank)
  bool pulled = false;             // the delegates' edges bottom-up on this rank
};

struct RankRunRecord {
  double seconds = 0;  // source to last level, CUDA events on this rank
  std::vector<LevelRecord> levels;
};

class RankBfs {
 public:
  // Uploads the rank's part onto the current device; refuses (one line) when
  // it and the BFS's state do not fit the device's free memory. Levels go
  // bottom-up where it pays only when the graph is undirected (`symmetric`):
  // then the reverse of every edge is on the same rank.
  RankBfs(const RankGraph& graph, ncclComm_t comm, bool symmetric);
  ~RankBfs();
  RankBfs(const RankBfs&) = delete;
  RankBfs& operator=(const RankBfs&) = delete;

  // The device memory the part and the state take.
  static uint64_t bytes_needed(const RankGraph& graph);

  // NCCL connects peers on their first exchange (lazily): measured 9-12 ms
  // in the first levels of the first run on the x2 machine. Every rank calls
  // this once after all have constructed (a rank that failed to construct
  // would leave the others waiting in it), to move that into the placement.
  void warm_up();

  // Every rank calls run with the same source (a global id).
  RankRunRecord run(uint64_t source);
  // Depths of this rank's normal vertices (local ids) and of every delegate.
  void copy_depths(std::span<int32_t> normal_depth, std::span<int32_t> delegate_depth) const;

 private:
  void reset(uint64_t source);
  uint64_t exchange_normals(BfsLevel& s);  // returns the slots received

  const RankGraph& host_;
  ncclComm_t comm_;
  bool symmetric_;
  cudaStream_t stream_ = nullptr;
  int sms_ = 1;
  DeviceRankGraph graph_;
  tg::gpu::ScratchPool pool_;
  tg::gpu::DeviceArray<int32_t> normal_depth_, delegate_depth_;
  tg::gpu::DeviceArray<uint8_t> reached_;
  tg::gpu::DeviceArray<uint32_t> frontier_bits_;  // the delegate frontier as bits, for bottom-up levels
  tg::gpu::DeviceArray<uint32_t> normals_[2], delegates_[2];
  tg::gpu::DeviceArray<eid_t> scan_;
  tg::gpu::DeviceArray<uint32_t> counters_, sent_bits_, send_, receive_, send_count_, count_matrix_;
  tg::gpu::DeviceArray<uint64_t> send_start_;
  std::vector<uint64_t> send_start_host_, receive_capacity_;
  uint32_t* pinned_counts_ = nullptr;  // P * P counts, then the three counters
  eid_t* pinned_frontier_edges_ = nullptr;
  cudaEvent_t marks_[6] = {};
  cudaEvent_t run_start_ = nullptr, run_stop_ = nullptr;
};

}  // namespace tg::dist::gpu
