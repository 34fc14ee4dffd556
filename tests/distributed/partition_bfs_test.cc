// Proof that a partition (distributed/partition.h) and the communicator
// (distributed/in_process_communicator.h) suffice for a traversal: a
// level-synchronous BFS across InProcessCommunicator ranks over the four
// subgraphs, as Pan, Pearce and Owens (IPDPS 2018) run it (Sections IV-A,
// V): delegate frontier and visited set as bitmasks OR-reduced every level,
// nn destinations sent to their owners by alltoallv (as global ids, turned
// into local ids on arrival), dn visits local. Its depths must equal
// support/reference.h's sequential BFS. A check of the pieces, not the
// product's BFS; on undirected graphs also with every level, or every other
// one, bottom-up as the GPU program pulls (host_programs.h's
// HostBfsDirection): the partition's reverse edges (nd of dn, nn of nn) and
// the normal frontier's bits by owner and slot.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "distributed/host_programs.h"
#include "distributed/in_process_communicator.h"
#include "distributed/partition.h"
#include "generators/generators.h"
#include "graph/builder.h"
#include "support/reference.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

using dist::Partition;
using dist::PartitionOptions;

std::vector<int32_t> distributed_bfs(const Partition& part, uint64_t source, HostBfsDirection direction) {
  std::vector<std::vector<int32_t>> per_rank(part.num_ranks());
  dist::run_ranks(part.num_ranks(),
                  [&](Communicator& c) { per_rank[c.rank()] = rank_bfs(c, part.ranks[c.rank()], source, direction); });
  for (int r = 1; r < part.num_ranks(); ++r) EXPECT_EQ(per_rank[r], per_rank[0]) << "rank " << r;
  return per_rank[0];
}

// Each (ranks, TH) pair takes one of the test sources, in turn, so that all
// of them run (more than once) without every pair running all of them: the
// deep shapes (a path through 4000 vertices) take two collectives a level.
void check_bfs(const AnyGraph& graph, const std::vector<std::optional<uint64_t>>& thresholds, int random_sources,
               HostBfsDirection direction = HostBfsDirection::kPush) {
  const std::vector<uint64_t> sources = test_sources(graph, random_sources, 29);
  if (sources.empty()) return;
  size_t turn = 0;
  for (int p : {1, 2, 3, 4})
    for (std::optional<uint64_t> th : thresholds) {
      const Partition part = dist::partition_graph(graph, p, PartitionOptions{.threshold = th});
      const uint64_t source = sources[turn++ % sources.size()];
      ASSERT_EQ(distributed_bfs(part, source, direction), reference_bfs(graph, source))
          << p << " ranks, TH " << part.threshold << ", source " << source << ", direction " << static_cast<int>(direction);
    }
}

const std::vector<std::optional<uint64_t>> kThresholds = {0, 1, std::nullopt, std::numeric_limits<uint64_t>::max()};

class PartitionBfsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PartitionBfsTest, DepthsEqualSequentialBfs) {
  const Shape& shape = find_shape(GetParam());
  for (Orientation o : {Orientation::kDirectedNoCsc, Orientation::kUndirected}) {
    SCOPED_TRACE(orientation_name(o));
    check_bfs(build_variant(shape.edges, o, false), kThresholds, 2);
  }
}

TEST_P(PartitionBfsTest, BottomUpLevelsEqualSequentialBfs) {
  const AnyGraph graph = build_variant(find_shape(GetParam()).edges, Orientation::kUndirected, false);
  for (HostBfsDirection direction : {HostBfsDirection::kPull, HostBfsDirection::kAlternate})
    check_bfs(graph, kThresholds, 2, direction);
}

INSTANTIATE_TEST_SUITE_P(Shapes, PartitionBfsTest, ::testing::ValuesIn(shape_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// A larger Kronecker graph with thresholds in the range that leaves both
// delegates and nn edges (the small shapes' default TH is 0: no nn edges).
AnyGraph kron12(bool undirected) {
  GeneratorSpec spec;
  spec.scale = 12;
  spec.edge_factor = 8;
  spec.seed = 5;
  EdgeList edges = generate(spec);
  edges.directed = !undirected;
  return build_graph(std::move(edges), BuildOptions{});
}

TEST(PartitionBfs, KroneckerWithMiddleThresholds) {
  for (bool undirected : {true, false}) {
    SCOPED_TRACE(undirected ? "undirected" : "directed");
    check_bfs(kron12(undirected), {4, 16, 64}, 4);
  }
  for (HostBfsDirection direction : {HostBfsDirection::kPull, HostBfsDirection::kAlternate})
    check_bfs(kron12(true), {4, 16, 64}, 4, direction);
}

}  // namespace
}  // namespace tg::test
