// SSSP's float distances (sssp.h): with whole-number weights the CPU engine
// runs in float and keeps the result only if every finite distance lies
// below 2^24, where float sums are exact; otherwise it runs again in double.
// A path whose distances pass 2^24 at odd values (which float cannot hold)
// must still come out exact, and the work counted shows which runs happened.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "engines/run.h"
#include "graph/builder.h"
#include "support/algorithm_checks.h"
#include "support/thread_count.h"

namespace tg::test {
namespace {

// 0 -> 1 -> ... -> n-1, every edge of weight w.
AnyGraph path(uint64_t n, float w) {
  EdgeList e;
  e.num_vertices = n;
  e.name = "path";
  for (uint64_t v = 0; v + 1 < n; ++v) {
    e.src.push_back(v);
    e.dst.push_back(v + 1);
    e.weights.push_back(w);
  }
  BuildOptions options;
  options.in_edges = true;
  return build_graph(std::move(e), options);
}

RunOutput sssp_from_0(const AnyGraph& graph) {
  return run_on_cpu(graph, prepare_request(graph, make_request(algorithm("sssp"), {0})));
}

TEST(SsspDistances, BeyondFloatsExactRangeRunAgainInDouble) {
  const uint64_t n = 2000;
  const AnyGraph whole = path(n, 16385);      // distances up to 32.7 M, odd ones past 2^24
  const AnyGraph fraction = path(n, 16385.5f);  // not whole numbers: double from the start
  for (int threads : {1, 2}) {
    ThreadCount scope(threads);
    const RunOutput a = sssp_from_0(whole);
    const RunOutput b = sssp_from_0(fraction);
    const auto& dist = std::get<ResultVector<double>>(a.values);
    ASSERT_EQ(dist.size(), n);
    for (uint64_t v = 0; v < n; ++v) ASSERT_EQ(dist[v], double(v) * 16385) << "vertex " << v;
    EXPECT_TRUE(matches_reference(algorithm("sssp"), whole, {0}, a.values, {}));
    // The float run and the double one each read the n - 1 edges once.
    EXPECT_EQ(b.stats.edges_traversed, n - 1);
    EXPECT_EQ(a.stats.edges_traversed, 2 * (n - 1)) << threads << " threads";
  }
}

TEST(SsspDistances, WithinFloatsExactRangeOneRun) {
  const uint64_t n = 1000;
  const AnyGraph whole = path(n, 16000);  // up to 16 M, below 2^24 = 16.78 M
  for (int threads : {1, 2}) {
    ThreadCount scope(threads);
    const RunOutput a = sssp_from_0(whole);
    const auto& dist = std::get<ResultVector<double>>(a.values);
    for (uint64_t v = 0; v < n; ++v) ASSERT_EQ(dist[v], double(v) * 16000) << "vertex " << v;
    EXPECT_EQ(a.stats.edges_traversed, n - 1) << threads << " threads";
  }
}

}  // namespace
}  // namespace tg::test
