// SSSP, CC and PageRank across InProcessCommunicator ranks over a
// degree-separated partition (host_programs.h states their exchange rules)
// must give the sequential reference's values on every shape, rank count and
// threshold.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "distributed/host_programs.h"
#include "distributed/in_process_communicator.h"
#include "distributed/partition.h"
#include "support/reference.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

using dist::Partition;
using dist::PartitionOptions;

template <typename F>
std::vector<double> across_ranks(const Partition& part, F program) {
  std::vector<std::vector<double>> per_rank(part.num_ranks());
  dist::run_ranks(part.num_ranks(), [&](Communicator& c) { per_rank[c.rank()] = program(c); });
  for (int r = 1; r < part.num_ranks(); ++r) EXPECT_EQ(per_rank[r], per_rank[0]) << "rank " << r;
  return per_rank[0];
}

const std::vector<std::optional<uint64_t>> kThresholds = {0, 1, std::nullopt, std::numeric_limits<uint64_t>::max()};

class PartitionProgramsTest : public ::testing::TestWithParam<std::string> {};

// Integer weights, so sums are exact and the distances must be equal.
TEST_P(PartitionProgramsTest, SsspEqualsDijkstra) {
  const Shape& shape = find_shape(GetParam());
  for (Orientation o : {Orientation::kDirectedNoCsc, Orientation::kUndirected}) {
    const AnyGraph graph = build_variant(with_weights(shape.edges, WeightKind::kInteger, 5), o, false);
    const std::vector<uint64_t> sources = test_sources(graph, 1, 7);
    size_t turn = 0;
    for (int p : {1, 2, 3})
      for (std::optional<uint64_t> th : kThresholds) {
        if (sources.empty()) continue;
        const uint64_t source = sources[turn++ % sources.size()];
        const Partition part = dist::partition_graph(graph, p, PartitionOptions{.threshold = th});
        const std::vector<double> dist = across_ranks(part, [&](Communicator& c) {
          return min_relax(
              c, part.ranks[c.rank()], [&](uint64_t v) { return v == source ? 0.0 : std::numeric_limits<double>::infinity(); },
              [](double du, weight_t w) { return du + static_cast<double>(w); });
        });
        ASSERT_EQ(dist, reference_sssp(graph, source))
            << orientation_name(o) << ", " << p << " ranks, TH " << part.threshold << ", source " << source;
      }
  }
}

// Labels are the smallest id of the component, on 1, 2 and 4 ranks.
void check_cc(const std::string& shape, const std::function<std::vector<double>(Communicator&, const RankGraph&)>& cc) {
  const AnyGraph graph = build_variant(find_shape(shape).edges, Orientation::kUndirected, false);
  std::vector<double> expected;
  for (uint64_t label : reference_cc(graph)) expected.push_back(static_cast<double>(label));
  for (int p : {1, 2, 4})
    for (std::optional<uint64_t> th : kThresholds) {
      const Partition part = dist::partition_graph(graph, p, PartitionOptions{.threshold = th});
      const std::vector<double> labels = across_ranks(part, [&](Communicator& c) { return cc(c, part.ranks[c.rank()]); });
      ASSERT_EQ(labels, expected) << p << " ranks, TH " << part.threshold;
    }
}

// Min-propagation of ids.
TEST_P(PartitionProgramsTest, CcEqualsUnionFind) {
  check_cc(GetParam(), [](Communicator& c, const RankGraph& g) {
    return min_relax(c, g, [](uint64_t v) { return static_cast<double>(v); }, [](double label, weight_t) { return label; });
  });
}

// The hub's component found by a BFS first (RankRelax<CcRule>'s default where there are delegates).
TEST_P(PartitionProgramsTest, SeededCcEqualsUnionFind) { check_cc(GetParam(), seeded_cc); }

TEST_P(PartitionProgramsTest, PageRankEqualsPowerIteration) {
  const Shape& shape = find_shape(GetParam());
  for (Orientation o : {Orientation::kDirectedNoCsc, Orientation::kUndirected}) {
    const AnyGraph graph = build_variant(shape.edges, o, false);
    if (num_vertices(graph) == 0) continue;
    const std::vector<double> expected = reference_pagerank(graph, AlgorithmOptions{});
    for (int p : {1, 3})
      for (std::optional<uint64_t> th : kThresholds) {
        const Partition part = dist::partition_graph(graph, p, PartitionOptions{.threshold = th});
        const std::vector<double> rank = across_ranks(part, [&](Communicator& c) { return pagerank(c, part.ranks[c.rank()], 0.85); });
        ASSERT_EQ(rank.size(), expected.size());
        for (size_t v = 0; v < rank.size(); ++v)
          ASSERT_NEAR(rank[v], expected[v], 1e-10) << orientation_name(o) << ", " << p << " ranks, TH "
                                                   << part.threshold << ", vertex " << v;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, PartitionProgramsTest, ::testing::ValuesIn(shape_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace tg::test
