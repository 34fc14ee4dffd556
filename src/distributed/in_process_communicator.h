// P logical ranks as P threads of one process: the Communicator the tests
// run multi-rank code on without GPUs, and a reference for the NCCL one.
// Each collective is two barriers: every rank posts its buffer, waits for
// all, reads the others' buffers, and waits again so that no rank reuses
// or frees what it posted while another still reads it. Correct under any
// interleaving: nothing is read before the first barrier or written to a
// posted buffer before the second.
#pragma once

#include <functional>
#include <memory>

#include "distributed/communicator.h"

namespace tg::dist {

class InProcessGroup;  // what the ranks share: postings, barrier, failure

class InProcessCommunicator final : public Communicator {
 public:
  InProcessCommunicator(std::shared_ptr<InProcessGroup> group, int rank);
  int rank() const override { return rank_; }
  int size() const override;
  void barrier() override;

 protected:
  void allreduce_raw(void* values, uint64_t count, DataType type, ReduceOp op) override;
  void bitwise_or_raw(void* words, uint64_t count, DataType type) override;
  void alltoallv_raw(const void* send, std::span<const uint64_t> send_bytes, const ReceiveBuffer& receive) override;
  void allgatherv_raw(const void* send, uint64_t bytes, const ReceiveBuffer& receive) override;
  void broadcast_raw(void* data, uint64_t bytes, int root) override;

 private:
  void reduce(void* values, uint64_t count, DataType type, ReduceOp op, bool bitwise_or);

  std::shared_ptr<InProcessGroup> group_;
  int rank_;
};

// Runs body(communicator) on num_ranks threads, one rank each, and returns
// when all have returned. When a rank throws, the others stop at the
// collective they wait in or enter next (they do not wait forever) and
// run_ranks rethrows the first rank's exception; a rank that returns while
// another waits in a collective it will never join is an error of its own.
// Ranks calling different collectives, or different counts, throw too.
// A usage error for num_ranks < 1.
void run_ranks(int num_ranks, const std::function<void(Communicator&)>& body);

}  // namespace tg::dist
