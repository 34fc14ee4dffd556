// Counts and numbers read from the environment, for knobs of an engine while
// a setting is being measured (TG_SUBGRAPH_IN_PLACE_BELOW=1000000; every
// variable is in docs/ENVIRONMENT.md). Apart from
// env_switch.h, which every CUDA file includes, so that adding a knob here
// rebuilds only its users.
#pragma once

#include <cmath>
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
  if (*end != '\0' || *v < '0' || *v > '9')
    throw Error(std::string(name) + "=" + v + ": not a whole number", ErrorKind::kUsage);
  return x;
}

// The variable's value as a finite number (TG_PUSH_EDGE_COST=2.5); `if_unset`
// where unset or empty; anything else is refused in one line.
inline double env_number(const char* name, double if_unset) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return if_unset;
  char* end = nullptr;
  const double x = std::strtod(v, &end);
  if (*end != '\0' || !std::isfinite(x)) throw Error(std::string(name) + "=" + v + ": not a number", ErrorKind::kUsage);
  return x;
}

}  // namespace tg
