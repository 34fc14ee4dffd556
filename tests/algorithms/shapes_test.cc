// Every algorithm on the CPU engine, on every test shape (support/shapes.h),
// directed (with and without the CSC) and undirected, 32- and 64-bit ids,
// 1 and 2 threads, several sources: the result must equal the sequential
// reference and pass the verifier. SSSP and SSWP run with every weight kind.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "engines/run.h"
#include "support/algorithm_checks.h"
#include "support/shapes.h"
#include "support/thread_count.h"

namespace tg::test {
namespace {

// One test per shape and algorithm (the orientations inside it), to keep the
// number of CTest entries, each a process, modest.
class ShapeTest : public ::testing::TestWithParam<std::string> {
 protected:
  const Shape& shape() const { return find_shape(GetParam()); }

  // Runs the algorithm on variants of the shape (orientations, ids 32/64,
  // threads 1/2, each weight kind where it needs weights) from the test sources.
  void check_all(Algorithm algorithm) {
    // An edge list without edges has no weights either (EdgeList::weighted);
    // SSSP/SSWP still run on it, since no weight is ever read.
    for (Orientation o : all_orientations()) {
      // PageRank pulls over in-edges: a directed graph must come with its CSC.
      if (algorithm == Algorithm::kPageRank && o == Orientation::kDirectedNoCsc) continue;
      SCOPED_TRACE(orientation_name(o));
      check(algorithm, o);
    }
  }

  void check(Algorithm algorithm, Orientation orientation) {
    std::vector<EdgeList> edge_sets;
    if (needs_weights(algorithm)) {
      uint64_t seed = 1;
      for (WeightKind kind : all_weight_kinds()) edge_sets.push_back(with_weights(shape().edges, kind, seed++));
    } else {
      edge_sets.push_back(shape().edges);
    }
    const uint64_t source_seed = std::hash<std::string>{}(shape().name);
    // 2-thread runs cost the most where the test machine is shared (each
    // OpenMP barrier may wait for a descheduled thread), so they take the
    // first three sources (0, the hub, a vertex without out-edges) and 64-bit
    // ids; 1 thread takes every source and both widths.
    struct Variant {
      bool ids64;
      int threads;
      size_t max_sources;
    };
    for (const EdgeList& edges : edge_sets) {
      for (Variant variant : {Variant{false, 1, 99}, Variant{true, 1, 99}, Variant{true, 2, 3}}) {
        AnyGraph graph = build_variant(edges, orientation, variant.ids64);
        if (needs_source(algorithm) && num_vertices(graph) == 0) continue;
        std::vector<uint64_t> sources = needs_source(algorithm) ? test_sources(graph, 2, source_seed) : std::vector<uint64_t>{0};
        if (sources.size() > variant.max_sources) sources.resize(variant.max_sources);
        ThreadCount scope(variant.threads);
        for (uint64_t source : sources)
          EXPECT_TRUE(runs_correctly(run_on_cpu, algorithm, graph, source))
              << "weights " << (edges.weighted() ? "yes" : "no") << ", " << (variant.ids64 ? 64 : 32) << "-bit ids, "
              << variant.threads << " threads";
      }
    }
  }
};

TEST_P(ShapeTest, Bfs) { check_all(Algorithm::kBfs); }
TEST_P(ShapeTest, Sssp) { check_all(Algorithm::kSssp); }
TEST_P(ShapeTest, Cc) { check_all(Algorithm::kCc); }
TEST_P(ShapeTest, PageRank) { check_all(Algorithm::kPageRank); }
TEST_P(ShapeTest, Sswp) { check_all(Algorithm::kSswp); }
TEST_P(ShapeTest, Ssnsp) { check_all(Algorithm::kSsnsp); }

INSTANTIATE_TEST_SUITE_P(Shapes, ShapeTest, ::testing::ValuesIn(shape_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace tg::test
