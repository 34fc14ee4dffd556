// Makes a GPU current for a scope and gives the caller's back after: a
// training loop's current GPU is not ours to change (the feature store's
// tiers, the GPU sampler).
#pragma once

#include <cuda_runtime.h>

#include "engines/gpu/cuda_util.h"

namespace tg::gpu {

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
