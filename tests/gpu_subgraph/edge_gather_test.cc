// SubCSR generation on the host (edge_gather.h): the reference steps 1-5 and
// the OpenMP edge compaction of step 6, against a brute-force SubCSR, for
// whole SubCSRs and for the pieces an oversized one is cut into.
#include "engines/gpu/subgraph/edge_gather.h"

#include <gtest/gtest.h>

#include <random>

#include "core/error.h"
#include "engines/gpu/subgraph/subgraph_plan.h"
#include "subgraph_test_graphs.h"

namespace tg::subgraph {
namespace {

using testing::brute_subcsr;
using testing::csr_with_degrees;
using testing::random_active;
using testing::skewed_degrees;
using testing::TestCsr;

template <typename V>
void expect_gather_matches(const TestCsr<V>& g, const std::vector<V>& active, uint64_t chunk) {
  std::vector<V> want_n;
  std::vector<weight_t> want_w;
  brute_subcsr<V>(g, active, &want_n, &want_w);
  std::vector<eid_t> sub = sub_offsets_of<V>(g.offsets, active);
  ASSERT_EQ(sub.size(), active.size() + 1);
  ASSERT_EQ(sub.back(), want_n.size());
  std::vector<V> got_n(want_n.size() + 1, V(-1));  // one sentinel past the end
  std::vector<weight_t> got_w(want_w.size() + 1, -1.0f);
  gather_edges_cpu<V>(g.offsets.data(), g.neighbors.data(), g.weights.data(), active, sub, 0, sub.back(),
                      got_n.data(), got_w.data(), chunk);
  EXPECT_EQ(got_n.back(), V(-1)) << "wrote past the end";
  EXPECT_EQ(got_w.back(), -1.0f);
  got_n.pop_back();
  got_w.pop_back();
  EXPECT_EQ(got_n, want_n);
  EXPECT_EQ(got_w, want_w);
}

TEST(SubOffsets, ExclusiveScanOfActiveDegrees) {
  auto g = csr_with_degrees<uint32_t>({2, 0, 3, 1, 4});
  std::vector<uint32_t> active{0, 1, 2, 4};
  EXPECT_EQ(sub_offsets_of<uint32_t>(g.offsets, active), (std::vector<eid_t>{0, 2, 2, 5, 9}));
  std::vector<uint32_t> none;
  EXPECT_EQ(sub_offsets_of<uint32_t>(g.offsets, none), (std::vector<eid_t>{0}));
}

TEST(ScatterSubOffsets, GivesEachActiveVertexItsList) {
  // The property the push kernel relies on (work_unit.h): for each active u,
  // [full[u], full[u + 1]) is u's list in the SubCSR, even when u + 1 is
  // active too (the two writes agree) or is the last vertex.
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 100; ++trial) {
    uint64_t n = 1 + rng() % 200;
    auto g = csr_with_degrees<uint32_t>(skewed_degrees(n, rng()));
    auto active = random_active<uint32_t>(n, (rng() % 101) / 100.0, rng());
    auto sub = sub_offsets_of<uint32_t>(g.offsets, active);
    std::vector<eid_t> full(n + 1, 77777);  // stale values elsewhere must not matter
    scatter_sub_offsets<uint32_t>(active, sub, full);
    for (size_t i = 0; i < active.size(); ++i) {
      uint32_t u = active[i];
      EXPECT_EQ(full[u], sub[i]);
      EXPECT_EQ(full[u + 1] - full[u], g.degree(u));
    }
  }
}

TEST(GatherEdgesCpu, EmptyActiveSet) {
  auto g = csr_with_degrees<uint32_t>({3, 4});
  expect_gather_matches<uint32_t>(g, {}, kGatherChunkEdges);
}

TEST(GatherEdgesCpu, OneVertex) {
  auto g = csr_with_degrees<uint32_t>({3, 4, 5});
  expect_gather_matches<uint32_t>(g, {1}, kGatherChunkEdges);
  expect_gather_matches<uint32_t>(g, {2}, 1);
}

TEST(GatherEdgesCpu, AllVertices) {
  auto g = csr_with_degrees<uint32_t>(skewed_degrees(500, 5));
  std::vector<uint32_t> all(500);
  for (uint32_t v = 0; v < 500; ++v) all[v] = v;
  expect_gather_matches<uint32_t>(g, all, kGatherChunkEdges);
  expect_gather_matches<uint32_t>(g, all, 7);
}

TEST(GatherEdgesCpu, ActiveVerticesWithoutEdges) {
  auto g = csr_with_degrees<uint32_t>({0, 0, 5, 0});
  expect_gather_matches<uint32_t>(g, {0, 1, 3}, 2);
  expect_gather_matches<uint32_t>(g, {0, 1, 2, 3}, 2);
}

TEST(GatherEdgesCpu, OneHugeListIsSharedByChunks) {
  auto g = csr_with_degrees<uint64_t>(skewed_degrees(300, 9, 100000, 150));
  auto active = random_active<uint64_t>(300, 0.3, 4);
  active.insert(std::lower_bound(active.begin(), active.end(), 150u), 150u);
  active.erase(std::unique(active.begin(), active.end()), active.end());
  expect_gather_matches<uint64_t>(g, active, 1000);
}

TEST(GatherEdgesCpu, RandomShapesAndChunkSizes) {
  std::mt19937_64 rng(21);
  for (int trial = 0; trial < 60; ++trial) {
    uint64_t n = 1 + rng() % 400;
    auto g = csr_with_degrees<uint32_t>(skewed_degrees(n, rng(), trial % 4 == 0 ? 3000 : 0, rng() % n));
    auto active = random_active<uint32_t>(n, (rng() % 101) / 100.0, rng());
    uint64_t chunk = 1 + rng() % 300;
    SCOPED_TRACE("trial " + std::to_string(trial));
    expect_gather_matches<uint32_t>(g, active, chunk);
  }
}

// Sub-offsets of each list's first `limit` entries (the builder's SubCSR of
// CC's sampled heads, SubcsrBuilder::build_from_list): the gather copies
// those entries from the start of each list.
TEST(GatherEdgesCpu, HeadsOfEachListFromLimitedSubOffsets) {
  std::mt19937_64 rng(22);
  for (int trial = 0; trial < 40; ++trial) {
    const uint64_t n = 1 + rng() % 400;
    auto g = csr_with_degrees<uint32_t>(skewed_degrees(n, rng(), trial % 4 == 0 ? 3000 : 0, rng() % n));
    auto active = random_active<uint32_t>(n, (rng() % 101) / 100.0, rng());
    const eid_t limit = 1 + rng() % 3;
    std::vector<eid_t> sub{0};
    std::vector<uint32_t> want_n;
    std::vector<weight_t> want_w;
    for (uint32_t v : active) {
      for (eid_t k = g.offsets[v]; k < g.offsets[v + 1] && k < g.offsets[v] + limit; ++k) {
        want_n.push_back(g.neighbors[k]);
        want_w.push_back(g.weights[k]);
      }
      sub.push_back(want_n.size());
    }
    std::vector<uint32_t> got_n(want_n.size());
    std::vector<weight_t> got_w(want_w.size());
    gather_edges_cpu<uint32_t>(g.offsets.data(), g.neighbors.data(), g.weights.data(), active, sub, 0, sub.back(),
                               got_n.data(), got_w.data(), 1 + rng() % 300);
    SCOPED_TRACE("trial " + std::to_string(trial) + ", limit " + std::to_string(limit));
    EXPECT_EQ(got_n, want_n);
    EXPECT_EQ(got_w, want_w);
  }
}

TEST(GatherEdgesCpu, PiecesConcatenateToTheSubcsr) {
  // An oversized SubCSR, cut into pieces of a small buffer, gathered piece by
  // piece into a buffer of exactly that capacity.
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 40; ++trial) {
    uint64_t n = 1 + rng() % 300;
    auto g = csr_with_degrees<uint32_t>(skewed_degrees(n, rng(), 2000, rng() % n));
    auto active = random_active<uint32_t>(n, 0.2 + (rng() % 80) / 100.0, rng());
    std::vector<uint32_t> want_n;
    std::vector<weight_t> want_w;
    brute_subcsr<uint32_t>(g, active, &want_n, &want_w);
    auto sub = sub_offsets_of<uint32_t>(g.offsets, active);
    uint64_t cap = 1 + rng() % 500;
    // Small work items in a few trials only: each parallel region costs a
    // fork/join, and small capacities make thousands of pieces.
    uint64_t chunk = trial % 4 == 0 ? 1 + rng() % 64 : kGatherChunkEdges;
    std::vector<uint32_t> got_n;
    std::vector<weight_t> got_w;
    for (const EdgeRange& piece : plan_pieces(sub, cap)) {
      std::vector<uint32_t> buf_n(cap, 0xdeadbeef);
      std::vector<weight_t> buf_w(cap, -2.0f);
      gather_edges_cpu<uint32_t>(g.offsets.data(), g.neighbors.data(), g.weights.data(), active, sub,
                                 piece.edge_begin, piece.edge_end, buf_n.data(), buf_w.data(), chunk);
      got_n.insert(got_n.end(), buf_n.begin(), buf_n.begin() + static_cast<std::ptrdiff_t>(piece.edges()));
      got_w.insert(got_w.end(), buf_w.begin(), buf_w.begin() + static_cast<std::ptrdiff_t>(piece.edges()));
      // Nothing past the piece's edges was touched.
      for (uint64_t k = piece.edges(); k < cap; ++k) ASSERT_EQ(buf_n[k], 0xdeadbeefu);
    }
    EXPECT_EQ(got_n, want_n) << "trial " << trial;
    EXPECT_EQ(got_w, want_w) << "trial " << trial;
  }
}

TEST(GatherEdgesCpu, WithoutWeights) {
  auto g = csr_with_degrees<uint32_t>({3, 2, 6});
  std::vector<uint32_t> active{0, 2};
  auto sub = sub_offsets_of<uint32_t>(g.offsets, active);
  std::vector<uint32_t> out(9);
  gather_edges_cpu<uint32_t>(g.offsets.data(), g.neighbors.data(), nullptr, active, sub, 0, 9, out.data(), nullptr);
  std::vector<uint32_t> want(g.neighbors.begin(), g.neighbors.begin() + 3);
  want.insert(want.end(), g.neighbors.begin() + 5, g.neighbors.end());
  EXPECT_EQ(out, want);
}

TEST(GatherEdgesCpu, BadRangesAreClearErrors) {
  auto g = csr_with_degrees<uint32_t>({3, 2});
  std::vector<uint32_t> active{0, 1};
  auto sub = sub_offsets_of<uint32_t>(g.offsets, active);
  std::vector<uint32_t> out(8);
  EXPECT_THROW(gather_edges_cpu<uint32_t>(g.offsets.data(), g.neighbors.data(), nullptr, active, sub, 0, 6,
                                          out.data(), nullptr),
               Error);
  EXPECT_THROW(gather_edges_cpu<uint32_t>(g.offsets.data(), g.neighbors.data(), nullptr, active, sub, 4, 3,
                                          out.data(), nullptr),
               Error);
  std::vector<eid_t> short_sub{0, 3};
  EXPECT_THROW(gather_edges_cpu<uint32_t>(g.offsets.data(), g.neighbors.data(), nullptr, active, short_sub, 0, 3,
                                          out.data(), nullptr),
               Error);
}

}  // namespace
}  // namespace tg::subgraph
