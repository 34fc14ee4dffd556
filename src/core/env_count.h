// Counts read from the environment, for knobs of an engine while a setting
// is being measured (TG_SUBGRAPH_IN_PLACE_BELOW=1000000). Apart from
// env_switch.h, which every CUDA file includes, so that adding a knob here
// rebuilds only its users.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.h"

namespace tg {

// The variable's value as a count; `if_unset` (0 unless given) where unset
// or empty. A value that is not a whole number is refused in one line, not
// read as 0.
inline uint64_t env_count(const char* name, uint64_t if_unset = 0) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return if_unset;
  char* end = nullptr;
  const unsigned long long x = std::strtoull(v, &end, 10);
  if (*end != '\0' || *v < '0' || *v > '9') throw Error(std::string(name) + "=" + v + ": not a whole number");
  return x;
}

}  // namespace tg
