// distributed/rank_memory.h: the GPU memory of a rank's part, counted from
// plan_partition's counts alone, is what the built part's arrays take, and
// the counts are the built rank's, so `tiergraph plan --gpus N` and the
// programs' own fit checks agree without building or a GPU.
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "distributed/partition.h"
#include "distributed/partition_summary.h"
#include "distributed/rank_memory.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

uint64_t rounded(uint64_t bytes) { return (bytes + 255) / 256 * 256; }

template <typename N>
uint64_t lists_of(const Csr<N>& c, bool weights) {
  return rounded(c.neighbors.bytes()) + (weights ? rounded(c.weights.bytes()) : 0);
}

// The push kernels' chunk index: a row per 2048 edges and one more, on the GPU
// with the offsets (none without edges).
template <typename N>
uint64_t chunk_rows(const Csr<N>& c) {
  const uint64_t edges = c.num_edges();
  return edges == 0 ? 0 : rounded(((edges + 2047) / 2048 + 1) * sizeof(uint32_t));
}

TEST(RankMemory, PlannedCountsAndBytesAreTheBuiltPartsOwn) {
  for (const std::string& name : {"pieces", "big_star", "kron_large", "urand_1", "single_vertex", "no_edges"}) {
    for (Orientation o : {Orientation::kDirectedNoCsc, Orientation::kUndirected}) {
      const AnyGraph graph = build_variant(with_weights(find_shape(name).edges, WeightKind::kInteger, 7), o, false);
      for (int p : {1, 2, 3, 4})
        for (std::optional<uint64_t> th : {std::optional<uint64_t>{0}, std::optional<uint64_t>{}, std::optional<uint64_t>{3},
                                           std::optional<uint64_t>{std::numeric_limits<uint64_t>::max()}}) {
          const dist::PartitionOptions options{.threshold = th};
          const dist::Partition built = dist::partition_graph(graph, p, options);
          const dist::PartitionSummary planned = dist::plan_partition(graph, p, options);
          for (int r = 0; r < p; ++r) {
            const std::string where = name + ", " + orientation_name(o) + ", " + std::to_string(p) + " ranks, rank " +
                                      std::to_string(r) + ", TH " + std::to_string(built.threshold);
            const dist::RankGraph& g = built.ranks[r];
            const dist::RankShape a = dist::shape_of(planned, r), b = dist::shape_of(g);
            EXPECT_EQ(a.normals, b.normals) << where;
            EXPECT_EQ(a.delegates, b.delegates) << where;
            EXPECT_EQ(a.edges, b.edges) << where;
            EXPECT_EQ(a.weighted, b.weighted) << where;
            for (bool weights : {false, true}) {
              const dist::RankMemory m = dist::part_memory(a, weights);
              EXPECT_EQ(m.lists, lists_of(g.nn, weights) + lists_of(g.nd, weights) + lists_of(g.dn, weights) +
                                     lists_of(g.dd, weights))
                  << where;
              EXPECT_EQ(m.offsets, rounded(g.nn.offsets.bytes()) + rounded(g.nd.offsets.bytes()) +
                                       rounded(g.dn.offsets.bytes()) + rounded(g.dd.offsets.bytes()) +
                                       rounded(g.local_of_slot.bytes()) + chunk_rows(g.nn) + chunk_rows(g.nd) +
                                       chunk_rows(g.dn) + chunk_rows(g.dd))
                  << where;
            }
          }
        }
    }
  }
}

TEST(RankMemory, EachProgramCountsItsStateAndOnlySsspItsWeights) {
  const AnyGraph graph = build_variant(with_weights(find_shape("kron_large").edges, WeightKind::kInteger, 7),
                                       Orientation::kUndirected, false);
  const dist::PartitionSummary planned = dist::plan_partition(graph, 2);
  const dist::RankShape s = dist::shape_of(planned, 0);
  for (const char* algorithm : {"bfs", "cc", "sssp", "pagerank"}) {
    const dist::RankMemory m = dist::rank_memory(algorithm, s);
    EXPECT_GT(m.state, 0u) << algorithm;
    EXPECT_EQ(m.on_gpu(true), m.offsets + m.lists + m.state) << algorithm;
    EXPECT_EQ(m.on_gpu(false), m.offsets + m.state) << algorithm;
    EXPECT_EQ(m.lists, dist::part_memory(s, std::string(algorithm) == "sssp").lists) << algorithm;
  }
  EXPECT_GT(dist::rank_memory("sssp", s).lists, dist::rank_memory("cc", s).lists);
  EXPECT_THROW(dist::rank_memory("bc", s), Error);
}

}  // namespace
}  // namespace tg::test
