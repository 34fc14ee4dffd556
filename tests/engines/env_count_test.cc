// The environment's counts (core/env_count.h), the knobs that
// engines read while a setting is being measured.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "core/env_count.h"
#include "core/error.h"

namespace tg {
namespace {

constexpr const char* kName = "TG_TEST_ENV_COUNT";

struct Set {
  explicit Set(const char* value) { setenv(kName, value, 1); }
  ~Set() { unsetenv(kName); }
};

TEST(EnvCount, UnsetAndEmptyAreZero) {
  unsetenv(kName);
  EXPECT_EQ(env_count(kName), 0u);
  Set s("");
  EXPECT_EQ(env_count(kName), 0u);
}

TEST(EnvCount, UnsetTakesTheDefaultGiven) {
  unsetenv(kName);
  EXPECT_EQ(env_count(kName, 1), 1u);
  Set s("0");
  EXPECT_EQ(env_count(kName, 1), 0u);
}

TEST(EnvCount, ReadsWholeNumbers) {
  Set s("2000000");
  EXPECT_EQ(env_count(kName), 2000000u);
}

TEST(EnvCount, RefusesWhatIsNotAWholeNumber) {
  for (const char* bad : {"2e6", "12abc", "-5", " 7", "1.5"}) {
    Set s(bad);
    try {
      env_count(kName);
      ADD_FAILURE() << bad << " was read";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string(kName) + "=" + bad), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace tg
