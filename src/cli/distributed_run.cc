#include "cli/distributed_run.h"

#include "core/error.h"

#ifdef TG_HAVE_MPI
#include <mpi.h>

#include "distributed/mpi/mpi_communicator.h"
#include "distributed/rank_run.h"
#endif

namespace tg::cli {

#ifdef TG_HAVE_MPI

DistributedRun run_distributed(const AnyGraph& graph, const RunRequest& request, const GpuOptions& gpu) {
  if (gpu.device != 0) throw usage_error("--distributed: each process takes the GPU of its rank on its host: drop --device");
  if (gpu.gpus != 0) throw usage_error("--distributed: the GPUs are mpirun's processes (-np N): drop --gpus");
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
  DistributedRun run;
  run.rank = world.rank();
  run.output = std::move(dist::run_batch_as_rank(graph, {request}, options, world).front());
  return run;
}

void finish_distributed() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

#else

DistributedRun run_distributed(const AnyGraph&, const RunRequest&, const GpuOptions&) {
  throw usage_error("--distributed: this tiergraph was built without MPI (install libopenmpi-dev and rebuild)");
}

void finish_distributed() {}

#endif

}  // namespace tg::cli
