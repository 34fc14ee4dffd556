// Every algorithm of the registry on the CPU engine, on every test shape
// (support/shapes.h), directed (with and without the CSC) and undirected,
// 32- and 64-bit ids, 1 and 2 threads, several sources: the result must equal
// the sequential reference and pass the verifier. Algorithms that read
// weights run with every weight kind; those that sum over sources also run
// from several sources at once.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <tuple>

#include "engines/run.h"
#include "support/algorithm_checks.h"
#include "support/shapes.h"
#include "support/thread_count.h"

namespace tg::test {
namespace {

// One test per shape and algorithm (the orientations inside it), to keep the
// number of CTest entries, each a process, modest.
using Param = std::tuple<std::string, std::string>;  // shape, algorithm

class ShapeTest : public ::testing::TestWithParam<Param> {
 protected:
  const Shape& shape() const { return find_shape(std::get<0>(GetParam())); }
  const AlgorithmInfo& algo() const { return algorithm(std::get<1>(GetParam())); }

  void check(Orientation orientation) {
    const AlgorithmInfo& a = algo();
    std::vector<EdgeList> edge_sets;
    if (a.needs_weights()) {
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
        if (a.needs_source() && num_vertices(graph) == 0) continue;
        std::vector<Sources> runs;
        if (a.needs_source()) {
          std::vector<uint64_t> sources = test_sources(graph, 2, source_seed);
          if (sources.size() > variant.max_sources) sources.resize(variant.max_sources);
          for (uint64_t s : sources) runs.push_back({s});
          if (a.traits.sources == SourceUse::kMany && sources.size() > 1) runs.push_back(sources);
        } else {
          runs.push_back({});
        }
        ThreadCount scope(variant.threads);
        for (const Sources& sources : runs)
          EXPECT_TRUE(runs_correctly(run_on_cpu, a, graph, sources))
              << "weights " << (edges.weighted() ? "yes" : "no") << ", " << (variant.ids64 ? 64 : 32) << "-bit ids, "
              << variant.threads << " threads";
      }
    }
  }
};

TEST_P(ShapeTest, MatchesReference) {
  for (Orientation o : all_orientations()) {
    // A form that gathers over in-edges needs the CSC of a directed graph.
    if (o == Orientation::kDirectedNoCsc && algo().reads({}).in_edges == Need::kYes) continue;
    SCOPED_TRACE(orientation_name(o));
    check(o);
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, ShapeTest,
                         ::testing::Combine(::testing::ValuesIn(shape_names()), ::testing::ValuesIn(algorithm_names())),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param);
                         });

}  // namespace
}  // namespace tg::test
