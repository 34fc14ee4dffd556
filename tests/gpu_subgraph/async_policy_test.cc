// Which algorithms --async may run (async_policy.h).
#include "engines/gpu/subgraph/async_policy.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace tg::subgraph {
namespace {

TEST(AsyncPolicy, MonotoneRelaxationsAreAllowed) {
  for (Algorithm a : {Algorithm::kSssp, Algorithm::kSswp, Algorithm::kCc}) {
    EXPECT_EQ(async_refusal(a), "") << algorithm_name(a);
    EXPECT_NO_THROW(check_async(a));
  }
}

TEST(AsyncPolicy, OrderDependentOperatorsAreRefusedClearly) {
  for (Algorithm a : {Algorithm::kBfs, Algorithm::kSsnsp, Algorithm::kPageRank}) {
    try {
      check_async(a);
      FAIL() << "expected tg::Error for " << algorithm_name(a);
    } catch (const Error& e) {
      std::string what = e.what();
      EXPECT_NE(what.find(algorithm_name(a)), std::string::npos) << what;
      EXPECT_NE(what.find("--async"), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos);
    }
  }
}

TEST(AsyncPolicy, EveryAlgorithmHasAnAnswer) {
  for (Algorithm a : all_algorithms()) EXPECT_NE(async_refusal(a), "--async: unknown algorithm");
}

}  // namespace
}  // namespace tg::subgraph
