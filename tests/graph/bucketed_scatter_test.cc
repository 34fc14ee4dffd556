// BucketedScatter (graph/bucketed_scatter.h), the builder's scatter without
// an atomic per edge: every entry added reaches apply exactly once, under its
// bucket's lock, whatever the team size, including a team larger than the one
// it was sized for (those entries are applied at once).
#include <gtest/gtest.h>

#include <omp.h>

#include <cstdint>
#include <vector>

#include "core/hash.h"
#include "graph/bucketed_scatter.h"

namespace tg::test {
namespace {

struct Entry {
  uint64_t u;
};

std::vector<uint64_t> counted(uint64_t n, uint64_t entries, int team) {
  std::vector<uint64_t> count(n, 0);
  auto apply = [&count](const Entry* e, uint32_t k) {
    for (uint32_t i = 0; i < k; ++i) ++count[e[i].u];  // plain: the bucket's lock is held
  };
  BucketedScatter<Entry, decltype(apply)> scatter(n, apply);
#pragma omp parallel for num_threads(team) schedule(dynamic, 97)
  for (uint64_t i = 0; i < entries; ++i) scatter.add({mix64(i) % n});
  scatter.flush();
  return count;
}

TEST(BucketedScatter, EveryEntryAppliedOnceWhateverTheTeam) {
  const int most = omp_get_max_threads();
  for (uint64_t n : {uint64_t{1}, uint64_t{1000}, uint64_t{1} << 14, (uint64_t{1} << 20) + 3}) {
    const uint64_t entries = 300000;
    std::vector<uint64_t> expected(n, 0);
    for (uint64_t i = 0; i < entries; ++i) ++expected[mix64(i) % n];
    for (int team : {1, most, most + 3}) EXPECT_EQ(counted(n, entries, team), expected) << n << " vertices, team " << team;
  }
}

}  // namespace
}  // namespace tg::test
