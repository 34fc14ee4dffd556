// Switches read from the environment: on where the value is 1 (TG_GPU_POISON=1,
// TG_NO_MEMORY_CHECK=1), off where it is 0, empty or unset; any other value
// is refused in one line rather than read as off (docs/ENVIRONMENT.md lists
// every variable).
#pragma once

#include <cstdlib>
#include <string>

#include "core/error.h"

namespace tg {

inline bool env_switch(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0' || std::string(v) == "0") return false;
  if (std::string(v) == "1") return true;
  throw Error(std::string(name) + "=" + v + ": not 0 or 1", ErrorKind::kUsage);
}

}  // namespace tg
