// A process of mpirun: the warning when it is bound to one core, its share of
// the host's cores (cli/distributed_run.h).
#include <gtest/gtest.h>

#include <string>

#include "cli/distributed_run.h"

namespace tg::test {
namespace {

TEST(NarrowBindingWarning, OneCpuOfSeveralIsNamed) {
  const std::string line = cli::narrow_binding_warning(1, 32);
  EXPECT_NE(line.find("may use 1 of 32 CPUs"), std::string::npos) << line;
  EXPECT_NE(line.find("--bind-to none"), std::string::npos) << line;
  EXPECT_EQ(line.find('\n'), std::string::npos) << line;
}

TEST(NarrowBindingWarning, SilentWhereThereIsRoomOrNoChoice) {
  EXPECT_EQ(cli::narrow_binding_warning(16, 32), "");
  EXPECT_EQ(cli::narrow_binding_warning(32, 32), "");
  EXPECT_EQ(cli::narrow_binding_warning(1, 1), "");  // a one-CPU machine: nothing to gain
}

TEST(RankThreads, EachLocalRankTakesAShare) {
  EXPECT_EQ(cli::rank_threads(32, 2), 16);
  EXPECT_EQ(cli::rank_threads(64, 4), 16);
  EXPECT_EQ(cli::rank_threads(32, 3), 10);
  EXPECT_EQ(cli::rank_threads(2, 4), 1);  // more ranks than CPUs: one thread each
  EXPECT_EQ(cli::rank_threads(32, 1), 32);
  EXPECT_EQ(cli::rank_threads(32, 0), 32);  // unknown: all of them
}

}  // namespace
}  // namespace tg::test
