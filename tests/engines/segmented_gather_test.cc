// The CPU engine's gather over source segments (engines/cpu/segmented_in_edges.h)
// against its plain pull: every in-edge read once, the same sums, the same
// applied values, on every shape and segment width down to one vertex; and
// PageRank through it verified against the independent verifier.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

#include "algorithms/pagerank.h"
#include "engines/cpu/cpu_engine.h"
#include "graph/builder.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

// Sums a hash of every in-neighbour exactly (integers: any order gives the
// same total), writes it to out[v], and returns a value of it.
template <typename V>
struct HashSum {
  using acc_t = uint64_t;
  static constexpr bool needs_weights = false;
  uint64_t* out;
  acc_t zero() const { return 0; }
  acc_t gather(V u, V, weight_t) const { return (static_cast<uint64_t>(u) + 1) * 0x9E3779B97F4A7C15ull >> 7; }
  acc_t sum(acc_t a, acc_t b) const { return a + b; }
  double apply(V v, acc_t total) const {
    out[v] = total;
    return static_cast<double>(total % 1000);
  }
};

struct Gathered {
  std::vector<uint64_t> out;
  double total = 0;
  uint64_t edges = 0;
  uint64_t segments = 0;
};

template <typename V>
Gathered gather_with(const Graph<V>& graph, uint64_t segment_vertices) {
  CpuEngine<V> engine(graph);
  engine.set_gather_segment_vertices(segment_vertices);
  Gathered g;
  g.out.assign(graph.num_vertices, ~uint64_t{0});  // poisoned: every vertex is applied
  g.total = engine.gather_apply(HashSum<V>{g.out.data()});
  g.edges = engine.stats().edges_traversed;
  g.segments = engine.gather_segments();
  return g;
}

class SegmentedGather : public ::testing::TestWithParam<std::string> {};

TEST_P(SegmentedGather, EqualsThePlainPull) {
  for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
    const AnyGraph any = build_variant(find_shape(GetParam()).edges, o, false);
    std::visit(
        [&](const auto& graph) {
          const Gathered plain = gather_with(graph, 0);
          EXPECT_EQ(plain.segments, 0u);
          for (uint64_t width : {1, 2, 3, 64}) {
            const Gathered seg = gather_with(graph, width);
            SCOPED_TRACE(std::string(orientation_name(o)) + ", segments of " + std::to_string(width));
            if (graph.num_vertices > 2 * std::bit_floor(width)) EXPECT_GT(seg.segments, 2u);
            EXPECT_EQ(seg.out, plain.out);
            EXPECT_EQ(seg.total, plain.total);
            EXPECT_EQ(seg.edges, plain.edges);
            EXPECT_EQ(seg.edges, graph.num_edges());
          }
        },
        any);
  }
}

INSTANTIATE_TEST_SUITE_P(All, SegmentedGather, ::testing::ValuesIn(shape_names()),
                         [](const auto& info) { return info.param; });

// A width far below the graph's size makes at most 256 segments (each one a
// pass of every gather), with the same sums.
TEST(SegmentedGatherWidth, TinyWidthsAreRaisedToAtMost256Segments) {
  EdgeList path;
  path.num_vertices = 20000;
  for (uint64_t v = 0; v + 1 < path.num_vertices; ++v) {
    path.src.push_back(v);
    path.dst.push_back((v * 7919 + 13) % path.num_vertices);
  }
  BuildOptions b;
  b.in_edges = true;
  const AnyGraph any = build_graph(std::move(path), b);
  const auto& graph = std::get<Graph<vid32_t>>(any);
  const Gathered plain = gather_with(graph, 0), tiny = gather_with(graph, 4);
  EXPECT_GT(tiny.segments, 64u);
  EXPECT_LE(tiny.segments, 256u);
  EXPECT_EQ(tiny.out, plain.out);
  EXPECT_EQ(tiny.total, plain.total);
}

TEST(SegmentedInEdges, HoldsEveryEdgeOnceInItsSourcesSegment) {
  const AnyGraph any = build_variant(find_shape("kron_2").edges, Orientation::kDirected, false);
  const auto& graph = std::get<Graph<vid32_t>>(any);
  const Csr<vid32_t>& in = graph.in_edges();
  const auto seg = SegmentedInEdges<vid32_t>::build(in, graph.num_vertices, 100);  // rounded down to 64
  ASSERT_TRUE(seg.has_value());
  EXPECT_EQ(seg->segment_vertices(), 64u);
  EXPECT_EQ(seg->num_segments(), (graph.num_vertices + 63) / 64);
  EXPECT_GE(seg->bytes(), graph.num_edges() * sizeof(vid32_t));
}

TEST(SegmentedInEdges, RefusesUnsortedLists) {
  Csr<vid32_t> in;
  in.offsets = Array<eid_t>::from({0, 3, 3});
  in.neighbors = Array<vid32_t>::from({1, 0, 1});  // vertex 0's list: 1, 0, 1
  EXPECT_FALSE(SegmentedInEdges<vid32_t>::build(in, 2, 1).has_value());
  in.neighbors = Array<vid32_t>::from({0, 1, 1});
  EXPECT_TRUE(SegmentedInEdges<vid32_t>::build(in, 2, 1).has_value());
}

TEST(SegmentedInEdges, RefusesALayoutLargerThanItsBudget) {
  Csr<vid32_t> in;
  in.offsets = Array<eid_t>::from({0, 3, 3});
  in.neighbors = Array<vid32_t>::from({0, 1, 1});  // two runs (12 bytes each) and three sources (4 bytes each)
  EXPECT_FALSE(SegmentedInEdges<vid32_t>::build(in, 2, 1, 35).has_value());
  const auto fits = SegmentedInEdges<vid32_t>::build(in, 2, 1, 36);
  ASSERT_TRUE(fits.has_value());
  EXPECT_EQ(fits->bytes(), 36u);
}

// TG_CPU_GATHER_SEGMENT: a width, "llc", or refused in one line.
TEST(SegmentedGather, ReadsItsWidthFromTheEnvironment) {
  const AnyGraph any = build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false);
  const auto& graph = std::get<Graph<vid32_t>>(any);
  std::vector<uint64_t> out(graph.num_vertices);
  auto segments_with = [&](const char* value) {
    setenv("TG_CPU_GATHER_SEGMENT", value, 1);
    CpuEngine<vid32_t> engine(graph);
    engine.gather_apply(HashSum<vid32_t>{out.data()});
    unsetenv("TG_CPU_GATHER_SEGMENT");
    return engine.gather_segments();
  };
  EXPECT_EQ(segments_with("64"), (graph.num_vertices + 63) / 64);
  EXPECT_EQ(segments_with("0"), 0u);
  EXPECT_EQ(segments_with("llc"), 0u);  // a test graph is smaller than two segments of any cache
  try {
    segments_with("lots");
    ADD_FAILURE() << "a width that is not a count was taken";
  } catch (const Error& e) {
    unsetenv("TG_CPU_GATHER_SEGMENT");
    EXPECT_NE(std::string(e.what()).find("TG_CPU_GATHER_SEGMENT=lots"), std::string::npos) << e.what();
  }
  CpuEngine<vid32_t> unset(graph);
  unset.gather_apply(HashSum<vid32_t>{out.data()});
  EXPECT_EQ(unset.gather_segments(), 0u);  // off by default
}

TEST(SegmentedGather, PageRankPassesItsVerifier) {
  for (const char* shape : {"kron_1", "urand_1", "big_star", "big_star_in"}) {
    const AnyGraph any = build_variant(find_shape(shape).edges, Orientation::kUndirected, false);
    const auto& graph = std::get<Graph<vid32_t>>(any);
    AlgorithmOptions options;
    CpuEngine<vid32_t> engine(graph);
    engine.set_gather_segment_vertices(16);
    const PageRankOutput out = pagerank(engine, options);
    EXPECT_GT(engine.gather_segments(), 2u) << shape;
    const Verification v = verify_pagerank(any, out.score, options);
    EXPECT_TRUE(v.ok) << shape << ": " << v.message;
  }
}

}  // namespace
}  // namespace tg::test
