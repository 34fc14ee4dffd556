// The presentation of pieces and partitions to the push kernel (work_unit.h),
// checked by emulating exactly the reads the kernel makes
// (kernels/push.cuh, push_warp_kernel / push_chunk_kernel):
//   u = frontier[i];  for k in [offsets[u], offsets[u + 1]): v = neighbors[k], w = weights[k]
// Over all units of an iteration, the (u, v, w) read must be exactly the
// active vertices' edges, each once.
#include "engines/gpu/subgraph/work_unit.h"

#include <gtest/gtest.h>

#include <random>

#include "engines/gpu/subgraph/edge_gather.h"
#include "engines/gpu/subgraph/subgraph_plan.h"
#include "subgraph_test_graphs.h"

namespace tg::subgraph {
namespace {

using testing::active_edge_triples;
using testing::csr_with_degrees;
using testing::random_active;
using testing::skewed_degrees;
using testing::TestCsr;

// The fields of the GPU engine's CsrView<V> that the push kernel reads.
template <typename V>
struct HostView {
  const eid_t* offsets = nullptr;
  const V* neighbors = nullptr;
  const weight_t* weights = nullptr;
};

using Triples = std::vector<std::tuple<uint64_t, uint64_t, float>>;

template <typename V>
void emulate_push(const HostView<V>& view, const V* frontier, uint64_t count, Triples* out) {
  for (uint64_t i = 0; i < count; ++i) {
    V u = frontier[i];
    for (eid_t k = view.offsets[u]; k < view.offsets[u + 1]; ++k)
      out->emplace_back(u, view.neighbors[k], view.weights[k]);
  }
}

// SubCSR: generate (reference steps 1-5), cut into pieces, gather each piece
// into a buffer of the piece capacity, present it, emulate the kernel.
template <typename V>
Triples run_pieces(const TestCsr<V>& g, const std::vector<V>& active, uint64_t cap) {
  auto sub = sub_offsets_of<V>(g.offsets, active);
  std::vector<eid_t> full(g.n + 1, 999999);
  scatter_sub_offsets<V>(active, sub, full);
  Triples got;
  for (const EdgeRange& piece : plan_pieces(sub, cap)) {
    std::vector<V> buf_n(cap);
    std::vector<weight_t> buf_w(cap);
    gather_edges_cpu<V>(g.offsets.data(), g.neighbors.data(), g.weights.data(), active, sub, piece.edge_begin,
                        piece.edge_end, buf_n.data(), buf_w.data());
    WorkUnit unit = piece_unit(piece, piece.split ? active[piece.first] : 0);
    const eid_t split_offsets[2] = {0, piece.edges()};
    HostView<V> view;
    present_unit(view, unit, full.data(), buf_n.data(), buf_w.data(), split_offsets);
    emulate_push(view, active.data() + unit.frontier_first, unit.frontier_count, &got);
  }
  std::sort(got.begin(), got.end());
  return got;
}

// Streaming: partitions of the CSR, each copied into a buffer of the
// partition capacity, with the slice of the active list inside it.
template <typename V>
Triples run_partitions(const TestCsr<V>& g, const std::vector<V>& active, uint64_t cap) {
  auto parts = plan_partitions(g.offsets, cap);
  auto ranges = active_ranges<V>(parts, active);
  Triples got;
  for (size_t p = 0; p < parts.size(); ++p) {
    const EdgeRange& part = parts[p];
    std::vector<V> buf_n(g.neighbors.begin() + static_cast<std::ptrdiff_t>(part.edge_begin),
                         g.neighbors.begin() + static_cast<std::ptrdiff_t>(part.edge_end));
    std::vector<weight_t> buf_w(g.weights.begin() + static_cast<std::ptrdiff_t>(part.edge_begin),
                                g.weights.begin() + static_cast<std::ptrdiff_t>(part.edge_end));
    buf_n.resize(cap);
    buf_w.resize(cap);
    WorkUnit unit = partition_unit(part, ranges[p].first, ranges[p].second);
    const eid_t split_offsets[2] = {0, part.edges()};
    HostView<V> view;
    present_unit(view, unit, g.offsets.data(), buf_n.data(), buf_w.data(), split_offsets);
    emulate_push(view, active.data() + unit.frontier_first, unit.frontier_count, &got);
  }
  std::sort(got.begin(), got.end());
  return got;
}

TEST(WorkUnit, PieceOfOneVertexAndOfASplitList) {
  auto g = csr_with_degrees<uint32_t>({2, 9, 0, 3});
  std::vector<uint32_t> active{1, 3};
  EXPECT_EQ(run_pieces(g, active, 4), active_edge_triples<uint32_t>(g, active));
  EXPECT_EQ(run_pieces(g, active, 9), active_edge_triples<uint32_t>(g, active));
  EXPECT_EQ(run_pieces(g, active, 12), active_edge_triples<uint32_t>(g, active));
}

TEST(WorkUnit, EmptyActiveSetReadsNothing) {
  auto g = csr_with_degrees<uint32_t>({2, 9, 0, 3});
  std::vector<uint32_t> none;
  EXPECT_TRUE(run_pieces(g, none, 4).empty());
  EXPECT_TRUE(run_partitions(g, none, 4).empty());
}

TEST(WorkUnit, LastVertexIsActive) {
  // offsets[u + 1] with u = n - 1 reads the (n + 1)-th entry.
  auto g = csr_with_degrees<uint64_t>({1, 1, 5});
  std::vector<uint64_t> active{2};
  EXPECT_EQ(run_pieces(g, active, 64), active_edge_triples<uint64_t>(g, active));
  EXPECT_EQ(run_partitions(g, active, 2), active_edge_triples<uint64_t>(g, active));
}

TEST(WorkUnit, RandomPiecesReadExactlyTheActiveEdges) {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 80; ++trial) {
    uint64_t n = 1 + rng() % 300;
    auto g = csr_with_degrees<uint32_t>(skewed_degrees(n, rng(), trial % 2 ? 1500 : 0, rng() % n));
    auto active = random_active<uint32_t>(n, (rng() % 101) / 100.0, rng());
    uint64_t cap = 1 + rng() % 400;
    EXPECT_EQ(run_pieces(g, active, cap), active_edge_triples<uint32_t>(g, active))
        << "trial " << trial << " cap " << cap;
  }
}

TEST(WorkUnit, RandomPartitionsReadExactlyTheActiveEdges) {
  std::mt19937_64 rng(43);
  for (int trial = 0; trial < 80; ++trial) {
    uint64_t n = 1 + rng() % 300;
    auto g = csr_with_degrees<uint64_t>(skewed_degrees(n, rng(), trial % 2 ? 1500 : 0, rng() % n));
    auto active = random_active<uint64_t>(n, (rng() % 101) / 100.0, rng());
    uint64_t cap = 1 + rng() % 400;
    EXPECT_EQ(run_partitions(g, active, cap), active_edge_triples<uint64_t>(g, active))
        << "trial " << trial << " cap " << cap;
  }
}

TEST(UnitMembers, PieceAndPartition) {
  uint32_t bits[2] = {0b1010u, 1u};  // vertices 1, 3, 32
  UnitMembers piece{bits, 1, 33};
  EXPECT_TRUE(piece(1u));
  EXPECT_FALSE(piece(2u));
  EXPECT_TRUE(piece(3u));
  EXPECT_TRUE(piece(uint64_t{32}));
  EXPECT_FALSE(piece(0u));
  UnitMembers narrower{bits, 2, 32};
  EXPECT_FALSE(narrower(1u));
  EXPECT_TRUE(narrower(3u));
  EXPECT_FALSE(narrower(32u));
  UnitMembers partition{nullptr, 10, 20};
  EXPECT_FALSE(partition(9u));
  EXPECT_TRUE(partition(10u));
  EXPECT_TRUE(partition(19u));
  EXPECT_FALSE(partition(20u));
}

}  // namespace
}  // namespace tg::subgraph
