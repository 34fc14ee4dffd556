// The CPU engine's notify-pull steps (engines/cpu/notify_pull.h), chosen by
// TG_CPU_SPARSE: every algorithm on every shape, directed (with the CSC) and
// undirected, on 1 and 2 threads, equals the sequential reference and passes
// its verifier with notify-pull in place of push under the usual threshold,
// and with Garaph's own switch; the steps are then notify-pulls (so the
// matrix does not pass by pushing); a bad value is refused in one line.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <string>
#include <tuple>

#include "algorithms/registry.h"
#include "core/error.h"
#include "engines/cpu/notify_pull.h"
#include "engines/run.h"
#include "support/algorithm_checks.h"
#include "support/shapes.h"
#include "support/scoped_env.h"
#include "support/thread_count.h"

namespace tg::test {
namespace {

using Param = std::tuple<std::string, std::string>;  // shape, algorithm

class NotifyPull : public ::testing::TestWithParam<Param> {};

TEST_P(NotifyPull, MatchesTheReference) {
  const Shape& shape = find_shape(std::get<0>(GetParam()));
  const AlgorithmInfo& a = algorithm(std::get<1>(GetParam()));
  const EdgeList edges = a.needs_weights() ? with_weights(shape.edges, WeightKind::kInteger, 3) : shape.edges;
  for (const char* mode : {"notify-pull", "garaph"})
    for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
      const AnyGraph graph = build_variant(edges, o, false);
      if (a.needs_source() && num_vertices(graph) == 0) continue;
      std::vector<Sources> runs;
      if (a.needs_source()) {
        for (uint64_t s : test_sources(graph, 2, std::hash<std::string>{}(shape.name))) runs.push_back({s});
      } else {
        runs.push_back({});
      }
      const ScopedEnv env("TG_CPU_SPARSE", mode);
      for (int threads : {1, 2}) {
        const ThreadCount scope(threads);
        for (const Sources& sources : runs)
          EXPECT_TRUE(runs_correctly(run_on_cpu, a, graph, sources))
              << mode << ", " << orientation_name(o) << ", " << threads << " threads";
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, NotifyPull,
                         ::testing::Combine(::testing::ValuesIn(shape_names()), ::testing::ValuesIn(algorithm_names())),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param);
                         });

RunOutput bfs_from(const AnyGraph& graph, uint64_t source) {
  return run_on_cpu(graph, prepare_request(graph, make_request(*find_algorithm("bfs"), {source})));
}

TEST(NotifyPullSteps, ReplaceThePushes) {
  const AnyGraph graph = build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false);
  const uint64_t hub = test_sources(graph, 0, 1).at(1);
  const RunOutput pushed = bfs_from(graph, hub);
  ASSERT_GT(pushed.stats.push_steps, 0u);
  EXPECT_EQ(pushed.stats.notify_pull_steps, 0u);
  {
    const ScopedEnv env("TG_CPU_SPARSE", "notify-pull");
    const RunOutput notified = bfs_from(graph, hub);
    EXPECT_EQ(notified.stats.push_steps, 0u);
    EXPECT_EQ(notified.stats.notify_pull_steps, pushed.stats.push_steps);  // the same threshold
    EXPECT_EQ(notified.stats.pull_steps, pushed.stats.pull_steps);
    EXPECT_EQ(notified.values, pushed.values);
  }
  {
    // Garaph pulls only once the frontier holds half the out-edges: a BFS of
    // this graph never gets there, where Ligra's threshold pulls.
    const ScopedEnv env("TG_CPU_SPARSE", "garaph");
    const RunOutput garaph = bfs_from(graph, hub);
    EXPECT_EQ(garaph.stats.push_steps, 0u);
    EXPECT_GT(garaph.stats.notify_pull_steps, pushed.stats.push_steps);
    EXPECT_EQ(garaph.values, pushed.values);
  }
}

TEST(NotifyPullSteps, GaraphPullsPastHalfTheEdges) {
  EXPECT_FALSE(garaph_pulls(50, 100));
  EXPECT_TRUE(garaph_pulls(51, 100));
  EXPECT_FALSE(garaph_pulls(0, 0));
}

TEST(NotifyPullSteps, ABadValueIsRefused) {
  const AnyGraph graph = build_variant(find_shape("path").edges, Orientation::kUndirected, false);
  const ScopedEnv env("TG_CPU_SPARSE", "sometimes");
  try {
    bfs_from(graph, 0);
    ADD_FAILURE() << "TG_CPU_SPARSE=sometimes was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("TG_CPU_SPARSE=sometimes: not push, notify-pull or garaph"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
  }
}

}  // namespace
}  // namespace tg::test
