// Runs of `tiergraph run ... --verify` with one TG_* switch (docs/ENVIRONMENT.md)
// set in the environment, as a user sets it: each a process of its own (the
// engines read several switches once a process). For the switches that only
// measuring scripts had set: tests/cli/switches_test.cc (CPU engine) and
// tests/gpu/switches_gpu_test.cc.
#pragma once

#include <cstdint>
#include <string>

namespace tg::test {

struct SwitchCase {
  const char* name;
  const char* value;
  std::string run;           // `tiergraph run` arguments, the algorithm first; QUARTER: --gpu-mem of a quarter budget
  std::string printed = "";  // a string stderr must hold (the tracers)
};

// A generated kron:12 with weights 1:255 as a .tgb, made once a process.
const std::string& switch_graph();

// Runs the case on switch_graph(): exit 0, the verifier's PASS, and
// `printed` on stderr where given (gtest expectations).
void expect_run_with_switch(const SwitchCase& c);

}  // namespace tg::test
