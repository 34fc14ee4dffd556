// Values bound for other ranks' normal vertices, combined where they are
// made: one dense segment per owner, indexed by the owner's slot (v / P),
// then ncclReduceScatter hands each owner its segment combined over every
// rank. CC (min) and PageRank (sum) write most normal vertices each round,
// so a dense segment costs less than (slot, value) pairs plus the sorting
// or atomics the owner would need to combine them; its bytes are a fixed
// (P - 1) / P of the vertices a round.
#pragma once

#include <nccl.h>

#include <cstdint>
#include <type_traits>

#include "distributed/rank_memory.h"
#include "distributed/gpu/nccl_check.h"
#include "distributed/partition.h"
#include "engines/gpu/cuda_util.h"

namespace tg::dist::gpu {

template <typename T>
class OwnerSegments {
 public:
  static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, double>);

  explicit OwnerSegments(const RankGraph& g)
      : ranks_(g.num_ranks), slots_(dist::segment_slots(g.num_vertices, g.num_ranks)) {
    if (ranks_ == 1) return;  // nothing to send
    send_ = tg::gpu::DeviceArray<T>::allocate(static_cast<uint64_t>(ranks_) * slots_);
    received_ = tg::gpu::DeviceArray<T>::allocate(slots_);
  }

  bool active() const { return ranks_ > 1; }
  // Where rank `owner`'s segment starts in the send buffer (index slot within it).
  T* send() const { return send_.data(); }
  uint64_t segment_slots() const { return slots_; }
  // This rank's segment combined over every rank, after reduce().
  const T* received() const { return received_.data(); }
  uint64_t bytes_sent() const { return ranks_ == 1 ? 0 : (static_cast<uint64_t>(ranks_) - 1) * slots_ * sizeof(T); }

  // Every send value set to the bytes `fill` (0xFF: UINT32_MAX, min's identity; 0: 0.0, sum's).
  void clear(unsigned char fill, cudaStream_t stream) const {
    if (active()) TG_CUDA(cudaMemsetAsync(send_.data(), fill, send_.size() * sizeof(T), stream));
  }
  void reduce(ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream) const {
    if (!active()) return;
    const ncclDataType_t type = std::is_same_v<T, double> ? ncclFloat64 : ncclUint32;
    TG_NCCL(ncclReduceScatter(send_.data(), received_.data(), slots_, type, op, comm, stream));
  }

 private:
  int ranks_;
  uint64_t slots_;
  tg::gpu::DeviceArray<T> send_, received_;
};

}  // namespace tg::dist::gpu
