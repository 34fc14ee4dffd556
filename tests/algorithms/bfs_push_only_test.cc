// BFS with AlgorithmOptions::push_only (--push-only): every level top-down on
// the CPU engine, the depths the reference's, and no in-edges read; the
// default on the same graphs does pull (so the first check can fail).
#include <gtest/gtest.h>

#include <string>

#include "algorithms/registry.h"
#include "engines/run.h"
#include "support/reference.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

RunOutput bfs_from(const AnyGraph& graph, uint64_t source, bool push_only) {
  AlgorithmOptions options;
  options.push_only = push_only;
  return run_on_cpu(graph, prepare_request(graph, make_request(*find_algorithm("bfs"), {source}, options)));
}

TEST(BfsPushOnly, EveryLevelPushesAndTheDepthsAreTheReferences) {
  for (const char* shape : {"kron_large", "grid", "big_star", "loops_and_duplicates"})
    for (Orientation o : {Orientation::kUndirected, Orientation::kDirected}) {
      SCOPED_TRACE(std::string(shape) + ", " + orientation_name(o));
      const AnyGraph graph = build_variant(find_shape(shape).edges, o, false);
      for (uint64_t source : test_sources(graph, 2, 7)) {
        const RunOutput out = bfs_from(graph, source, true);
        EXPECT_EQ(out.stats.pull_steps, 0u) << "from " << source;
        EXPECT_GT(out.stats.push_steps, 0u) << "from " << source;
        EXPECT_EQ(to_std_vector(std::get<ResultVector<int32_t>>(out.values)), reference_bfs(graph, source))
            << "from " << source;
      }
    }
}

TEST(BfsPushOnly, TheDefaultPullsWhereItPays) {
  const AnyGraph graph = build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false);
  EXPECT_GT(bfs_from(graph, test_sources(graph, 1, 7).at(0), false).stats.pull_steps, 0u);
}

TEST(BfsPushOnly, ReadsNoInEdges) {
  const AlgorithmInfo& bfs = *find_algorithm("bfs");
  AlgorithmOptions push_only;
  push_only.push_only = true;
  EXPECT_EQ(bfs.reads(push_only).in_edges, Need::kNo);
  EXPECT_EQ(bfs.reads(AlgorithmOptions{}).in_edges, Need::kIfPresent);
}

}  // namespace
}  // namespace tg::test
