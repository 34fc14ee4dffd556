// The use_gpu keyword of FeatureStore and NeighborSampler: None (a GPU where
// usable), True (required) or False, as the library's `where` option.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace tiergraph_python {

inline std::string where_from_use_gpu(const pybind11::object& use_gpu) {
  if (use_gpu.is_none()) return "auto";
  if (!pybind11::isinstance<pybind11::bool_>(use_gpu))
    throw pybind11::type_error("use_gpu must be None, True or False, not " + std::string(pybind11::repr(use_gpu)));
  return use_gpu.cast<bool>() ? "gpu" : "cpu";
}

}  // namespace tiergraph_python
