// Stand-in for the GPU engine where tiergraph was built without nvcc.
#include "core/error.h"
#include "distributed/rank_run.h"
#include "engines/run.h"

namespace tg {

bool gpu_available(std::string* reason) {
  if (reason) *reason = "this tiergraph was built without CUDA (no nvcc at build time)";
  return false;
}

RunOutput run_on_gpu(const AnyGraph&, const RunRequest&, const GpuOptions&) {
  throw Error("no GPU engine: this tiergraph was built without CUDA (no nvcc at build time)");
}

void run_batch_on_gpu(const AnyGraph&, const std::vector<RunRequest>&, const GpuOptions&, const OutputSink&) {
  throw Error("no GPU engine: this tiergraph was built without CUDA (no nvcc at build time)");
}

RunOutput run_on_hybrid(const AnyGraph&, const RunRequest&, const GpuOptions&, const HybridOptions&) {
  throw Error("no hybrid engine: this tiergraph was built without CUDA (no nvcc at build time)");
}

void run_batch_on_hybrid(const AnyGraph&, const std::vector<RunRequest>&, const GpuOptions&, const HybridOptions&,
                         const OutputSink&) {
  throw Error("no hybrid engine: this tiergraph was built without CUDA (no nvcc at build time)");
}

void keep_gpu_groups(bool) {}

void run_batch_on_gpus(const AnyGraph&, const std::vector<RunRequest>&, const GpuOptions&, const OutputSink&) {
  throw Error("no GPU engine: this tiergraph was built without CUDA (no nvcc at build time)");
}

}  // namespace tg

namespace tg::dist {

std::vector<RunOutput> run_batch_as_rank(const AnyGraph&, const std::vector<RunRequest>&, const GpuOptions&,
                                         Communicator&) {
  throw Error("--distributed: this tiergraph was built without CUDA (no nvcc at build time)");
}

void run_batch_as_rank(const AnyGraph&, const std::vector<RunRequest>&, const GpuOptions&, Communicator&,
                       const OutputSink&) {
  throw Error("--distributed: this tiergraph was built without CUDA (no nvcc at build time)");
}

}  // namespace tg::dist
