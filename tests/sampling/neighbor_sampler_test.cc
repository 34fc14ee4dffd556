// The CPU neighbour sampler (sampling/neighbor_sampler.h): every sampled edge
// is an edge of the graph into its destination; counts are min(fanout,
// in-degree) without replacement (distinct edges) and exactly fanout with
// it; hops chain (a hop's destinations are the previous hop's sources, and
// the destinations open the source list); the same seed gives the same
// sample at any thread count; draws are uniform; bad options are refused.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "graph/builder.h"
#include "sampling/draws.h"
#include "sampling/neighbor_sampler.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

// Every in-edge of v as (source, multiplicity).
std::map<uint64_t, int> in_edges_of(const AnyGraph& graph, uint64_t v) {
  std::map<uint64_t, int> m;
  std::visit(
      [&](const auto& g) {
        const auto& in = g.in_edges();
        for (eid_t e = in.offsets[v]; e < in.offsets[v + 1]; ++e) ++m[in.neighbors[e]];
      },
      graph);
  return m;
}

void check_sample(const AnyGraph& graph, const std::vector<uint64_t>& seeds, const SampleOptions& o,
                  const std::string& what) {
  const std::vector<SampledHop> hops = sample_neighbors(graph, seeds, o);
  ASSERT_EQ(hops.size(), o.fanouts.size()) << what;
  std::vector<uint64_t> expected_dst = seeds;
  for (size_t h = 0; h < hops.size(); ++h) {
    const SampledHop& hop = hops[h];
    ASSERT_EQ(hop.dst_nodes, expected_dst) << what << ", hop " << h;
    ASSERT_GE(hop.src_nodes.size(), hop.dst_nodes.size());
    EXPECT_TRUE(std::equal(hop.dst_nodes.begin(), hop.dst_nodes.end(), hop.src_nodes.begin())) << what;
    EXPECT_EQ(std::set<uint64_t>(hop.src_nodes.begin(), hop.src_nodes.end()).size(), hop.src_nodes.size()) << what;
    ASSERT_EQ(hop.edge_src.size(), hop.edge_dst.size());
    std::vector<std::map<uint64_t, int>> taken(hop.dst_nodes.size());
    for (size_t i = 0; i < hop.edge_src.size(); ++i) {
      ASSERT_LT(hop.edge_src[i], hop.src_nodes.size());
      ASSERT_LT(hop.edge_dst[i], hop.dst_nodes.size());
      if (i > 0) EXPECT_LE(hop.edge_dst[i - 1], hop.edge_dst[i]) << "edges grouped by destination";
      ++taken[hop.edge_dst[i]][hop.src_nodes[hop.edge_src[i]]];
    }
    // New sources are numbered in order of first draw: scanning the edges,
    // each local id past the destinations first appears as the next one.
    uint64_t next_new = hop.dst_nodes.size();
    for (uint64_t local : hop.edge_src)
      if (local >= hop.dst_nodes.size() && local >= next_new) {
        ASSERT_EQ(local, next_new) << what << ", hop " << h << ": sources not numbered in order of first draw";
        ++next_new;
      }
    EXPECT_EQ(next_new, hop.src_nodes.size()) << what << ", hop " << h << ": a source no edge draws";
    for (size_t d = 0; d < hop.dst_nodes.size(); ++d) {
      const std::map<uint64_t, int> real = in_edges_of(graph, hop.dst_nodes[d]);
      int degree = 0, count = 0;
      for (const auto& [u, m] : real) degree += m;
      for (const auto& [u, m] : taken[d]) {
        count += m;
        ASSERT_TRUE(real.count(u)) << what << ": " << u << " -> " << hop.dst_nodes[d] << " is not an edge";
        if (!o.replace) EXPECT_LE(m, real.at(u)) << what << ": an edge taken twice without replacement";
      }
      const int fanout = o.fanouts[h];
      const int want = fanout < 0 ? degree : o.replace ? (degree > 0 ? fanout : 0) : std::min(fanout, degree);
      EXPECT_EQ(count, want) << what << ", hop " << h << ", node " << hop.dst_nodes[d] << " of in-degree " << degree;
    }
    expected_dst = hop.src_nodes;
  }
}

class SamplerShapes : public ::testing::TestWithParam<std::string> {};

TEST_P(SamplerShapes, EveryEdgeRealEveryCountRight) {
  const Shape& shape = find_shape(GetParam());
  for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
    const AnyGraph graph = build_variant(shape.edges, o, false);
    if (num_vertices(graph) == 0) continue;
    const std::vector<uint64_t> seeds = test_sources(graph, 3, 5);
    for (bool replace : {false, true})
      for (std::vector<int> fanouts : {std::vector<int>{2}, std::vector<int>{3, 2}, std::vector<int>{-1, 5, 1}})
        check_sample(graph, seeds, SampleOptions{fanouts, replace, 11},
                     GetParam() + std::string(" ") + orientation_name(o) + (replace ? " replace" : ""));
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, SamplerShapes, ::testing::ValuesIn(shape_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

AnyGraph in_star(uint64_t leaves) {  // leaves 1..n all point to vertex 0
  EdgeList e;
  e.num_vertices = leaves + 1;
  for (uint64_t i = 1; i <= leaves; ++i) {
    e.src.push_back(i);
    e.dst.push_back(0);
  }
  BuildOptions b;
  b.in_edges = true;
  return build_graph(std::move(e), b);
}

TEST(Sampler, SameSeedSameSampleAtAnyThreadCount) {
  const AnyGraph graph = build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false);
  const std::vector<uint64_t> seeds = test_sources(graph, 40, 3);
  const SampleOptions o{{10, 5}, false, 99};
  const int threads = omp_get_max_threads();
  // Teams that split the positions unevenly too, racing for the same slots of
  // the numbering's table (a hub is drawn by many destinations; with
  // replacement and large fanouts, by most of them).
  for (const SampleOptions& options : {o, SampleOptions{{60, 30}, true, 7}}) {
    omp_set_num_threads(1);
    const std::vector<SampledHop> one = sample_neighbors(graph, seeds, options);
    for (int team : {2, 3, 7, std::max(threads, 4)}) {
      omp_set_num_threads(team);
      const std::vector<SampledHop> many = sample_neighbors(graph, seeds, options);
      ASSERT_EQ(one.size(), many.size());
      for (size_t h = 0; h < one.size(); ++h) {
        EXPECT_EQ(one[h].src_nodes, many[h].src_nodes) << team << " threads, hop " << h;
        EXPECT_EQ(one[h].edge_src, many[h].edge_src) << team << " threads, hop " << h;
      }
    }
  }
  omp_set_num_threads(threads);
  const std::vector<SampledHop> one = sample_neighbors(graph, seeds, o);
  const std::vector<SampledHop> other = sample_neighbors(graph, seeds, SampleOptions{{10, 5}, false, 100});
  EXPECT_NE(other[0].edge_src, one[0].edge_src) << "another seed, the same draws";
}

// 100 in-neighbours, 10 drawn per sample, 2000 samples (seeds 0..1999): each
// neighbour is expected 200 times; with replacement too. Deterministic, so
// the bounds (about 5 standard deviations) cannot flake.
TEST(Sampler, DrawsAreUniform) {
  const AnyGraph graph = in_star(100);
  for (bool replace : {false, true}) {
    std::vector<int> hits(101, 0);
    for (uint64_t s = 0; s < 2000; ++s) {
      const std::vector<SampledHop> hops = sample_neighbors(graph, {0}, SampleOptions{{10}, replace, s});
      for (uint64_t i : hops[0].edge_src) ++hits[hops[0].src_nodes[i]];
    }
    for (uint64_t leaf = 1; leaf <= 100; ++leaf) {
      EXPECT_GT(hits[leaf], 130) << "leaf " << leaf << (replace ? " with" : " without") << " replacement";
      EXPECT_LT(hits[leaf], 270) << "leaf " << leaf << (replace ? " with" : " without") << " replacement";
    }
  }
}

TEST(Sampler, LargeFanoutsWithoutReplacementAreDistinctAndUniform) {
  // Past 256 draws from a list not much longer, selection sampling in one pass replaces Floyd's quadratic draws.
  const AnyGraph graph = in_star(1000);
  ASSERT_TRUE(sampling::select_in_one_pass(1000, 400));
  ASSERT_FALSE(sampling::select_in_one_pass(1000, 256));
  std::vector<int> hits(1001, 0);
  for (uint64_t s = 0; s < 500; ++s) {
    const SampledHop hop = sample_neighbors(graph, {0}, SampleOptions{{400}, false, s})[0];
    ASSERT_EQ(hop.edge_src.size(), 400u);
    std::set<uint64_t> leaves;
    for (uint64_t i : hop.edge_src) leaves.insert(hop.src_nodes[i]);
    ASSERT_EQ(leaves.size(), 400u) << "seed " << s << ": an in-edge taken twice";
    for (uint64_t leaf : leaves) ++hits[leaf];
  }
  // Each leaf is taken with probability 0.4: 200 of 500 times, standard deviation 11.
  for (uint64_t leaf = 1; leaf <= 1000; ++leaf) {
    EXPECT_GT(hits[leaf], 140) << "leaf " << leaf;
    EXPECT_LT(hits[leaf], 260) << "leaf " << leaf;
  }
  check_sample(graph, {0}, SampleOptions{{999}, false, 7}, "999 of 1000");
}

TEST(Sampler, BadOptionsAreRefusedInOneLine) {
  const AnyGraph graph = in_star(5);
  auto refusal = [&](const std::vector<uint64_t>& seeds, const SampleOptions& o) -> std::string {
    try {
      sample_neighbors(graph, seeds, o);
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      EXPECT_EQ(e.kind(), ErrorKind::kUsage);
      return e.what();
    }
    return "";
  };
  EXPECT_NE(refusal({0}, SampleOptions{{}, false, 0}).find("at least one fanout"), std::string::npos);
  EXPECT_NE(refusal({0}, SampleOptions{{5, 0}, false, 0}).find("fanout 0 at hop 1"), std::string::npos);
  EXPECT_NE(refusal({0}, SampleOptions{{-2}, false, 0}).find("fanout -2"), std::string::npos);
  EXPECT_NE(refusal({6}, SampleOptions{{2}, false, 0}).find("seed 6 is not a vertex"), std::string::npos);
  EXPECT_NE(refusal({1, 0, 1}, SampleOptions{{2}, false, 0}).find("seed 1 is given twice"), std::string::npos);
}

TEST(Sampler, AHopPastTheHostsMemoryIsRefusedNotAttempted) {
  // With replacement every destination draws the whole fanout: 2^31 - 1 from each of 100 leaves' in-edges is
  // 2 x 10^11 edges, terabytes; the sampler allocated them and the kernel killed the process.
  EdgeList cycle;
  cycle.num_vertices = 100;
  for (uint64_t v = 0; v < 100; ++v) {
    cycle.src.push_back(v);
    cycle.dst.push_back((v + 1) % 100);
  }
  BuildOptions b;
  b.in_edges = true;
  const AnyGraph graph = build_graph(std::move(cycle), b);
  std::vector<uint64_t> seeds(100);
  for (uint64_t v = 0; v < 100; ++v) seeds[v] = v;
  try {
    sample_neighbors(graph, seeds, SampleOptions{{2147483647}, true, 0});
    FAIL() << "drew 2 x 10^11 edges";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOutOfMemory);
    EXPECT_NE(std::string(e.what()).find("hop 0 would draw 214748364700 edges"), std::string::npos) << e.what();
  }
  // Without replacement the same fanout takes each list once: one edge a destination.
  EXPECT_EQ(sample_neighbors(graph, seeds, SampleOptions{{2147483647}, false, 0})[0].edge_src.size(), 100u);
}

}  // namespace
}  // namespace tg::test
