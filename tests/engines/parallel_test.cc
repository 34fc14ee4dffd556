// The CPU engine's OpenMP building blocks (engines/cpu/parallel.h).
#include "engines/cpu/parallel.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "support/thread_count.h"

namespace tg::test {
namespace {

// Every value converted, on both paths (one thread below kSerialBelow, all
// threads above), sizes not a multiple of a page of values.
TEST(ParallelToVector, CopiesAndConvertsEveryValue) {
  for (int threads : {1, 2, 3})
    for (uint64_t n : {uint64_t{0}, uint64_t{1}, kSerialBelow - 1, kSerialBelow, (uint64_t{1} << 20) + 3}) {
      ThreadCount scope(threads);
      std::vector<uint32_t> in(n);
      for (uint64_t i = 0; i < n; ++i) in[i] = static_cast<uint32_t>(i * 2654435761u);
      const ResultVector<uint64_t> wide = parallel_to_vector<uint64_t>(in.data(), n);
      const ResultVector<uint32_t> same = parallel_to_vector<uint32_t>(in.data(), n);
      ASSERT_EQ(wide.size(), n);
      EXPECT_EQ(same, in) << n << " values, " << threads << " threads";
      for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(wide[i], uint64_t{in[i]}) << "at " << i << " of " << n;
    }
}

}  // namespace
}  // namespace tg::test
