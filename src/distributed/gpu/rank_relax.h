// Min-relaxation on one rank of a degree-separated partition: connected
// components and single-source shortest paths (docs/DISTRIBUTED.md's table;
// the host program min_relax of tests/distributed/host_programs.h with CUDA
// kernels and NCCL). Every vertex starts at its rule's value; a round pushes
// the value of every vertex whose value fell in the last round along its
// out-edges, a local normal destination taking the smaller at once, a remote
// one through its owner's dense segment (owner_segments.h, reduced with
// ncclMin), a delegate through a min-allreduce of the delegates' candidates,
// so every rank settles them alike; rounds end when no value fell anywhere.
//   CC: labels start as global ids and travel unchanged, so each ends as its
//     component's smallest id, as the one-GPU CC's. Undirected graphs only
//     (every edge's reverse is stored too, so out-edges carry labels both
//     ways); 32-bit labels, so graphs under 2^32 vertices.
//   SSSP: distances start infinite but the source's 0 and grow by each edge's
//     weight (1 where the graph has none): Bellman-Ford by rounds, exact for
//     integer weights. Directed graphs too.
#pragma once

#include <cuda_runtime.h>

#include <limits>
#include <memory>

#include "distributed/gpu/device_rank_graph.h"
#include "distributed/gpu/owner_segments.h"
#include "distributed/gpu/rank_bfs.h"
#include "distributed/gpu/rank_program.h"

namespace tg::dist::gpu {

// What a relaxation starts from, carries along an edge and keeps.
struct CcRule {
  using value_t = uint32_t;
  using result_t = uint64_t;
  static constexpr bool kWeighted = false;
  static constexpr bool kFromSource = false;
  static constexpr const char* kName = "cc";
  __host__ __device__ static value_t none() { return std::numeric_limits<uint32_t>::max(); }
  __device__ static value_t start(uint64_t v, uint64_t) { return static_cast<value_t>(v); }
  __device__ static value_t along(value_t x, const weight_t*, eid_t) { return x; }
  // atomicMin on the value's own type.
  __device__ static void lower(value_t* at, value_t x) {
    if (x < *at) atomicMin(at, x);
  }
};

struct SsspRule {
  using value_t = double;
  using result_t = double;
  static constexpr bool kWeighted = true;
  static constexpr bool kFromSource = true;
  static constexpr const char* kName = "sssp";
  __host__ __device__ static value_t none() { return std::numeric_limits<double>::infinity(); }
  __device__ static value_t start(uint64_t v, uint64_t source) { return v == source ? 0.0 : none(); }
  __device__ static value_t along(value_t x, const weight_t* weights, eid_t e) {
    return x + (weights != nullptr ? static_cast<double>(weights[e]) : 1.0);
  }
  // Distances are never negative (sssp refuses negative weights), and the
  // bits of non-negative doubles, +inf included, order as the values do, so
  // the 64-bit integer minimum is the minimum.
  __device__ static void lower(value_t* at, value_t x) {
    if (x < *at) atomicMin(reinterpret_cast<unsigned long long*>(at), static_cast<unsigned long long>(__double_as_longlong(x)));
  }
};

template <typename Rule>
class RankRelax : public RankProgram {
 public:
  using value_t = typename Rule::value_t;

  RankRelax(const RankGraph& graph, ncclComm_t comm, PartMemory where = PartMemory::kDevice);
  ~RankRelax() override;
  RankRelax(const RankRelax&) = delete;
  RankRelax& operator=(const RankRelax&) = delete;

  void warm_up() override;
  RankRunRecord run(const RunRequest& request) override;
  RankResult result() const override;

 private:
  void choose_hub();
  uint64_t seed_component(const RunRequest& request, RankRunRecord& record);

  const RankGraph& host_;
  ncclComm_t comm_;
  RankStream stream_;
  std::shared_ptr<const DeviceRankGraph> graph_;
  // CC seeded by a BFS (docs/DISTRIBUTED.md): where there are delegates, the
  // component of a hub is found by the direction-optimizing BFS over the same
  // placed part, labelled at once with its smallest id, and left out of the
  // label propagation, which then runs on the rest of the graph. (4.3x over
  // label propagation alone at kron:28 on 4 H200, 56 against 243 ms.)
  std::unique_ptr<RankBfs> seed_;
  uint32_t hub_ = kNoLocalId;  // the hub's delegate id, the same on every rank
  tg::gpu::DeviceArray<uint64_t> delegate_global_;
  tg::gpu::DeviceArray<value_t> value_, next_value_;                   // local normals
  tg::gpu::DeviceArray<value_t> delegate_value_, delegate_candidate_;  // every delegate
  tg::gpu::DeviceArray<uint8_t> active_, delegate_active_;             // values that fell last round
  tg::gpu::DeviceArray<unsigned long long> counters_;                  // settle_delegates says what each holds
  // Values bound for other ranks: dense segments reduce-scattered in rounds
  // that push many edges, (slot, value) pairs sent to the owners in rounds
  // that push few (owner_segments.h; at kron:28 on 4 H100 the seeded CC's
  // last rounds 3 ms -> 0.6 ms of communication each, docs/DISTRIBUTED.md).
  OwnerSegments<value_t> remote_;
  // The rows whose value fell, queued as they fall: a round with few of
  // them pushes their edges from the queues (edge-balanced over a degree
  // scan) instead of walking the chunks of every row, which cost 3-4 ms a
  // round at kron:28 on 4 H100 however few rows pushed.
  tg::gpu::DeviceArray<uint32_t> normal_queue_, delegate_queue_, queued_;  // queued_: [0] normals, [1] delegates
  tg::gpu::DeviceArray<eid_t> queue_scan_;
  tg::gpu::ScratchPool pool_;
  uint32_t* pinned_queued_ = nullptr;
  unsigned long long* pinned_ = nullptr;  // [0] values fallen (all ranks), [1, 2] this rank's counters, [3] edges (all ranks)
};

using RankCc = RankRelax<CcRule>;
using RankSssp = RankRelax<SsspRule>;

}  // namespace tg::dist::gpu
