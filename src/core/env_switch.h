// Switches read from the environment: set when the variable's value starts
// with '1' (TG_GPU_POISON=1, TG_NO_MEMORY_CHECK=1).
#pragma once

#include <cstdlib>

namespace tg {

inline bool env_switch(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] == '1';
}

}  // namespace tg
