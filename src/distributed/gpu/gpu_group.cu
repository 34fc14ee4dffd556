#include "distributed/gpu/gpu_group.h"

#include <cuda_runtime.h>

#include <cstdlib>
#include <exception>
#include <numeric>
#include <string>
#include <thread>

#include "core/error.h"
#include "distributed/gpu/nccl_check.h"
#include "engines/gpu/cuda_util.h"

namespace tg::dist::gpu {

int visible_gpu_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear it: "no GPU" is an answer here, not an error
    return 0;
  }
  return n;
}

GpuGroup::GpuGroup(int num_gpus) {
  if (num_gpus < 1) throw usage_error("--gpus " + std::to_string(num_gpus) + ": at least 1");
  const int present = visible_gpu_count();
  if (present < num_gpus)
    throw Error("--gpus " + std::to_string(num_gpus) + ": " + std::to_string(present) + " GPU" +
                (present == 1 ? "" : "s") + " present");
  // NVLink SHARP (multicast) is off unless the user says otherwise: the lent
  // machines must keep it off, and the exchanges here are point to point and
  // small reductions that do not need it.
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  comms_.resize(num_gpus);
  std::vector<int> devices(num_gpus);
  std::iota(devices.begin(), devices.end(), 0);
  TG_NCCL(ncclCommInitAll(comms_.data(), num_gpus, devices.data()));
}

GpuGroup::~GpuGroup() {
  if (aborted_) return;
  for (ncclComm_t c : comms_) ncclCommDestroy(c);
}

void GpuGroup::abort_all() {
  std::call_once(aborted_once_, [&] {
    aborted_ = true;
    for (ncclComm_t c : comms_) ncclCommAbort(c);
  });
}

void GpuGroup::on_each_rank(const std::function<void(int rank)>& body) {
  if (aborted_) throw Error("the GPUs' communicators were aborted by an earlier error");
  std::vector<std::exception_ptr> errors(comms_.size());
  std::vector<std::thread> threads;
  for (int r = 0; r < size(); ++r)
    threads.emplace_back([&, r] {
      try {
        TG_CUDA(cudaSetDevice(r));
        body(r);
      } catch (...) {
        errors[r] = std::current_exception();
        abort_all();
      }
    });
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace tg::dist::gpu
