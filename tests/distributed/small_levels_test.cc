// distributed/small_levels.h: the fixed queue length of a small several-GPU
// BFS level bounds every queue a rank can send, never passes the ranks'
// agreed capacity, and saturates where vertices * TH would wrap.
#include "distributed/small_levels.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>

namespace tg::test {
namespace {

using dist::kNotSmall;
using dist::small_level_queue;

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
constexpr uint64_t kExact = 1u << 14;
constexpr uint64_t kCapacity = 1u << 15;

TEST(SmallLevels, EveryVertexNormalDoesNotWrap) {
  // TH = 2^64 - 1: one queued normal may have any number of edges.
  EXPECT_EQ(small_level_queue(1, 0, false, kExact, kMax, kCapacity), kNotSmall);
  EXPECT_EQ(small_level_queue(2, 0, false, kExact, kMax, kCapacity), kNotSmall);
  EXPECT_EQ(small_level_queue(1u << 20, 0, false, kExact, uint64_t{1} << 44, kCapacity), kNotSmall);
  // ... unless the announced edges count them.
  EXPECT_EQ(small_level_queue(2, 70, true, kExact, kMax, kCapacity), 128u);
}

TEST(SmallLevels, BoundByDegreeOrByTheCountedEdges) {
  EXPECT_EQ(small_level_queue(0, 0, false, kExact, 16, kCapacity), 0u);  // nothing to send
  EXPECT_EQ(small_level_queue(3, 0, false, kExact, 10, kCapacity), 64u);  // 30 by degree, the first level
  EXPECT_EQ(small_level_queue(100, 50, true, kExact, 32, kCapacity), 64u);  // 50 edges counted
  EXPECT_EQ(small_level_queue(100, 5000, true, kExact, 32, kCapacity), 3200u);  // 3200 by degree is less
  EXPECT_EQ(small_level_queue(3, 0, true, kExact, 10, kCapacity), 0u);  // normals without out-edges
  EXPECT_EQ(small_level_queue(5, 0, false, kExact, 0, kCapacity), 64u);  // TH 0 counts as 1
}

TEST(SmallLevels, EdgesCountOnlyWhereTheAnnouncementIsExact) {
  // Past the sample the announced edges are an estimate: the degree bound alone.
  EXPECT_EQ(small_level_queue(kExact + 1, 10, true, kExact, 1, kCapacity), 16448u);       // 16,385 by degree
  EXPECT_EQ(small_level_queue(kExact + 1, 10, true, kExact, 2, kCapacity), kNotSmall);    // 32,770 by degree
  EXPECT_EQ(small_level_queue(kExact, 10, true, kExact, 2, kCapacity), 64u);              // 10 counted
}

TEST(SmallLevels, NeverPastTheCapacity) {
  EXPECT_EQ(small_level_queue(1, 0, false, kExact, kCapacity, kCapacity), kCapacity);
  EXPECT_EQ(small_level_queue(1, 0, false, kExact, kCapacity + 1, kCapacity), kNotSmall);
  EXPECT_EQ(small_level_queue(0, 0, false, kExact, 16, 0), 0u);  // tiny parts: only empty frontiers
  EXPECT_EQ(small_level_queue(1, 0, false, kExact, 16, 0), kNotSmall);
}

// Random frontiers, huge values included: the length is a multiple of 64
// within the capacity and at least every queue a rank could send (checked
// in 128-bit arithmetic), or the level is not small.
TEST(SmallLevels, RandomFrontiersAreBoundedOrRefused) {
  std::mt19937_64 rng(20261126);
  const uint64_t picks[] = {0, 1, 2, 63, 64, 65, 1000, kExact, kExact + 1, kCapacity, uint64_t{1} << 32, kMax / 2, kMax};
  for (int i = 0; i < 20000; ++i) {
    const auto pick = [&] { return rng() % 2 ? picks[rng() % std::size(picks)] : rng() >> (rng() % 64); };
    const uint64_t vertices = pick(), edges = pick(), threshold = pick();
    const bool counted = rng() % 2;
    const uint64_t capacity = (rng() % 2 ? kCapacity : pick()) / 64 * 64;
    const uint64_t fixed = small_level_queue(vertices, edges, counted, kExact, threshold, capacity);
    if (fixed == kNotSmall) continue;
    EXPECT_EQ(fixed % 64, 0u);
    EXPECT_LE(fixed, capacity);
    unsigned __int128 bound = static_cast<unsigned __int128>(vertices) * (threshold == 0 ? 1 : threshold);
    if (counted && vertices <= kExact && edges < bound) bound = edges;
    EXPECT_GE(static_cast<unsigned __int128>(fixed), bound)
        << vertices << " vertices, " << edges << " edges, TH " << threshold << ", capacity " << capacity;
  }
}

}  // namespace
}  // namespace tg::test
