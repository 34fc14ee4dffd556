// Proof that a partition (distributed/partition.h) and the communicator
// (distributed/in_process_communicator.h) suffice for a traversal: a
// level-synchronous BFS across InProcessCommunicator ranks over the four
// subgraphs, as Pan, Pearce and Owens (IPDPS 2018) run it (Sections IV-A,
// V): delegate frontier and visited set as bitmasks OR-reduced every level,
// nn destinations sent to their owners by alltoallv (as global ids, turned
// into local ids on arrival), dn visits local. Its depths must equal
// support/reference.h's sequential BFS. A check of the pieces, not the
// product's BFS; push only.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "distributed/in_process_communicator.h"
#include "distributed/partition.h"
#include "generators/generators.h"
#include "graph/builder.h"
#include "support/reference.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

using dist::Communicator;
using dist::kNoLocalId;
using dist::Partition;
using dist::PartitionOptions;
using dist::RankGraph;

using Bitmask = std::vector<uint64_t>;
bool test_bit(const Bitmask& m, uint64_t i) { return (m[i / 64] >> (i % 64)) & 1; }
void set_bit(Bitmask& m, uint64_t i) { m[i / 64] |= uint64_t{1} << (i % 64); }

struct VertexDepth {
  uint64_t vertex;
  int32_t depth;
};

// One rank's BFS; returns every vertex's depth (gathered on every rank).
std::vector<int32_t> rank_bfs(Communicator& c, const Partition& part, uint64_t source) {
  const RankGraph& g = part.ranks[c.rank()];
  const int p = c.size();
  const uint32_t d = g.num_delegates();
  const size_t words = (d + 63) / 64;

  std::vector<int32_t> normal_depth(g.num_normals(), -1), delegate_depth(d, -1);
  Bitmask visited(words, 0), delegate_frontier(words, 0);
  std::vector<uint32_t> frontier;  // local ids
  if (const uint32_t k = part.delegate_id(source); k != kNoLocalId) {
    set_bit(visited, k);
    set_bit(delegate_frontier, k);
    delegate_depth[k] = 0;
  } else if (g.owns_slot_of(source)) {
    normal_depth[g.local_id(source)] = 0;
    frontier.push_back(g.local_id(source));
  }

  for (int32_t level = 0;; ++level) {
    std::vector<uint32_t> next;
    auto visit_local = [&](uint32_t l) {
      if (normal_depth[l] >= 0) return;
      normal_depth[l] = level + 1;
      next.push_back(l);
    };
    Bitmask reached(words, 0);  // delegates reached from here this level
    auto reach_delegate = [&](uint32_t k) {
      if (!test_bit(visited, k)) set_bit(reached, k);
    };
    std::vector<std::vector<uint64_t>> to_owner(p);

    for (uint32_t u : frontier) {
      for (eid_t e = g.nn.offsets[u]; e < g.nn.offsets[u + 1]; ++e)
        to_owner[g.nn.neighbors[e] % p].push_back(g.nn.neighbors[e]);
      for (eid_t e = g.nd.offsets[u]; e < g.nd.offsets[u + 1]; ++e) reach_delegate(g.nd.neighbors[e]);
    }
    for (uint32_t k = 0; k < d; ++k) {
      if (!test_bit(delegate_frontier, k)) continue;
      for (eid_t e = g.dn.offsets[k]; e < g.dn.offsets[k + 1]; ++e) visit_local(g.dn.neighbors[e]);
      for (eid_t e = g.dd.offsets[k]; e < g.dd.offsets[k + 1]; ++e) reach_delegate(g.dd.neighbors[e]);
    }

    // Normal vertices to their owners (Section V-B).
    std::vector<uint64_t> send, send_counts;
    for (const std::vector<uint64_t>& list : to_owner) {
      send.insert(send.end(), list.begin(), list.end());
      send_counts.push_back(list.size());
    }
    for (uint64_t v : c.alltoallv(std::span<const uint64_t>(send), send_counts)) {
      EXPECT_TRUE(g.owns_slot_of(v)) << v << " sent to rank " << c.rank();
      const uint32_t l = g.local_id(v);
      EXPECT_NE(l, kNoLocalId) << "nn destination " << v << " is a delegate";
      if (l != kNoLocalId) visit_local(l);
    }

    // Delegates by a global OR (Section V-A): the same masks on every rank.
    // One more word says whether any rank has normal vertices to visit next,
    // so a level costs two collectives, not three.
    reached.push_back(next.empty() ? 0 : 1);
    c.bitwise_or(std::span<uint64_t>(reached));
    const bool normals_next = reached.back() != 0;
    reached.pop_back();
    bool delegates_next = false;
    for (size_t i = 0; i < words; ++i) {
      delegate_frontier[i] = reached[i] & ~visited[i];
      visited[i] |= reached[i];
      delegates_next |= delegate_frontier[i] != 0;
    }
    for (uint32_t k = 0; k < d; ++k)
      if (test_bit(delegate_frontier, k)) delegate_depth[k] = level + 1;
    frontier = std::move(next);
    if (!normals_next && !delegates_next) break;
  }

  // Every rank's delegate depths are rank 0's.
  std::vector<int32_t> rank0 = delegate_depth;
  c.broadcast(std::span<int32_t>(rank0), 0);
  EXPECT_EQ(delegate_depth, rank0) << "rank " << c.rank();

  std::vector<VertexDepth> mine;
  for (uint32_t l = 0; l < g.num_normals(); ++l) mine.push_back({g.normal_global[l], normal_depth[l]});
  std::vector<int32_t> depth(part.num_vertices, std::numeric_limits<int32_t>::min());
  for (const VertexDepth& x : c.allgatherv(std::span<const VertexDepth>(mine))) depth[x.vertex] = x.depth;
  for (uint32_t k = 0; k < d; ++k) depth[part.delegate_global[k]] = delegate_depth[k];
  return depth;
}

std::vector<int32_t> distributed_bfs(const Partition& part, uint64_t source) {
  std::vector<std::vector<int32_t>> per_rank(part.num_ranks());
  dist::run_ranks(part.num_ranks(), [&](Communicator& c) { per_rank[c.rank()] = rank_bfs(c, part, source); });
  for (int r = 1; r < part.num_ranks(); ++r) EXPECT_EQ(per_rank[r], per_rank[0]) << "rank " << r;
  return per_rank[0];
}

// Each (ranks, TH) pair takes one of the test sources, in turn, so that all
// of them run (more than once) without every pair running all of them: the
// deep shapes (a path through 4000 vertices) take two collectives a level.
void check_bfs(const AnyGraph& graph, const std::vector<std::optional<uint64_t>>& thresholds, int random_sources) {
  const std::vector<uint64_t> sources = test_sources(graph, random_sources, 29);
  if (sources.empty()) return;
  size_t turn = 0;
  for (int p : {1, 2, 3, 4})
    for (std::optional<uint64_t> th : thresholds) {
      const Partition part = dist::partition_graph(graph, p, PartitionOptions{.threshold = th});
      const uint64_t source = sources[turn++ % sources.size()];
      ASSERT_EQ(distributed_bfs(part, source), reference_bfs(graph, source))
          << p << " ranks, TH " << part.threshold << ", source " << source;
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

INSTANTIATE_TEST_SUITE_P(Shapes, PartitionBfsTest, ::testing::ValuesIn(shape_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// A larger Kronecker graph with thresholds in the range that leaves both
// delegates and nn edges (the small shapes' default TH is 0: no nn edges).
TEST(PartitionBfs, KroneckerWithMiddleThresholds) {
  GeneratorSpec spec;
  spec.scale = 12;
  spec.edge_factor = 8;
  spec.seed = 5;
  for (bool undirected : {true, false}) {
    EdgeList edges = generate(spec);
    edges.directed = !undirected;
    const AnyGraph graph = build_graph(std::move(edges), BuildOptions{});
    SCOPED_TRACE(undirected ? "undirected" : "directed");
    check_bfs(graph, {4, 16, 64}, 4);
  }
}

}  // namespace
}  // namespace tg::test
