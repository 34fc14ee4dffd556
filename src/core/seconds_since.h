// Wall seconds since a steady-clock time point: the phases the engines time
// on the host (a GPU run's setup, a multi-GPU run's partition and transfer,
// the packing of lists).
#pragma once

#include <chrono>

namespace tg {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace tg
