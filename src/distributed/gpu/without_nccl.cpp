// Stand-in for the several-GPU runs where CUDA was found but NCCL was not.
#include "core/error.h"
#include "distributed/rank_run.h"
#include "engines/run.h"

namespace tg {

void keep_gpu_groups(bool) {}

void run_batch_on_gpus(const AnyGraph&, const std::vector<RunRequest>&, const GpuOptions& options, const OutputSink&) {
  throw Error("--gpus " + std::to_string(options.gpus) + ": this tiergraph was built without NCCL (nccl.h not found)");
}

}  // namespace tg

namespace tg::dist {

std::vector<RunOutput> run_batch_as_rank(const AnyGraph&, const std::vector<RunRequest>&, const GpuOptions&,
                                         Communicator&) {
  throw Error("--distributed: this tiergraph was built without NCCL (nccl.h not found)");
}

void run_batch_as_rank(const AnyGraph&, const std::vector<RunRequest>&, const GpuOptions&, Communicator&,
                       const OutputSink&) {
  throw Error("--distributed: this tiergraph was built without NCCL (nccl.h not found)");
}

}  // namespace tg::dist
