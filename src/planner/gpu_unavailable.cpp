// Stand-in for calibrate's GPU part where tiergraph was built without nvcc
// (src/CMakeLists.txt picks it; .cpp keeps it out of the globs).
#include "core/error.h"
#include "planner/calibrate.h"

namespace tg::planner {

void calibrate_gpu(MachineProfile&, const CalibrateOptions&) {
  throw Error("this tiergraph was built without CUDA (no nvcc at build time)");
}

GpuIdentity gpu_identity(int) { return {}; }

}  // namespace tg::planner
