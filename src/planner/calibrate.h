// `tiergraph calibrate`: the machine's rates, measured once, for the planner
// (machine_profile.h). The GPU part runs micro-benchmarks on one device
// (gpu/calibrate_gpu.cu); the CPU part times the threads' gather.
#pragma once

#include <functional>
#include <string>

#include "planner/machine_profile.h"

namespace tg::planner {

struct CalibrateOptions {
  int device = 0;
  bool quick = false;  // 256 MiB buffers instead of 1 GiB (and no 4 GiB footprint)
  std::function<void(const std::string&)> progress;  // one line per measurement
};

// Fills the GPU rates of `profile`; throws tg::Error where there is no usable
// GPU or not enough free memory.
void calibrate_gpu(MachineProfile& profile, const CalibrateOptions& options);
void calibrate_cpu(MachineProfile& profile, const CalibrateOptions& options);

// GPU `device`'s name and UUID ("GPU-" and 32 hex digits, as nvidia-smi
// prints it); empty where there is no usable GPU or no CUDA in this build.
GpuIdentity gpu_identity(int device);

}  // namespace tg::planner
