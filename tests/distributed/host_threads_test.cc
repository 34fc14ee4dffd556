// The OpenMP thread limit between several-GPU runs (distributed/gpu/host_threads.h).
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "distributed/gpu/host_threads.h"

namespace tg::test {
namespace {

using dist::gpu::HostThreadsLeaveGpuCores;

// The limit is at least one thread, never more than before, and gone with the guard.
TEST(HostThreads, LeaveCoresForAGpuThenRestore) {
  const int before = omp_get_max_threads(), procs = omp_get_num_procs();
  const int k = HostThreadsLeaveGpuCores::kCoresPerGpu;
  {
    const HostThreadsLeaveGpuCores guard(1);
    EXPECT_EQ(omp_get_max_threads(), std::clamp(procs - k, 1, before));
    int team = 0;
#pragma omp parallel
#pragma omp single
    team = omp_get_num_threads();
    EXPECT_EQ(team, std::clamp(procs - k, 1, before));
  }
  EXPECT_EQ(omp_get_max_threads(), before);
  {
    const HostThreadsLeaveGpuCores guard(procs);  // more GPUs than cores can spare: one thread
    EXPECT_EQ(omp_get_max_threads(), 1);
  }
  EXPECT_EQ(omp_get_max_threads(), before);
}

TEST(HostThreads, ProcessesOfOneHostShareTheRest) {
  const int before = omp_get_max_threads(), procs = omp_get_num_procs();
  const bool bound = procs < static_cast<int>(std::thread::hardware_concurrency());
  const int k = HostThreadsLeaveGpuCores::kCoresPerGpu;
  const HostThreadsLeaveGpuCores guard(2, 2);
  EXPECT_EQ(omp_get_max_threads(), std::clamp(bound ? procs - k : (procs - 2 * k) / 2, 1, before));
}

TEST(HostThreads, RanksOnThisHostFromTheLauncher) {
  unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  unsetenv("MPI_LOCALNRANKS");
  EXPECT_EQ(dist::gpu::ranks_on_this_host(8), 8);
  setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "4", 1);
  EXPECT_EQ(dist::gpu::ranks_on_this_host(8), 4);
  setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "junk", 1);  // not a count: every rank
  EXPECT_EQ(dist::gpu::ranks_on_this_host(8), 8);
  unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  setenv("MPI_LOCALNRANKS", "2", 1);
  EXPECT_EQ(dist::gpu::ranks_on_this_host(8), 2);
  unsetenv("MPI_LOCALNRANKS");
}

}  // namespace
}  // namespace tg::test
