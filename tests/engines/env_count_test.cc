// The environment's counts, numbers and switches (core/env_count.h,
// core/env_switch.h): the knobs that engines read while a setting is being
// measured, and the traces.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "core/env_count.h"
#include "core/env_switch.h"
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

TEST(EnvCount, RefusalsAreUsageErrors) {
  Set s("many");
  try {
    env_count(kName);
    ADD_FAILURE() << "many was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
  }
}

TEST(EnvNumber, ReadsFiniteNumbersAndRefusesTheRest) {
  unsetenv(kName);
  EXPECT_EQ(env_number(kName, 3), 3.0);
  {
    Set s("2.5");
    EXPECT_EQ(env_number(kName, 3), 2.5);
  }
  {
    Set s("0");
    EXPECT_EQ(env_number(kName, 3), 0.0);
  }
  for (const char* bad : {"abc", "2.5x", "inf", "nan", " "}) {
    Set s(bad);
    try {
      env_number(kName, 3);
      ADD_FAILURE() << bad << " was read";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string(kName) + "=" + bad + ": not a number"), std::string::npos)
          << e.what();
    }
  }
}

TEST(EnvSwitch, OneIsOnZeroEmptyAndUnsetAreOffTheRestRefused) {
  unsetenv(kName);
  EXPECT_FALSE(env_switch(kName));
  {
    Set s("");
    EXPECT_FALSE(env_switch(kName));
  }
  {
    Set s("0");
    EXPECT_FALSE(env_switch(kName));
  }
  {
    Set s("1");
    EXPECT_TRUE(env_switch(kName));
  }
  for (const char* bad : {"yes", "10", "true", "on"}) {
    Set s(bad);
    try {
      env_switch(kName);
      ADD_FAILURE() << bad << " was read";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string(kName) + "=" + bad + ": not 0 or 1"), std::string::npos)
          << e.what();
      EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    }
  }
}

}  // namespace
}  // namespace tg
