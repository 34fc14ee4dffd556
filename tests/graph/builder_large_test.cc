// A graph with more than 2^32 edges: every offset and counter must be 64-bit.
// Needs about 90 GB of memory, so it is disabled; run it on a large machine:
//   tg_graph_tests --gtest_also_run_disabled_tests --gtest_filter='*MoreThan2To32*'

#include <omp.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include "generators/generators.h"
#include "graph/builder.h"

namespace tg {
namespace {

TEST(BuilderLarge, DISABLED_MoreThan2To32Edges) {
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  // 2^26 vertices * 65 = 4.36e9 edges, kept directed so that the CSR holds
  // exactly the generated edges
  auto t = Clock::now();
  EdgeList el = generate(parse_generator_spec("urand:26:ef=65"));
  el.directed = true;
  const uint64_t n = el.num_vertices, m = el.num_edges();
  ASSERT_GT(m, uint64_t{1} << 32);
  std::printf("generate %.1f s, %llu edges, %d threads\n", since(t), static_cast<unsigned long long>(m),
              omp_get_max_threads());

  // what each out-list must hold: its length and the sum of its neighbors
  std::vector<uint32_t> degree(n, 0);
  std::vector<uint64_t> sum(n, 0);
#pragma omp parallel for
  for (uint64_t e = 0; e < m; ++e) {
    __atomic_fetch_add(&degree[el.src[e]], 1u, __ATOMIC_RELAXED);
    __atomic_fetch_add(&sum[el.src[e]], el.dst[e], __ATOMIC_RELAXED);
  }

  t = Clock::now();
  AnyGraph any = build_graph(std::move(el), {});
  std::printf("build %.1f s\n", since(t));
  const auto& g = std::get<Graph<vid32_t>>(any);
  ASSERT_EQ(g.num_edges(), m);
  ASSERT_EQ(g.out.neighbors.size(), m);
  uint64_t bad = 0;
#pragma omp parallel for reduction(+ : bad)
  for (uint64_t u = 0; u < n; ++u) {
    uint64_t s = 0;
    for (eid_t j = g.out.offsets[u]; j < g.out.offsets[u + 1]; ++j) {
      s += g.out.neighbors[j];
      if (j > g.out.offsets[u] && g.out.neighbors[j] < g.out.neighbors[j - 1]) ++bad;
    }
    if (g.out.degree(u) != degree[u] || s != sum[u]) ++bad;
  }
  EXPECT_EQ(bad, 0u);
  // the last vertices' lists lie beyond 2^32
  EXPECT_GT(g.out.offsets[n - 1], uint64_t{1} << 32);

  t = Clock::now();
  DegreeStats stats = degree_stats(any);
  std::printf("degree_stats %.1f s\n", since(t));
  EXPECT_EQ(stats.num_edges, m);
  EXPECT_NEAR(stats.mean_out_degree, 65.0, 1e-9);
}

}  // namespace
}  // namespace tg
