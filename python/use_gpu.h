// The use_gpu keyword of FeatureStore and NeighborSampler: None (a GPU where
// usable), True (required) or False, as the library's `where` option; and
// what their CUDA outputs read of torch: its current stream, a tensor's memory.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "arguments.h"

namespace tiergraph_python {

inline std::string where_from_use_gpu(const pybind11::object& use_gpu) {
  if (use_gpu.is_none()) return "auto";
  if (!pybind11::isinstance<pybind11::bool_>(use_gpu))
    throw pybind11::type_error("use_gpu must be None, True or False, not " + shown(use_gpu));
  return use_gpu.cast<bool>() ? "gpu" : "cpu";
}

// torch's current stream on `device` (a cudaStream_t as an integer), and a tensor's memory.
inline uintptr_t current_stream(const pybind11::module_& torch, int device) {
  return pybind11::cast<uintptr_t>(torch.attr("cuda").attr("current_stream")(device).attr("cuda_stream"));
}
inline void* data_of(const pybind11::object& tensor) {
  return reinterpret_cast<void*>(pybind11::cast<uintptr_t>(tensor.attr("data_ptr")()));
}

}  // namespace tiergraph_python
