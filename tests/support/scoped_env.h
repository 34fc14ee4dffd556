// An environment variable set for a scope, then unset: the switches the
// engines read when a run or an engine is made (TG_CPU_SPARSE,
// TG_STAGED_VALUES, TG_GATHER_KEEP_QUEUES, ...).
#pragma once

#include <cstdlib>

namespace tg::test {

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

}  // namespace tg::test
