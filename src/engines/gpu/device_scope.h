// Makes a GPU current for a scope and gives the caller's back after: a
// training loop's current GPU is not ours to change (the feature store's
// tiers, the GPU sampler).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "core/error.h"
#include "engines/gpu/cuda_util.h"

namespace tg::gpu {

// A usage error unless `device` is a visible GPU: "<what>device 3 does not
// exist (2 GPU(s))" (a store's or sampler's device, a store's peers).
inline void check_device_exists(int device, const std::string& what = "") {
  int count = 0;
  TG_CUDA(cudaGetDeviceCount(&count));
  if (device < 0 || device >= count)
    throw usage_error(what + "device " + std::to_string(device) + " does not exist (" + std::to_string(count) +
                      " GPU(s))");
}

class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    TG_CUDA(cudaGetDevice(&previous_));
    if (previous_ != device) TG_CUDA(cudaSetDevice(device));
  }
  ~DeviceScope() { cudaSetDevice(previous_); }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace tg::gpu
