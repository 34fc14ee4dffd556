// Queues bound for each peer rank, exchanged point to point: what the BFS
// sends normal vertices' owners (rank_bfs.cu) and sparse rounds send as
// (slot, value) pairs (owner_segments.h). Every rank's P queue lengths are
// allgathered and read back (a host sync: NCCL needs each receive's size),
// then every queue goes to its peer in one NCCL group, and what arrives is
// laid end to end, peer by peer. A rank's row of lengths may carry words of
// the caller's after its P lengths (`row` words in all): the BFS adds
// whether the rank reached a delegate, and so learns at this host sync
// whether the level needs the reached mask's exchange at all.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>

#include "distributed/gpu/nccl_check.h"
#include "engines/gpu/cuda_util.h"

namespace tg::dist::gpu {

// NCCL connects a pair of ranks on their first send (lazily: 9-12 ms on the
// x2 machine), and a collective's channels on its first call: the lengths'
// allgather and one length to and from every peer, before the first run.
// `lengths` must hold `row` zeros (they are sent).
inline void warm_up_queues(ncclComm_t comm, cudaStream_t stream, int rank, int p, int row, const uint32_t* lengths,
                           uint32_t* length_matrix) {
  TG_NCCL(ncclAllGather(lengths, length_matrix, row, ncclUint32, comm, stream));
  TG_NCCL(ncclGroupStart());
  for (int q = 0; q < p; ++q) {
    if (q == rank) continue;
    TG_NCCL(ncclSend(lengths, 1, ncclUint32, q, comm, stream));
    TG_NCCL(ncclRecv(length_matrix + q, 1, ncclUint32, q, comm, stream));
  }
  TG_NCCL(ncclGroupEnd());
}

// lengths: this rank's row (its P queue lengths in entries, then the
// caller's words; on the device); length_matrix: P rows on the device,
// pinned_matrix the same in pinned host memory (row q: rank q's, left there
// for the caller); queue_at(q):
// the device address of the queue for peer q. Returns the entries received.
template <typename QueueAt>
uint64_t exchange_queues(ncclComm_t comm, cudaStream_t stream, int rank, int p, int row, const uint32_t* lengths,
                         uint32_t* length_matrix, uint32_t* pinned_matrix, size_t entry_bytes, QueueAt queue_at,
                         void* receive) {
  TG_NCCL(ncclAllGather(lengths, length_matrix, row, ncclUint32, comm, stream));
  TG_CUDA(cudaMemcpyAsync(pinned_matrix, length_matrix, static_cast<size_t>(p) * row * sizeof(uint32_t),
                          cudaMemcpyDeviceToHost, stream));
  TG_CUDA(cudaStreamSynchronize(stream));
  uint64_t received = 0;
  TG_NCCL(ncclGroupStart());
  for (int q = 0; q < p; ++q) {
    if (q == rank) continue;
    const uint64_t to_q = pinned_matrix[rank * row + q], from_q = pinned_matrix[q * row + rank];
    if (to_q > 0) TG_NCCL(ncclSend(queue_at(q), to_q * entry_bytes, ncclUint8, q, comm, stream));
    if (from_q > 0)
      TG_NCCL(ncclRecv(static_cast<char*>(receive) + received * entry_bytes, from_q * entry_bytes, ncclUint8, q, comm, stream));
    received += from_q;
  }
  TG_NCCL(ncclGroupEnd());
  return received;
}

}  // namespace tg::dist::gpu
