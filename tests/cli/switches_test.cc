// The CPU engine's TG_* switches (docs/ENVIRONMENT.md) that no other test
// sets, as a user sets them: each in the environment of a `tiergraph run
// --engine cpu ... --verify` (support/switch_runs.h); the GPU engine's:
// tests/gpu/switches_gpu_test.cc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/run_program.h"
#include "support/scoped_env.h"
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

// TG_PROFILE names the machine profile `plan` (and --placement auto) reads;
// one that cannot be read is a one-line error of bad input.
TEST(Switches, TheProfileVariableNamesThePlannersProfile) {
  const std::string profile = std::string(TG_TESTS_DIR) + "/planner/data/h100-2026-11-28.profile.json";
  {
    const ScopedEnv set("TG_PROFILE", profile.c_str());
    const ProgramResult r = run_tiergraph("plan bfs --graph kron:10");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("profile    " + profile), std::string::npos) << r.out;
  }
  const ScopedEnv missing("TG_PROFILE", "/nonexistent/profile.json");
  const ProgramResult r = run_tiergraph("plan bfs --graph kron:10");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("/nonexistent/profile.json: cannot open the profile"), std::string::npos) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
}

}  // namespace
}  // namespace tg::test
