// NCCL's errors as one-line tg::Errors, like TG_CUDA for CUDA's.
#pragma once

#include <nccl.h>

#include <cstring>
#include <string>

#include "core/error.h"

namespace tg::dist::gpu {

[[noreturn]] inline void throw_nccl_error(ncclResult_t r, const char* what, const char* file, int line) {
  const char* slash = std::strrchr(file, '/');
  throw Error(std::string("NCCL error: ") + ncclGetErrorString(r) + " (" + what + ", " + (slash ? slash + 1 : file) +
              ":" + std::to_string(line) + ")");
}

#define TG_NCCL(call)                                                                \
  do {                                                                               \
    ncclResult_t tg_nccl_status_ = (call);                                           \
    if (tg_nccl_status_ != ncclSuccess)                                              \
      ::tg::dist::gpu::throw_nccl_error(tg_nccl_status_, #call, __FILE__, __LINE__); \
  } while (0)

}  // namespace tg::dist::gpu
