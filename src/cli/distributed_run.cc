#include "cli/distributed_run.h"

#include <sched.h>
#include <unistd.h>

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

#include "core/error.h"

#ifdef TG_HAVE_MPI
#include <mpi.h>

#include "distributed/mpi/mpi_communicator.h"
#include "distributed/rank_run.h"
#endif

namespace tg::cli {

std::string narrow_binding_warning(int cpus_allowed, long cpus_online) {
  if (cpus_allowed != 1 || cpus_online <= 1) return "";
  return "tiergraph: warning: this process may use 1 of " + std::to_string(cpus_online) +
         " CPUs (mpirun binds each process to a core by default), so loading, partitioning and verifying run on one "
         "thread: start it with `mpirun --bind-to none` (or --map-by slot:PE=N)";
}

int rank_threads(int cpus_allowed, int local_ranks) {
  return local_ranks > 1 ? std::max(1, cpus_allowed / local_ranks) : std::max(1, cpus_allowed);
}

namespace {

// The first of the launchers' variables that is set, as a number; -1 where none is.
int launcher_number(std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (const char* v = std::getenv(name); v != nullptr) return std::atoi(v);
  return -1;
}

// The CPUs this process's affinity allows; 0 where it cannot be read.
int allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 0;
}

}  // namespace

void prepare_rank_process(int threads_asked) {
  const int cpus = allowed_cpus();
  if (cpus == 0) return;
  if (launcher_number({"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID"}) <= 0) {  // one line per host
    const std::string line = narrow_binding_warning(cpus, sysconf(_SC_NPROCESSORS_ONLN));
    if (!line.empty()) std::fprintf(stderr, "%s\n", line.c_str());
  }
  const int local_ranks = launcher_number({"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"});
  if (threads_asked == 0 && std::getenv("OMP_NUM_THREADS") == nullptr && local_ranks > 1)
    omp_set_num_threads(rank_threads(cpus, local_ranks));
}

void check_distributed_options(const GpuOptions& gpu) {
  if (gpu.device != 0) throw usage_error("--distributed: each process takes the GPU of its rank on its host: drop --device");
  if (gpu.gpus != 0) throw usage_error("--distributed: the GPUs are mpirun's processes (-np N): drop --gpus");
}

#ifdef TG_HAVE_MPI

int run_distributed_batch(const AnyGraph& graph, const std::vector<RunRequest>& requests, const GpuOptions& gpu,
                          const OutputSink& sink) {
  check_distributed_options(gpu);
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  }
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  int local_rank = 0;
  MPI_Comm_rank(local, &local_rank);
  MPI_Comm_free(&local);

  dist::MpiCommunicator world;
  GpuOptions options = gpu;
  options.device = local_rank;
  const int rank = world.rank();
  dist::run_batch_as_rank(graph, requests, options, world, [&](size_t i, RunOutput&& out) {
    if (rank == 0) sink(i, std::move(out));
  });
  return rank;
}

DistributedRun run_distributed(const AnyGraph& graph, const RunRequest& request, const GpuOptions& gpu) {
  DistributedRun run;
  run.rank = run_distributed_batch(graph, {request}, gpu, [&](size_t, RunOutput&& out) { run.output = std::move(out); });
  return run;
}

int distributed_rank() {
  int initialized = 0, finalized = 0, rank = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
  }
  return std::max(0, launcher_number({"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}));
}

void finish_distributed() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);  // a bench whose placements were all refused never started MPI
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Finalize();
}

#else

int run_distributed_batch(const AnyGraph&, const std::vector<RunRequest>&, const GpuOptions& gpu, const OutputSink&) {
  check_distributed_options(gpu);
  throw usage_error("--distributed: this tiergraph was built without MPI (install libopenmpi-dev and rebuild)");
}

DistributedRun run_distributed(const AnyGraph& graph, const RunRequest& request, const GpuOptions& gpu) {
  DistributedRun run;
  run.rank = run_distributed_batch(graph, {request}, gpu, [](size_t, RunOutput&&) {});
  return run;
}

int distributed_rank() { return std::max(0, launcher_number({"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})); }

void finish_distributed() {}

#endif

}  // namespace tg::cli
