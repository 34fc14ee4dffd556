// The OpenMP threads of the host's work between several-GPU runs, limited so
// that the threads driving the GPUs never wait for a core.
//
// libgomp's workers spin for milliseconds after each parallel region (its
// default wait policy) before they sleep. Between two runs the host gathers
// the ranks' values into global order and the caller takes them (bench counts
// the traversed edges), both in parallel regions over every core; the next
// run's rank threads and NCCL's proxy threads (one of each a GPU) then found
// every core spinning and waited a scheduler tick (about 4 ms) at each
// synchronisation: on 2 and 4 H100, one BFS root in eight to twelve took
// 30-80 ms against 15 (its communication 4-8 ms a level, in steps of about 4).
#pragma once

#include <cstdlib>
#include <thread>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tg::dist::gpu {

// While alive, parallel regions started by this thread use at most the cores
// of the host but 2 for each of its `gpus_here` GPUs, shared evenly by the
// `processes_here` processes that drive them (at least one thread). A process
// that a launcher bound to fewer than the host's cores has its share already,
// and leaves 2 a GPU of its own.
class HostThreadsLeaveGpuCores {
 public:
  explicit HostThreadsLeaveGpuCores(int gpus_here, int processes_here = 1) {
#ifdef _OPENMP
    previous_ = omp_get_max_threads();
    const int procs = omp_get_num_procs(), processes = processes_here < 1 ? 1 : processes_here;
    const bool bound = processes > 1 && procs < static_cast<int>(std::thread::hardware_concurrency());
    const int share = bound ? procs - 2 * gpus_here / processes : (procs - 2 * gpus_here) / processes;
    omp_set_num_threads(share < 1 ? 1 : (share < previous_ ? share : previous_));
#else
    (void)gpus_here;
    (void)processes_here;
#endif
  }
  ~HostThreadsLeaveGpuCores() {
#ifdef _OPENMP
    omp_set_num_threads(previous_);
#endif
  }
  HostThreadsLeaveGpuCores(const HostThreadsLeaveGpuCores&) = delete;
  HostThreadsLeaveGpuCores& operator=(const HostThreadsLeaveGpuCores&) = delete;

 private:
  int previous_ = 1;
};

// The ranks of a `--distributed` run on this host: Open MPI's and MPICH's
// local size where the launcher gives it, else every rank.
inline int ranks_on_this_host(int ranks) {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"})
    if (const char* v = std::getenv(name)) {
      const int n = std::atoi(v);
      if (n > 0 && n <= ranks) return n;
    }
  return ranks;
}

}  // namespace tg::dist::gpu
