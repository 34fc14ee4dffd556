// The CPU engine's TG_* switches (docs/ENVIRONMENT.md) that no other test
// sets, as a user sets them: each in the environment of a `tiergraph run
// --engine cpu ... --verify` (support/switch_runs.h); the GPU engine's:
// tests/gpu/switches_gpu_test.cc.
#include <gtest/gtest.h>

#include <vector>

#include "support/switch_runs.h"

namespace tg::test {
namespace {

TEST(Switches, EachRunsAndVerifiesOnTheCpu) {
  const std::vector<SwitchCase> cases = {
      // Large host blocks freed at once instead of kept for reuse (core/block_cache.h).
      {"TG_ARRAY_CACHE", "0", "bfs -e cpu"},
      {"TG_ARRAY_CACHE", "0", "pagerank -e cpu"},
      {"TG_ARRAY_CACHE", "0", "sssp -e cpu"},
      // No refusal of a graph larger than the machine's memory (graph/builder.cc).
      {"TG_NO_MEMORY_CHECK", "1", "cc -e cpu"},
      // A line a step on stderr (engines/cpu/cpu_engine.h).
      {"TG_CPU_TRACE", "1", "bfs -e cpu", "tg-cpu step"},
      {"TG_CPU_TRACE", "1", "pagerank -e cpu", "tg-cpu"},
      {"TG_CPU_TRACE", "1", "cc -e cpu", "tg-cpu step"},
  };
  for (const SwitchCase& c : cases) expect_run_with_switch(c);
}

}  // namespace
}  // namespace tg::test
