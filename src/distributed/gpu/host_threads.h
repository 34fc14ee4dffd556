// The OpenMP threads of the host's work between several-GPU runs, limited so
// that the threads driving the GPUs never wait for a core.
//
// libgomp's workers spin for milliseconds after each parallel region (its
// default wait policy) before they sleep. Between two runs the host gathers
// the ranks' values into global order and the caller takes them (bench counts
// the traversed edges), both in parallel regions over every core; the next
// run's rank threads and NCCL's threads then found every core spinning and
// waited a scheduler tick (about 4 ms) at each synchronisation. On 4 H200 at
// kron:28 (docs/PERF.md), 13 of 64 BFS roots took 1.5-4.7x the median (their
// communication 3-8 ms a level, in steps of about 4): 170.5 GTEPS. Leaving 2
// cores a GPU: 1 root, 252.4 GTEPS; OMP_WAIT_POLICY=passive for the whole
// process: none, 269.8 GTEPS. libgomp reads the policy only when it loads:
// the tiergraph program starts again with it passive for `--gpus N`
// (cli/gpu_ranks_wait_policy.h); this guard is for the library's callers,
// whose process keeps its policy (the CPU engine's steps want spinning
// workers). 4 cores a GPU now.
#pragma once

#include <cstdlib>
#include <thread>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tg::dist::gpu {

// While alive, parallel regions started by this thread use at most the
// host's cores but kCoresPerGpu for each of its `gpus_here` GPUs, shared
// evenly by the `processes_here` processes that drive them (at least one
// thread). A process that a launcher bound to fewer than the host's cores has
// its share already, and leaves kCoresPerGpu a GPU of its own.
class HostThreadsLeaveGpuCores {
 public:
  static constexpr int kCoresPerGpu = 4;  // a rank thread, NCCL's proxy and service threads, a spare

  explicit HostThreadsLeaveGpuCores(int gpus_here, int processes_here = 1) {
#ifdef _OPENMP
    previous_ = omp_get_max_threads();
    const int procs = omp_get_num_procs(), processes = processes_here < 1 ? 1 : processes_here;
    const bool bound = processes > 1 && procs < static_cast<int>(std::thread::hardware_concurrency());
    const int gpu_cores = kCoresPerGpu * gpus_here;
    const int share = bound ? procs - gpu_cores / processes : (procs - gpu_cores) / processes;
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
