// cc's two ways of linking (cc.h): the sampled form (Afforest's sample, then
// only the edges outside the largest component) and Shiloach-Vishkin rounds,
// on every shape, orientation and id width, against the reference and the
// verifier; and what the sampled form reads.
#include <gtest/gtest.h>

#include <string>

#include "engines/run.h"
#include "support/algorithm_checks.h"
#include "support/shapes.h"
#include "support/thread_count.h"

namespace tg::test {
namespace {

class CcMethods : public ::testing::TestWithParam<CcMethod> {};

TEST_P(CcMethods, MatchReferenceOnEveryShape) {
  AlgorithmOptions options;
  options.cc_method = GetParam();
  for (const std::string& name : shape_names())
    for (Orientation o : all_orientations())
      for (bool ids64 : {false, true}) {
        SCOPED_TRACE(name + ", " + orientation_name(o) + (ids64 ? ", 64-bit ids" : ""));
        AnyGraph graph = build_variant(find_shape(name).edges, o, ids64);
        for (int threads : {1, 2}) {
          ThreadCount scope(threads);
          EXPECT_TRUE(runs_correctly(run_on_cpu, algorithm("cc"), graph, {}, options)) << threads << " threads";
        }
      }
}

INSTANTIATE_TEST_SUITE_P(Cc, CcMethods, ::testing::Values(CcMethod::kSampled, CcMethod::kShiloachVishkin),
                         [](const ::testing::TestParamInfo<CcMethod>& info) {
                           return std::string(info.param == CcMethod::kSampled ? "sampled" : "sv");
                         });

// On a graph with one large component the sampled form reads a small part of
// the edges: two per vertex, and the lists of the vertices left outside.
TEST(CcSampled, ReadsFewEdgesWhereOneComponentDominates) {
  AnyGraph graph = build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false);
  RunRequest r = prepare_request(graph, make_request(algorithm("cc")));
  RunOutput sampled = run_on_cpu(graph, r);
  r.options.cc_method = CcMethod::kShiloachVishkin;
  RunOutput sv = run_on_cpu(graph, r);
  EXPECT_LT(sampled.stats.edges_traversed * 4, sv.stats.edges_traversed);
  EXPECT_LE(sampled.stats.edges_traversed, 2 * num_vertices(graph) + num_edges(graph) / 4);
  EXPECT_TRUE(agrees(algorithm("cc"), sampled.values, sv.values));
}

}  // namespace
}  // namespace tg::test
