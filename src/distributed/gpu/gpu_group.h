// Several GPUs driven from one process (`--gpus N`): one NCCL communicator and
// one host thread per GPU, rank r on device r. Each rank runs the same
// per-rank program a process of `mpirun` would run (issue 10's one code
// path); only how the communicators are made differs.
#pragma once

#include <nccl.h>

#include <functional>
#include <mutex>
#include <vector>

namespace tg::dist::gpu {

class GpuGroup {
 public:
  // Throws a one-line error when fewer than num_gpus GPUs are present.
  explicit GpuGroup(int num_gpus);
  ~GpuGroup();
  GpuGroup(const GpuGroup&) = delete;
  GpuGroup& operator=(const GpuGroup&) = delete;

  int size() const { return static_cast<int>(comms_.size()); }
  bool aborted() const { return aborted_; }
  ncclComm_t comm(int rank) const { return comms_[rank]; }

  // Runs body(rank) on a thread per rank with that rank's device current, and
  // waits for all. When one rank throws, every communicator is aborted so that
  // no other rank waits forever in a collective; the first error is rethrown
  // and the group cannot run again.
  void on_each_rank(const std::function<void(int rank)>& body);

 private:
  void abort_all();

  std::vector<ncclComm_t> comms_;
  std::once_flag aborted_once_;
  bool aborted_ = false;
};

// How many GPUs this process sees (0 where CUDA reports none or fails).
int visible_gpu_count();

}  // namespace tg::dist::gpu
