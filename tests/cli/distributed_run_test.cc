// The warning for a process of mpirun bound to one core (cli/distributed_run.h).
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

}  // namespace
}  // namespace tg::test
