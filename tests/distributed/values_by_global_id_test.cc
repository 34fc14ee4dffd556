// The ranks' values back in global id order (distributed/values_by_global_id.h),
// against the definition: rank q's normals are its residue's ids ascending,
// less the delegates. Blocks of 2^16 slots: sizes on both sides of a block.
#include "distributed/values_by_global_id.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "core/error.h"

namespace tg::test {
namespace {

TEST(ValuesByGlobalId, EqualTheDefinitionForAnyRankCountAndDelegates) {
  std::mt19937_64 rng(5);
  for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{7}, uint64_t{1000}, (uint64_t{1} << 16) * 3 + 5}) {
    for (int p : {1, 2, 3, 4, 7}) {
      for (double share : {0.0, 0.1, 1.0}) {
        std::vector<uint64_t> delegates;
        for (uint64_t v = 0; v < n; ++v)
          if (std::uniform_real_distribution<double>(0, 1)(rng) < share) delegates.push_back(v);
        std::vector<std::vector<int64_t>> normal(p);
        std::vector<int64_t> expected(n);
        size_t k = 0;
        for (uint64_t v = 0; v < n; ++v) {
          expected[v] = static_cast<int64_t>(rng() % 1000000);
          if (k < delegates.size() && delegates[k] == v) {
            ++k;
            continue;
          }
          normal[v % p].push_back(expected[v]);
        }
        std::vector<int64_t> delegate_values;
        for (uint64_t v : delegates) delegate_values.push_back(expected[v]);
        std::vector<std::span<const int64_t>> spans;
        for (const auto& values : normal) spans.push_back(values);
        std::vector<int64_t> got(n, -1);
        dist::values_by_global_id<int64_t>(n, delegates, spans, delegate_values, got.data());
        ASSERT_EQ(got, expected) << "n " << n << ", " << p << " ranks, delegate share " << share;
      }
    }
  }
}

// One order made for a partition serves every run: two gathers of different
// values through the same order, 4 ranks (a shift) and 3 (a division).
TEST(ValuesByGlobalId, OneOrderServesManyRuns) {
  const uint64_t n = (uint64_t{1} << 17) + 11;
  std::vector<uint64_t> delegates;
  for (uint64_t v = 0; v < n; v += 5) delegates.push_back(v);
  for (int p : {3, 4}) {
    const dist::GlobalIdOrder order(n, delegates, p);
    for (int64_t run = 0; run < 2; ++run) {
      std::vector<std::vector<int64_t>> normal(p);
      std::vector<int64_t> delegate_values;
      for (uint64_t v = 0; v < n; ++v) {
        if (v % 5 == 0) delegate_values.push_back(-static_cast<int64_t>(v) - run);
        else normal[v % p].push_back(static_cast<int64_t>(v) + run);
      }
      std::vector<std::span<const int64_t>> spans(normal.begin(), normal.end());
      std::vector<int64_t> got(n, 0);
      order.gather<int64_t>(spans, delegate_values, got.data());
      for (uint64_t v = 0; v < n; ++v)
        ASSERT_EQ(got[v], v % 5 == 0 ? -static_cast<int64_t>(v) - run : static_cast<int64_t>(v) + run)
            << "vertex " << v << ", " << p << " ranks, run " << run;
    }
    std::vector<std::span<const int64_t>> too_few(p - 1);
    std::vector<int64_t> out(n);
    EXPECT_THROW(order.gather<int64_t>(too_few, {}, out.data()), Error) << p << " ranks";
  }
}

TEST(ValuesByGlobalId, ARankWithTheWrongCountIsAnError) {
  const std::vector<uint64_t> delegates = {2};
  const std::vector<int64_t> rank0 = {1, 2}, rank1 = {3, 4}, delegate_values = {9};
  // 6 vertices over 2 ranks, vertex 2 a delegate: rank 0 has 0 and 4, rank 1 has 1, 3 and 5.
  std::vector<int64_t> out(6);
  EXPECT_THROW(dist::values_by_global_id<int64_t>(6, delegates, {rank0, rank1}, delegate_values, out.data()), Error);
}

}  // namespace
}  // namespace tg::test
