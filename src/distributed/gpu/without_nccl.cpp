// Stand-in for the several-GPU runs where CUDA was found but NCCL was not.
#include "core/error.h"
#include "engines/run.h"

namespace tg {

std::vector<RunOutput> run_batch_on_gpus(const AnyGraph&, const std::vector<RunRequest>&, const GpuOptions& options) {
  throw Error("--gpus " + std::to_string(options.gpus) + ": this tiergraph was built without NCCL (nccl.h not found)");
}

}  // namespace tg
