// list_at (list_at.h) against a plain walk one sub-offset at a time, on
// sub-offsets with runs of empty lists of every length up to thousands,
// from every start.
#include "engines/gpu/subgraph/list_at.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace tg::subgraph {
namespace {

uint64_t plain_walk(const std::vector<eid_t>& sub, uint64_t i, eid_t pos) {
  while (sub[i + 1] <= pos) ++i;
  return i;
}

TEST(ListAt, EqualsThePlainWalkOverRunsOfEmptyLists) {
  std::mt19937_64 rng(61);
  for (int shape = 0; shape < 40; ++shape) {
    // Degrees: mostly empty (runs up to 3000 long) between short and long lists.
    std::vector<eid_t> sub{0};
    const int lists = 200 + static_cast<int>(rng() % 4000);
    for (int k = 0; k < lists; ++k) {
      const uint64_t kind = rng() % 10;
      eid_t degree = kind < 7 ? 0 : kind < 9 ? 1 + rng() % 4 : 1 + rng() % 3000;
      if (shape % 4 == 0 && rng() % 50 == 0) {  // a long run of empty lists
        for (uint64_t r = rng() % 3000; r > 0; --r) sub.push_back(sub.back());
      }
      sub.push_back(sub.back() + degree);
    }
    if (sub.back() == 0) sub.push_back(1);
    const uint64_t last = sub.size() - 1;
    for (int probe = 0; probe < 300; ++probe) {
      const eid_t pos = static_cast<eid_t>(rng() % sub.back());
      // Any start i with sub[i] <= pos: the first list, the one holding pos, or between.
      const uint64_t holder = plain_walk(sub, 0, pos);
      const uint64_t i = holder == 0 ? 0 : rng() % (holder + 1);
      ASSERT_EQ(list_at(sub.data(), i, last, pos), plain_walk(sub, i, pos))
          << "shape " << shape << ", from " << i << ", position " << pos;
      ASSERT_LT(list_at(sub.data(), i, last, pos), last);
    }
  }
}

TEST(ListAt, TheNextListAtOnceWhereItIsNotEmpty) {
  const std::vector<eid_t> sub{0, 3, 3, 3, 7, 8, 8, 12};
  EXPECT_EQ(list_at(sub.data(), 0, 7, eid_t{2}), 0u);
  EXPECT_EQ(list_at(sub.data(), 0, 7, eid_t{3}), 3u);   // past the two empty lists
  EXPECT_EQ(list_at(sub.data(), 1, 7, eid_t{3}), 3u);
  EXPECT_EQ(list_at(sub.data(), 3, 7, eid_t{7}), 4u);
  EXPECT_EQ(list_at(sub.data(), 4, 7, eid_t{8}), 6u);
  EXPECT_EQ(list_at(sub.data(), 0, 7, eid_t{11}), 6u);
}

// run_at as gather_lists walks a window [lo, hi) of a SubCSR: every
// position's source entry is the one its list puts there, runs never cross
// a gap in the source, and lists next to each other (consecutive ids, empty
// lists between) merge. Sources mostly of empty lists, as light lists are.
TEST(RunAt, CopiesEveryPositionFromItsListAndMergesAdjacentOnes) {
  std::mt19937_64 rng(67);
  for (int shape = 0; shape < 30; ++shape) {
    const uint32_t n = 500 + static_cast<uint32_t>(rng() % 5000);
    std::vector<eid_t> offsets{0};
    for (uint32_t v = 0; v < n; ++v) {
      const uint64_t kind = rng() % 10;
      offsets.push_back(offsets.back() + (kind < 8 ? 0 : kind < 9 ? 1 + rng() % 5 : 1 + rng() % 700));
    }
    std::vector<uint32_t> active;  // sorted; dense stretches and sparse ones
    for (uint32_t v = 0; v < n; ++v)
      if (rng() % 100 < (v / 500 % 2 == 0 ? 90u : 10u)) active.push_back(v);
    if (active.empty()) active.push_back(n - 1);
    std::vector<eid_t> sub{0};
    for (uint32_t v : active) sub.push_back(sub.back() + offsets[v + 1] - offsets[v]);
    const eid_t total = sub.back();
    if (total == 0) continue;
    const uint64_t last = active.size();
    // The source entry SubCSR position p holds.
    auto source_of = [&](eid_t p) {
      const uint64_t i = plain_walk(sub, 0, p);
      return offsets[active[i]] + (p - sub[i]);
    };
    uint64_t runs = 0, merged = 0;
    for (eid_t chunk : {eid_t{37}, eid_t{256}, total}) {
      for (eid_t lo = 0; lo < total; lo += chunk) {
        const eid_t hi = lo + chunk < total ? lo + chunk : total;
        uint64_t i = plain_walk(sub, 0, lo);  // gather_lists bisects to the same list
        for (eid_t pos = lo; pos < hi;) {
          const ListRun<eid_t> run = run_at(sub.data(), active.data(), offsets.data(), i, last, pos, hi);
          ASSERT_GT(run.end, pos);
          ASSERT_LE(run.end, hi);
          for (eid_t p = pos; p < run.end; ++p)
            ASSERT_EQ(run.src + (p - pos), source_of(p)) << "shape " << shape << ", position " << p;
          // Stopped short of the window only where the next entry is not the next in the source.
          if (run.end < hi) ASSERT_NE(source_of(run.end), run.src + (run.end - pos)) << "shape " << shape;
          merged += run.list > plain_walk(sub, 0, pos) ? 1 : 0;
          ++runs;
          i = run.list;
          pos = run.end;
        }
      }
    }
    EXPECT_GT(runs, 0u);
    if (shape == 0) EXPECT_GT(merged, 0u);  // dense stretches of consecutive ids merge
  }
}

}  // namespace
}  // namespace tg::subgraph
