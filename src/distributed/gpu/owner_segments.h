// Values bound for other ranks' normal vertices, combined where they are
// made: one dense segment per owner, indexed by the owner's slot (v / P),
// then ncclReduceScatter hands each owner its segment combined over every
// rank. CC (min) and PageRank (sum) write most normal vertices each round,
// so a dense segment costs less than (slot, value) pairs plus the sorting
// or atomics the owner would need to combine them; its bytes are a fixed
// (P - 1) / P of the vertices a round.
//
// Rounds that send few values (the late rounds of CC and SSSP, where a few
// rows are still active) may use the same memory as per-owner queues of
// (slot, value) pairs instead (exchange_pairs): a counts allgather and a
// point-to-point exchange of only the pairs queued, where the reduce-scatter
// moves the whole segments (3 ms a round at kron:28 on 4 H200).
#pragma once

#include <nccl.h>

#include <cstdint>
#include <type_traits>

#include "distributed/rank_memory.h"
#include "distributed/gpu/nccl_check.h"
#include "distributed/gpu/queue_exchange.h"
#include "distributed/partition.h"
#include "engines/gpu/cuda_util.h"

namespace tg::dist::gpu {

template <typename T>
class OwnerSegments {
 public:
  static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, double>);

  // A value bound for slot `slot` of its owner.
  struct Pair {
    uint32_t slot;
    T value;
  };

  explicit OwnerSegments(const RankGraph& g)
      : ranks_(g.num_ranks), rank_(g.rank), slots_(dist::segment_slots(g.num_vertices, g.num_ranks)) {
    if (ranks_ == 1) return;  // nothing to send
    send_ = tg::gpu::DeviceArray<T>::allocate(static_cast<uint64_t>(ranks_) * slots_);
    received_ = tg::gpu::DeviceArray<T>::allocate(slots_);
    pair_count_ = tg::gpu::DeviceArray<uint32_t>::allocate(ranks_);
    count_matrix_ = tg::gpu::DeviceArray<uint32_t>::allocate(static_cast<uint64_t>(ranks_) * ranks_);
    TG_CUDA(cudaMallocHost(&pinned_counts_, static_cast<size_t>(ranks_) * ranks_ * sizeof(uint32_t)));
  }
  ~OwnerSegments() { cudaFreeHost(pinned_counts_); }
  OwnerSegments(const OwnerSegments&) = delete;
  OwnerSegments& operator=(const OwnerSegments&) = delete;

  bool active() const { return ranks_ > 1; }
  // Where rank `owner`'s segment starts in the send buffer (index slot within it).
  T* send() const { return send_.data(); }
  uint64_t segment_slots() const { return slots_; }
  // This rank's segment combined over every rank, after reduce().
  const T* received() const { return received_.data(); }
  uint64_t bytes_sent() const { return ranks_ == 1 ? 0 : (static_cast<uint64_t>(ranks_) - 1) * slots_ * sizeof(T); }

  // The pair queues: owner q's at pairs() + q * pair_capacity(), its length
  // in pair_count()[q] (zeroed by clear_pairs). The pairs a rank receives
  // land in received_pairs(), at most pair_capacity() in all: a round may
  // use the queues only if no rank can queue more than that (the caller
  // bounds the pairs by the edges the round pushes, summed over the ranks).
  Pair* pairs() const { return reinterpret_cast<Pair*>(send_.data()); }
  uint32_t* pair_count() const { return pair_count_.data(); }
  uint64_t pair_capacity() const { return ranks_ == 1 ? 0 : slots_ * sizeof(T) / sizeof(Pair); }
  const Pair* received_pairs() const { return reinterpret_cast<const Pair*>(received_.data()); }
  void clear_pairs(cudaStream_t stream) const {
    if (active()) TG_CUDA(cudaMemsetAsync(pair_count_.data(), 0, ranks_ * sizeof(uint32_t), stream));
  }
  // The pair exchange's connections made before the first run (queue_exchange.h).
  void warm_up_pairs(ncclComm_t comm, cudaStream_t stream) const {
    if (!active()) return;
    clear_pairs(stream);
    warm_up_queues(comm, stream, rank_, ranks_, ranks_, pair_count_.data(), count_matrix_.data());
  }
  // Each queue sent to its owner (queue_exchange.h); returns the pairs
  // received, and adds this rank's payload to *bytes_sent.
  uint64_t exchange_pairs(ncclComm_t comm, cudaStream_t stream, uint64_t* bytes_sent) const {
    if (!active()) return 0;
    const uint64_t received =
        exchange_queues(comm, stream, rank_, ranks_, ranks_, pair_count_.data(), count_matrix_.data(), pinned_counts_, sizeof(Pair),
                        [&](int q) { return pairs() + static_cast<uint64_t>(q) * pair_capacity(); }, received_.data());
    *bytes_sent += static_cast<uint64_t>(ranks_) * sizeof(uint32_t);
    for (int q = 0; q < ranks_; ++q) *bytes_sent += uint64_t{pinned_counts_[rank_ * ranks_ + q]} * sizeof(Pair);
    return received;
  }

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
  int ranks_, rank_;
  uint64_t slots_;
  tg::gpu::DeviceArray<T> send_, received_;
  tg::gpu::DeviceArray<uint32_t> pair_count_, count_matrix_;
  uint32_t* pinned_counts_ = nullptr;
};

}  // namespace tg::dist::gpu
