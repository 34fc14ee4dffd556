// The host programs of tests/distributed/host_programs.h as issue 10's
// multi-process form runs them: one rank per process of mpirun, each
// building only its own part of the partition (partition_rank) and talking
// through MpiCommunicator. Every process checks the values it gathered
// against the sequential reference. CTest runs it as `mpiexec -n 3`.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "distributed/host_programs.h"
#include "distributed/mpi/mpi_communicator.h"
#include "distributed/partition.h"
#include "support/reference.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

dist::MpiCommunicator& world() {
  static dist::MpiCommunicator c;
  return c;
}

const std::vector<std::optional<uint64_t>> kThresholds = {0, 1, std::nullopt, std::numeric_limits<uint64_t>::max()};

// Only EXPECTs from here on: a process that returned early would leave the
// others waiting in a collective.
class MpiProgramsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MpiProgramsTest, EveryProgramEqualsItsReference) {
  dist::MpiCommunicator& c = world();
  const Shape& shape = find_shape(GetParam());
  for (Orientation o : {Orientation::kDirectedNoCsc, Orientation::kUndirected}) {
    const AnyGraph graph = build_variant(with_weights(shape.edges, WeightKind::kInteger, 5), o, false);
    const std::vector<uint64_t> sources = test_sources(graph, 1, 13);
    for (std::optional<uint64_t> th : kThresholds) {
      const RankGraph g = dist::partition_rank(graph, c.size(), c.rank(), dist::PartitionOptions{.threshold = th});
      const std::string where = std::string(orientation_name(o)) + ", TH " + std::to_string(g.threshold) + ", rank " +
                                std::to_string(c.rank()) + " of " + std::to_string(c.size());
      for (uint64_t s : sources) {
        EXPECT_EQ(rank_bfs(c, g, s), reference_bfs(graph, s)) << where << ", bfs from " << s;
        const std::vector<double> dist = min_relax(
            c, g, [&](uint64_t v) { return v == s ? 0.0 : std::numeric_limits<double>::infinity(); },
            [](double du, weight_t w) { return du + static_cast<double>(w); });
        EXPECT_EQ(dist, reference_sssp(graph, s)) << where << ", sssp from " << s;
      }
      if (num_vertices(graph) == 0) continue;
      const std::vector<double> rank = pagerank(c, g, 0.85);
      const std::vector<double> expected = reference_pagerank(graph, AlgorithmOptions{});
      for (size_t v = 0; v < rank.size() && v < expected.size(); ++v)
        EXPECT_NEAR(rank[v], expected[v], 1e-10) << where << ", pagerank of " << v;
      if (o != Orientation::kUndirected) continue;
      const std::vector<double> labels =
          min_relax(c, g, [](uint64_t v) { return static_cast<double>(v); }, [](double l, weight_t) { return l; });
      std::vector<double> components;
      for (uint64_t l : reference_cc(graph)) components.push_back(static_cast<double>(l));
      EXPECT_EQ(labels, components) << where << ", cc";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, MpiProgramsTest, ::testing::ValuesIn(shape_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// Prints failures of ranks other than 0, whose full output is off.
class FailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::fprintf(stderr, "rank %d: %s:%d: %s\n", rank_, r.file_name() ? r.file_name() : "?", r.line_number(),
                   r.summary());
  }

 private:
  int rank_;
};

// Gathers and broadcasts beyond one MPI message (2 GiB) go in pieces: a
// communicator whose message limit is 7 bytes splits these into many, and
// every rank still gets every rank's values in rank order.
TEST(MpiCommunicatorPieces, AllgathervAndBroadcastBeyondOneMessage) {
  world();  // MPI is initialised with the first communicator
  dist::MpiCommunicator c(MPI_COMM_WORLD, 7);
  std::vector<uint64_t> mine;
  for (int i = 0; i < 5 * c.rank() + 3; ++i) mine.push_back(1000 * static_cast<uint64_t>(c.rank()) + i);
  std::vector<uint64_t> counts;
  const std::vector<uint64_t> all = c.allgatherv(std::span<const uint64_t>(mine), &counts);
  std::vector<uint64_t> expected;
  for (int q = 0; q < c.size(); ++q) {
    EXPECT_EQ(counts[q], static_cast<uint64_t>(5 * q + 3));
    for (int i = 0; i < 5 * q + 3; ++i) expected.push_back(1000 * static_cast<uint64_t>(q) + i);
  }
  EXPECT_EQ(all, expected) << "rank " << c.rank();

  std::vector<int32_t> data(101, c.rank() == 1 % c.size() ? 0 : -1);
  if (c.rank() == 1 % c.size())
    for (int i = 0; i < 101; ++i) data[i] = i * i;
  c.broadcast(std::span<int32_t>(data), 1 % c.size());
  for (int i = 0; i < 101; ++i) EXPECT_EQ(data[i], i * i) << "rank " << c.rank() << ", entry " << i;
}

}  // namespace
}  // namespace tg::test

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new tg::test::FailurePrinter(rank));
  }
  int failed = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
