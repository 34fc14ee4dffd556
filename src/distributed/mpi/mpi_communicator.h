// The Communicator over MPI, one rank per process (`mpirun -np P`): what the
// ranks of issue 10's multi-process form exchange on the host (NCCL's unique
// id for their GPUs, the gathered results) and, in CI, the host programs of
// tests/distributed run as real processes. Built where CMake finds MPI.
#pragma once

#include <mpi.h>

#include "distributed/communicator.h"

namespace tg::dist {

class MpiCommunicator final : public Communicator {
 public:
  // MPI must be initialised. MPI's errors become tg::Errors (one line)
  // instead of aborting every process. MPI counts are ints: gathers and
  // broadcasts larger than `message_limit` bytes (2 GiB - 1 by default; tests
  // lower it) go as several messages, each within it.
  explicit MpiCommunicator(MPI_Comm comm = MPI_COMM_WORLD, uint64_t message_limit = kMpiMessageLimit);
  static constexpr uint64_t kMpiMessageLimit = 0x7FFFFFFF;
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void barrier() override;

 protected:
  void allreduce_raw(void* values, uint64_t count, DataType type, ReduceOp op) override;
  void bitwise_or_raw(void* words, uint64_t count, DataType type) override;
  void alltoallv_raw(const void* send, std::span<const uint64_t> send_bytes, const ReceiveBuffer& receive) override;
  void allgatherv_raw(const void* send, uint64_t bytes, const ReceiveBuffer& receive) override;
  void broadcast_raw(void* data, uint64_t bytes, int root) override;

 private:
  MPI_Comm comm_;
  uint64_t message_limit_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace tg::dist
