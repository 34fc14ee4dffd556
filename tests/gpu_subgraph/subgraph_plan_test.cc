// Budget sizing, SubCSR pieces and CSR partitions (subgraph_plan.h): every
// edge of every range, then random shapes against the plan's invariants.
#include "engines/gpu/subgraph/subgraph_plan.h"

#include <gtest/gtest.h>

#include <random>

#include "core/error.h"
#include "subgraph_test_graphs.h"

namespace tg::subgraph {
namespace {

using testing::csr_with_degrees;
using testing::random_active;
using testing::skewed_degrees;

std::vector<eid_t> prefix_of(const std::vector<eid_t>& degrees) {
  std::vector<eid_t> p(degrees.size() + 1, 0);
  for (size_t i = 0; i < degrees.size(); ++i) p[i + 1] = p[i] + degrees[i];
  return p;
}

// ---------------------------------------------------------------- sizing ----

TEST(SizeBuffers, CapacityIsAMultipleOfTheGranule) {
  EdgeEntry e{4, false};
  BufferSizing s = size_buffers(1000 * 4 + 3, e, 1, "--gpu-mem");
  EXPECT_EQ(s.capacity_edges, 960u);  // 1000 rounded down to a multiple of 64
  EXPECT_EQ(s.buffer_bytes(), 960u * 4);
  EXPECT_EQ(s.weights_offset(), 960u * 4);
  EXPECT_LE(s.total_bytes(), 1000u * 4 + 3);
}

TEST(SizeBuffers, WeightsAndWideIdsCount) {
  BufferSizing s = size_buffers(uint64_t{1} << 20, EdgeEntry{8, true}, 2, "budget");
  EXPECT_EQ(s.entry.bytes(), 12u);
  EXPECT_EQ(s.capacity_edges, (uint64_t{1} << 19) / 12 / 64 * 64);
  EXPECT_EQ(s.weights_offset() % 256, 0u);
  EXPECT_LE(s.total_bytes(), uint64_t{1} << 20);
}

TEST(SizeBuffers, ExactlyTheMinimumWorks) {
  BufferSizing s = size_buffers(2 * kBufferGranule * 8, EdgeEntry{4, true}, 2, "budget");
  EXPECT_EQ(s.capacity_edges, kBufferGranule);
  EXPECT_EQ(s.total_bytes(), 2 * kBufferGranule * 8);
}

TEST(SizeBuffers, BelowTheMinimumIsAClearError) {
  try {
    size_buffers(2 * kBufferGranule * 8 - 1, EdgeEntry{4, true}, 2, "--gpu-mem");
    FAIL() << "expected tg::Error";
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("--gpu-mem"), std::string::npos) << what;
    EXPECT_NE(what.find("minimum"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "one line";
  }
  EXPECT_THROW(size_buffers(0, EdgeEntry{4, false}, 1, "x"), Error);
  EXPECT_THROW(size_buffers(1 << 20, EdgeEntry{4, false}, 0, "x"), Error);
  EXPECT_THROW(size_buffers(1 << 20, EdgeEntry{2, false}, 1, "x"), Error);
}

TEST(FormatBytes, Units) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(format_bytes(uint64_t{3} << 30), "3.00 GiB");
}

// ------------------------------------------------------------ plan_ranges ----

TEST(PlanRanges, MalformedInputIsAClearError) {
  std::vector<eid_t> empty;
  EXPECT_THROW(plan_ranges(empty, 4), Error);
  std::vector<eid_t> p{0, 3, 5};
  EXPECT_THROW(plan_ranges(p, 0), Error);
  std::vector<eid_t> not_zero{1, 3};
  EXPECT_THROW(plan_ranges(not_zero, 4), Error);
  std::vector<eid_t> decreasing{0, 5, 3};
  EXPECT_THROW(plan_ranges(decreasing, 4), Error);
}

TEST(PlanRanges, EmptyActiveSetHasNoPieces) {
  std::vector<eid_t> p{0};
  EXPECT_TRUE(plan_pieces(p, 4).empty());
}

TEST(PlanRanges, OneVertex) {
  std::vector<eid_t> p{0, 3};
  auto r = plan_pieces(p, 4);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], (EdgeRange{0, 1, 0, 3, false}));
}

TEST(PlanRanges, OneVertexExactlyFull) {
  std::vector<eid_t> p{0, 4};
  auto r = plan_pieces(p, 4);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], (EdgeRange{0, 1, 0, 4, false}));
}

TEST(PlanRanges, OneVertexOneOverIsSplit) {
  std::vector<eid_t> p{0, 5};
  auto r = plan_pieces(p, 4);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0], (EdgeRange{0, 1, 0, 4, true}));
  EXPECT_EQ(r[1], (EdgeRange{0, 1, 4, 5, true}));
}

TEST(PlanRanges, SplitListOfExactMultipleHasFullPieces) {
  std::vector<eid_t> p{0, 12};
  auto r = plan_pieces(p, 4);
  ASSERT_EQ(r.size(), 3u);
  for (size_t k = 0; k < 3; ++k) EXPECT_EQ(r[k], (EdgeRange{0, 1, 4 * k, 4 * k + 4, true}));
}

TEST(PlanRanges, AllVerticesInOnePieceWhenTheyFit) {
  std::vector<eid_t> p = prefix_of({1, 2, 0, 3});
  auto r = plan_pieces(p, 6);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], (EdgeRange{0, 4, 0, 6, false}));
}

TEST(PlanRanges, LastPieceExactlyFull) {
  std::vector<eid_t> p = prefix_of({2, 4, 3, 3});
  auto r = plan_pieces(p, 6);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0], (EdgeRange{0, 2, 0, 6, false}));
  EXPECT_EQ(r[1], (EdgeRange{2, 4, 6, 12, false}));
}

TEST(PlanRanges, OneMoreEdgeStartsAPiece) {
  std::vector<eid_t> p = prefix_of({2, 4, 3, 3, 1});
  auto r = plan_pieces(p, 6);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[2], (EdgeRange{4, 5, 12, 13, false}));
}

TEST(PlanRanges, VerticesWithoutEdgesRideAlong) {
  // Empty lists before, between and after; all of them land in a range.
  std::vector<eid_t> p = prefix_of({0, 0, 3, 0, 0, 3, 0});
  auto r = plan_pieces(p, 3);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0], (EdgeRange{0, 5, 0, 3, false}));
  EXPECT_EQ(r[1], (EdgeRange{5, 7, 3, 6, false}));
}

TEST(PlanRanges, NoEdgesAtAllIsOneEmptyPiece) {
  std::vector<eid_t> p = prefix_of({0, 0, 0});
  auto r = plan_pieces(p, 64);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], (EdgeRange{0, 3, 0, 0, false}));
}

TEST(PlanRanges, EmptyListsAroundASplitList) {
  std::vector<eid_t> p = prefix_of({0, 9, 0, 1});
  auto r = plan_pieces(p, 4);
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0], (EdgeRange{0, 1, 0, 0, false}));
  EXPECT_EQ(r[1], (EdgeRange{1, 2, 0, 4, true}));
  EXPECT_EQ(r[2], (EdgeRange{1, 2, 4, 8, true}));
  EXPECT_EQ(r[3], (EdgeRange{1, 2, 8, 9, true}));
  EXPECT_EQ(r[4], (EdgeRange{2, 4, 9, 10, false}));
}

TEST(PlanRanges, HugeCapacityDoesNotOverflow) {
  std::vector<eid_t> p = prefix_of({5, 7});
  auto r = plan_pieces(p, ~uint64_t{0});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], (EdgeRange{0, 2, 0, 12, false}));
}

// The invariants of any plan, checked on random shapes.
void check_plan(const std::vector<eid_t>& p, uint64_t cap, const std::vector<EdgeRange>& r) {
  const uint64_t count = p.size() - 1;
  if (count == 0) {
    EXPECT_TRUE(r.empty());
    return;
  }
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r.front().first, 0u);
  EXPECT_EQ(r.front().edge_begin, 0u);
  EXPECT_EQ(r.back().last, count);
  EXPECT_EQ(r.back().edge_end, p[count]);
  for (size_t k = 0; k < r.size(); ++k) {
    const EdgeRange& x = r[k];
    EXPECT_LE(x.edges(), cap);
    EXPECT_LE(x.edge_begin, x.edge_end);
    if (k > 0) {
      EXPECT_EQ(x.edge_begin, r[k - 1].edge_end) << "edge gap at " << k;
      if (x.split && r[k - 1].split && r[k - 1].first == x.first) {
        EXPECT_EQ(x.first, r[k - 1].first);
      } else {
        EXPECT_EQ(x.first, r[k - 1].last) << "item gap at " << k;
      }
    }
    if (x.split) {
      EXPECT_EQ(x.items(), 1u);
      EXPECT_GT(p[x.first + 1] - p[x.first], cap);
      EXPECT_GE(x.edge_begin, p[x.first]);
      EXPECT_LE(x.edge_end, p[x.first + 1]);
      bool last_of_list = x.edge_end == p[x.first + 1];
      if (!last_of_list) EXPECT_EQ(x.edges(), cap);
    } else {
      EXPECT_GE(x.items(), 1u);
      EXPECT_EQ(x.edge_begin, p[x.first]);
      EXPECT_EQ(x.edge_end, p[x.last]);
      // Greedy: the next list would not have fitted.
      if (x.last < count) EXPECT_GT(p[x.last + 1] - p[x.first], cap) << "range " << k << " could take more";
    }
  }
}

TEST(PlanRanges, RandomShapesKeepTheInvariants) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    uint64_t n = rng() % 200;
    std::vector<eid_t> d = skewed_degrees(n, rng(), trial % 3 == 0 ? 5000 : 0, n ? rng() % n : 0);
    std::vector<eid_t> p = prefix_of(d);
    uint64_t cap = 1 + rng() % 600;
    auto r = plan_ranges(p, cap);
    SCOPED_TRACE("trial " + std::to_string(trial) + " n " + std::to_string(n) + " cap " + std::to_string(cap));
    check_plan(p, cap, r);
  }
}

// ------------------------------------------------------------ partitions ----

TEST(PlanPartitions, StarCenterGetsSplitPartitions) {
  // Vertex 0 is a star's centre with 10 edges; leaves have 1.
  std::vector<eid_t> d{10, 1, 1, 1, 1};
  auto g = csr_with_degrees<uint32_t>(d);
  auto parts = plan_partitions(g.offsets, 4);
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts[0], (EdgeRange{0, 1, 0, 4, true}));
  EXPECT_EQ(parts[1], (EdgeRange{0, 1, 4, 8, true}));
  EXPECT_EQ(parts[2], (EdgeRange{0, 1, 8, 10, true}));
  EXPECT_EQ(parts[3], (EdgeRange{1, 5, 10, 14, false}));
}

TEST(PlanPartitions, EmptyGraphAndNoEdges) {
  std::vector<eid_t> none{0};
  EXPECT_TRUE(plan_partitions(none, 8).empty());
  std::vector<eid_t> isolated{0, 0, 0, 0};
  auto parts = plan_partitions(isolated, 8);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0], (EdgeRange{0, 3, 0, 0, false}));
}

TEST(ActiveRanges, MatchesAScan) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    uint64_t n = 1 + rng() % 300;
    auto g = csr_with_degrees<uint32_t>(skewed_degrees(n, rng(), 900, rng() % n));
    auto parts = plan_partitions(g.offsets, 1 + rng() % 200);
    auto active = random_active<uint32_t>(n, (rng() % 100) / 100.0, rng());
    auto ranges = active_ranges<uint32_t>(parts, active);
    ASSERT_EQ(ranges.size(), parts.size());
    for (size_t p = 0; p < parts.size(); ++p) {
      uint64_t lo = 0;
      while (lo < active.size() && active[lo] < parts[p].first) ++lo;
      uint64_t hi = lo;
      while (hi < active.size() && active[hi] < parts[p].last) ++hi;
      EXPECT_EQ(ranges[p].first, lo);
      EXPECT_EQ(ranges[p].second, hi);
    }
  }
}

TEST(ActiveRanges, EmptyActiveList) {
  std::vector<eid_t> offsets{0, 2, 4, 6};
  auto parts = plan_partitions(offsets, 2);
  std::vector<uint64_t> none;
  auto ranges = active_ranges<uint64_t>(parts, none);
  ASSERT_EQ(ranges.size(), 3u);
  for (auto [lo, hi] : ranges) EXPECT_EQ(lo, hi);
}

}  // namespace
}  // namespace tg::subgraph
