// When tiergraph starts again with OpenMP's workers passive (cli/gpu_ranks_wait_policy.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "cli/gpu_ranks_wait_policy.h"
#include "support/run_program.h"

namespace tg::test {
namespace {

using cli::drives_several_gpus;
using cli::wait_policy_to_set;
using Args = std::vector<std::string>;

TEST(GpuRanksWaitPolicy, RunAndBenchWithSeveralGpus) {
  EXPECT_TRUE(drives_several_gpus(Args{"tiergraph", "run", "bfs", "--graph", "g.tgb", "--gpus", "2"}));
  EXPECT_TRUE(drives_several_gpus(Args{"tiergraph", "bench", "g.tgb", "--gpus=4", "-a", "cc"}));
  EXPECT_TRUE(drives_several_gpus(Args{"/opt/bin/tiergraph", "run", "cc", "--gpus", "16", "--graph", "g"}));
}

TEST(GpuRanksWaitPolicy, NotOneGpuOtherCommandsOrBadValues) {
  EXPECT_FALSE(drives_several_gpus(Args{"tiergraph", "run", "bfs", "--graph", "g.tgb"}));
  EXPECT_FALSE(drives_several_gpus(Args{"tiergraph", "run", "bfs", "--graph", "g.tgb", "--gpus", "1"}));
  EXPECT_FALSE(drives_several_gpus(Args{"tiergraph", "plan", "bfs", "--graph", "g.tgb", "--gpus", "4"}));
  EXPECT_FALSE(drives_several_gpus(Args{"tiergraph", "run", "bfs", "--graph", "g.tgb", "--gpus"}));
  EXPECT_FALSE(drives_several_gpus(Args{"tiergraph", "run", "bfs", "--gpus", "2x"}));
  EXPECT_FALSE(drives_several_gpus(Args{"tiergraph", "run", "bfs", "--gpus=", "--graph", "g"}));
  EXPECT_FALSE(drives_several_gpus(Args{"tiergraph"}));
  EXPECT_FALSE(drives_several_gpus(Args{}));
}

TEST(GpuRanksWaitPolicy, TheUsersPolicyIsKept) {
  const Args several{"tiergraph", "run", "bfs", "--graph", "g.tgb", "--gpus", "2"};
  EXPECT_EQ(wait_policy_to_set(several, nullptr), "passive");
  EXPECT_EQ(wait_policy_to_set(several, "active"), "");
  EXPECT_EQ(wait_policy_to_set(several, "passive"), "");  // the second start: nothing more to do
  EXPECT_EQ(wait_policy_to_set(Args{"tiergraph", "run", "bfs", "--graph", "g.tgb"}, nullptr), "");
}

// The program itself: libgomp, asked to show its settings as it loads, shows
// a spin count of 0 (passive) in the second start of a --gpus 2 run only.
// (CTest runs the tests with the policy passive; it is unset here.)
TEST(GpuRanksWaitPolicy, TheProgramStartsAgainWithPassiveWorkers) {
  const char* saved = std::getenv("OMP_WAIT_POLICY");
  const std::string kept = saved != nullptr ? saved : "";
  unsetenv("OMP_WAIT_POLICY");
  setenv("OMP_DISPLAY_ENV", "verbose", 1);
  const ProgramResult several = run_tiergraph("run bfs --graph kron:8 --gpus 2");
  const ProgramResult one = run_tiergraph("run bfs --graph kron:8");
  unsetenv("OMP_DISPLAY_ENV");
  if (saved != nullptr) setenv("OMP_WAIT_POLICY", kept.c_str(), 1);
  if (one.err.find("GOMP_SPINCOUNT") == std::string::npos) GTEST_SKIP() << "not libgomp: " << one.err;
  EXPECT_NE(several.err.find("GOMP_SPINCOUNT = '0'"), std::string::npos) << several.err;
  EXPECT_EQ(one.err.find("GOMP_SPINCOUNT = '0'"), std::string::npos) << one.err;
  EXPECT_EQ(one.exit_code, 0) << one.err;
}

}  // namespace
}  // namespace tg::test
