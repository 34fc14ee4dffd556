// The builder on small hand-written edge lists, each result compared with
// what a straightforward sequential construction gives.

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "graph/builder.h"

namespace tg {
namespace {

using Edges = std::vector<std::pair<uint64_t, uint64_t>>;

EdgeList make_edges(uint64_t n, const Edges& edges, std::vector<weight_t> weights = {}, bool directed = true) {
  EdgeList el;
  el.num_vertices = n;
  for (auto [u, v] : edges) {
    el.src.push_back(u);
    el.dst.push_back(v);
  }
  el.weights = std::move(weights);
  el.directed = directed;
  el.name = "test";
  return el;
}

template <typename V>
std::vector<uint64_t> neighbors(const Csr<V>& csr, uint64_t u) {
  return std::vector<uint64_t>(csr.neighbors.begin() + csr.offsets[u], csr.neighbors.begin() + csr.offsets[u + 1]);
}

template <typename V>
std::vector<weight_t> weights_of(const Csr<V>& csr, uint64_t u) {
  return std::vector<weight_t>(csr.weights.begin() + csr.offsets[u], csr.weights.begin() + csr.offsets[u + 1]);
}

const Graph<vid32_t>& g32(const AnyGraph& g) { return std::get<Graph<vid32_t>>(g); }

// The sorted adjacency lists a sequential builder would produce.
std::vector<std::vector<uint64_t>> expected_lists(uint64_t n, const Edges& edges, bool symmetric, bool simplify) {
  std::vector<std::vector<uint64_t>> lists(n);
  for (auto [u, v] : edges) {
    if (simplify && u == v) continue;
    lists[u].push_back(v);
    if (symmetric && u != v) lists[v].push_back(u);
  }
  for (auto& l : lists) {
    std::sort(l.begin(), l.end());
    if (simplify) l.erase(std::unique(l.begin(), l.end()), l.end());
  }
  return lists;
}

template <typename V>
void expect_lists(const Csr<V>& csr, const std::vector<std::vector<uint64_t>>& lists) {
  ASSERT_EQ(csr.offsets.size(), lists.size() + 1);
  EXPECT_EQ(csr.offsets[0], 0u);
  for (uint64_t u = 0; u < lists.size(); ++u) EXPECT_EQ(neighbors(csr, u), lists[u]) << "vertex " << u;
}

const Edges kMixed = {{0, 1}, {1, 2}, {2, 0}, {2, 2}, {1, 2}, {3, 1}, {0, 1}, {1, 0}, {5, 3}};

TEST(Builder, DirectedKeepsEverythingSorted) {
  AnyGraph any = build_graph(make_edges(7, kMixed), {});
  const auto& g = g32(any);
  EXPECT_TRUE(g.directed);
  EXPECT_EQ(g.num_vertices, 7u);
  EXPECT_EQ(g.num_edges(), kMixed.size());
  EXPECT_EQ(g.name, "test");
  EXPECT_FALSE(g.weighted());
  EXPECT_FALSE(g.in.built());
  expect_lists(g.out, expected_lists(7, kMixed, false, false));
}

TEST(Builder, UndirectedStoresBothDirectionsAndSelfLoopOnce) {
  AnyGraph any = build_graph(make_edges(7, kMixed), {.undirected = true});
  const auto& g = g32(any);
  EXPECT_FALSE(g.directed);
  // 9 edges, one a self loop: 8 * 2 + 1
  EXPECT_EQ(g.num_edges(), 17u);
  expect_lists(g.out, expected_lists(7, kMixed, true, false));
  EXPECT_EQ(neighbors(g.out, 2), (std::vector<uint64_t>{0, 1, 1, 2}));
  EXPECT_FALSE(g.in.built());
  EXPECT_TRUE(g.has_in_edges());
}

TEST(Builder, UndirectedEdgeListIsSymmetrizedWithoutTheOption) {
  AnyGraph any = build_graph(make_edges(7, kMixed, {}, /*directed=*/false), {});
  EXPECT_FALSE(g32(any).directed);
  expect_lists(g32(any).out, expected_lists(7, kMixed, true, false));
}

TEST(Builder, SimplifyDropsSelfLoopsAndDuplicates) {
  AnyGraph directed = build_graph(make_edges(7, kMixed), {.simplify = true});
  expect_lists(g32(directed).out, expected_lists(7, kMixed, false, true));
  EXPECT_EQ(g32(directed).num_edges(), 6u);  // 0-1 1-2 2-0 3-1 1-0 5-3

  AnyGraph undirected = build_graph(make_edges(7, kMixed), {.undirected = true, .simplify = true});
  expect_lists(g32(undirected).out, expected_lists(7, kMixed, true, true));
  EXPECT_EQ(g32(undirected).num_edges(), 10u);  // {0,1} {1,2} {0,2} {1,3} {3,5}

  // nothing left: only self loops
  AnyGraph loops = build_graph(make_edges(3, {{1, 1}, {2, 2}, {1, 1}}, {1, 2, 3}), {.simplify = true});
  EXPECT_EQ(num_edges(loops), 0u);
  EXPECT_EQ(g32(loops).out.neighbors.size(), 0u);
  EXPECT_EQ(g32(loops).out.offsets.to_vector(), (std::vector<eid_t>{0, 0, 0, 0}));
}

// An id far past the others asks for more offsets than the machine has: one
// line naming the size, as out of memory (Python's MemoryError), before any
// of it is allocated.
TEST(Builder, AGraphLargerThanMemoryIsRefusedAsOutOfMemory) {
  try {
    build_graph(make_edges(uint64_t{1} << 40, {{0, 1}, {1, (uint64_t{1} << 40) - 1}}), {});
    ADD_FAILURE() << "a graph of 2^40 vertices was built";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOutOfMemory) << e.what();
    EXPECT_NE(std::string(e.what()).find("GB of RAM"), std::string::npos) << e.what();
  }
}

TEST(Builder, SingleVertex) {
  AnyGraph any = build_graph(make_edges(1, {{0, 0}}), {.undirected = true});
  EXPECT_EQ(num_edges(any), 1u);
  EXPECT_EQ(neighbors(g32(any).out, 0), (std::vector<uint64_t>{0}));
  DegreeStats s = degree_stats(any);
  EXPECT_EQ(s.self_loops, 1u);
  EXPECT_EQ(s.isolated, 0u);
  EXPECT_EQ(s.median_out_degree, 1u);
}

TEST(Builder, SimplifyKeepsSmallestWeight) {
  Edges e = {{0, 1}, {0, 1}, {0, 1}, {1, 0}, {1, 1}};
  AnyGraph any = build_graph(make_edges(2, e, {5, 2, 9, 7, 1}), {.simplify = true});
  const auto& g = g32(any);
  ASSERT_TRUE(g.weighted());
  EXPECT_EQ(neighbors(g.out, 0), (std::vector<uint64_t>{1}));
  EXPECT_EQ(weights_of(g.out, 0), (std::vector<weight_t>{2}));
  EXPECT_EQ(weights_of(g.out, 1), (std::vector<weight_t>{7}));

  // undirected: {0,1} appears four times; the smallest of them wins both ways
  AnyGraph sym = build_graph(make_edges(2, e, {5, 2, 9, 7, 1}), {.undirected = true, .simplify = true});
  EXPECT_EQ(weights_of(g32(sym).out, 0), (std::vector<weight_t>{2}));
  EXPECT_EQ(weights_of(g32(sym).out, 1), (std::vector<weight_t>{2}));
}

TEST(Builder, WeightsTravelWithTheirEdges) {
  Edges e = {{0, 3}, {0, 1}, {0, 2}, {2, 0}};
  AnyGraph any = build_graph(make_edges(4, e, {30, 10, 20, 40}), {.undirected = true});
  const auto& g = g32(any);
  EXPECT_EQ(neighbors(g.out, 0), (std::vector<uint64_t>{0 + 1, 2, 2, 3}));
  EXPECT_EQ(weights_of(g.out, 0), (std::vector<weight_t>{10, 20, 40, 30}));
  EXPECT_EQ(weights_of(g.out, 3), (std::vector<weight_t>{30}));
  EXPECT_EQ(weights_of(g.out, 2), (std::vector<weight_t>{20, 40}));
}

TEST(Builder, IsolatedVerticesAndStatedVertexCount) {
  // |V| stated as 10 though the largest id is 4
  AnyGraph any = build_graph(make_edges(10, {{4, 2}}), {});
  const auto& g = g32(any);
  EXPECT_EQ(g.num_vertices, 10u);
  EXPECT_EQ(g.out.offsets.size(), 11u);
  for (uint64_t u = 0; u < 10; ++u) EXPECT_EQ(g.out.degree(u), u == 4 ? 1u : 0u);
}

TEST(Builder, EmptyGraphs) {
  AnyGraph no_edges = build_graph(make_edges(5, {}), {.undirected = true, .simplify = true, .in_edges = true});
  EXPECT_EQ(num_vertices(no_edges), 5u);
  EXPECT_EQ(num_edges(no_edges), 0u);
  EXPECT_EQ(g32(no_edges).out.offsets.size(), 6u);

  AnyGraph nothing = build_graph(make_edges(0, {}), {.in_edges = true, .random_weights = WeightRange{}});
  EXPECT_EQ(num_vertices(nothing), 0u);
  EXPECT_EQ(num_edges(nothing), 0u);
  DegreeStats s = degree_stats(nothing);
  EXPECT_EQ(s.num_vertices, 0u);
  EXPECT_TRUE(s.log2_histogram.empty());
}

TEST(Builder, IdWidth) {
  EXPECT_EQ(vertex_id_bytes(build_graph(make_edges(3, {{0, 2}}), {})), 4);
  AnyGraph wide = build_graph(make_edges(3, {{0, 2}, {2, 1}}), {.force_64bit_ids = true});
  ASSERT_EQ(vertex_id_bytes(wide), 8);
  EXPECT_EQ(neighbors(std::get<Graph<vid64_t>>(wide).out, 2), (std::vector<uint64_t>{1}));
  // |V| = 2^31 needs 64-bit ids; with no edges this costs only the offsets (16 GiB
  // would be too much), so check the choice on the threshold minus one instead.
  EXPECT_EQ(vertex_id_bytes(build_graph(make_edges(1000, {{999, 0}}), {})), 4);
}

TEST(Builder, IdOutOfRangeThrows) {
  EXPECT_THROW(build_graph(make_edges(3, {{0, 1}, {1, 3}}), {}), Error);
  EXPECT_THROW(build_graph(make_edges(3, {{7, 1}}), {.undirected = true}), Error);
  EXPECT_THROW(build_graph(make_edges(0, {{0, 0}}), {}), Error);
  try {
    build_graph(make_edges(3, {{0, 1}, {1, 3}}), {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("test"), std::string::npos) << e.what();
  }
  // mismatched arrays
  EdgeList bad = make_edges(3, {{0, 1}});
  bad.dst.push_back(2);
  EXPECT_THROW(build_graph(std::move(bad), {}), Error);
}

TEST(Builder, InputErrorsHaveTheInputKind) {
  try {
    build_graph(make_edges(3, {{0, 1}, {1, 3}}), {});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput) << e.what();
  }
  try {
    parse_weight_range("8");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage) << e.what();
  }
}

TEST(Builder, NanWeightThrowsInfIsKept) {
  const float inf = std::numeric_limits<float>::infinity();
  try {
    build_graph(make_edges(3, {{0, 1}, {1, 2}}, {1.0f, std::numeric_limits<float>::quiet_NaN()}), {});
    ADD_FAILURE() << "accepted a NaN weight";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput) << e.what();
    EXPECT_NE(std::string(e.what()).find("test: edges[1] (1 -> 2): the weight is NaN"), std::string::npos) << e.what();
  }
  AnyGraph g = build_graph(make_edges(3, {{0, 1}, {0, 1}, {1, 2}}, {inf, 4.0f, inf}), {.simplify = true});
  const auto& out = std::get<Graph<vid32_t>>(g).out;
  EXPECT_EQ(std::vector<weight_t>(out.weights.begin(), out.weights.end()), (std::vector<weight_t>{4.0f, inf}));
}

TEST(Builder, ReleasesEdgeList) {
  EdgeList el = make_edges(3, {{0, 1}, {1, 2}}, {1, 2});
  el.id_base = 1;
  AnyGraph g = build_graph(std::move(el), {});
  EXPECT_TRUE(el.src.empty());
  EXPECT_TRUE(el.dst.empty());
  EXPECT_TRUE(el.weights.empty());
  EXPECT_EQ(g32(g).id_base, 1);
}

// A random multigraph with self loops and weights, for the larger checks.
EdgeList random_edges(uint64_t n, uint64_t m, uint64_t seed, bool weighted) {
  std::mt19937_64 rng(seed);
  EdgeList el;
  el.num_vertices = n;
  for (uint64_t e = 0; e < m; ++e) {
    // skewed towards small ids so lists are long and repeats common
    uint64_t u = rng() % n, v = rng() % (1 + rng() % n);
    el.src.push_back(u);
    el.dst.push_back(v);
    if (weighted) el.weights.push_back(static_cast<weight_t>(rng() % 100));
  }
  return el;
}

TEST(Builder, InEdgesAreTheTranspose) {
  EdgeList el = random_edges(300, 5000, 1, true);
  // brute-force transpose: in-list of v = sorted (u, w) over edges u->v
  std::vector<std::vector<std::pair<uint64_t, weight_t>>> in(300);
  for (size_t e = 0; e < el.src.size(); ++e) in[el.dst[e]].push_back({el.src[e], el.weights[e]});
  for (auto& l : in) std::sort(l.begin(), l.end());

  AnyGraph any = build_graph(std::move(el), {.in_edges = true});
  const auto& g = g32(any);
  ASSERT_TRUE(g.in.built());
  ASSERT_TRUE(g.has_in_edges());
  EXPECT_EQ(g.in.num_edges(), g.num_edges());
  for (uint64_t v = 0; v < 300; ++v) {
    std::vector<std::pair<uint64_t, weight_t>> got;
    for (eid_t j = g.in.offsets[v]; j < g.in.offsets[v + 1]; ++j) got.push_back({g.in.neighbors[j], g.in.weights[j]});
    EXPECT_EQ(got, in[v]) << "vertex " << v;
  }

  // ensure_in_edges on a graph built without them gives the same CSC
  AnyGraph later = build_graph(random_edges(300, 5000, 1, true), {});
  EXPECT_FALSE(g32(later).in.built());
  ensure_in_edges(later);
  EXPECT_EQ(g32(later).in.offsets.to_vector(), g.in.offsets.to_vector());
  EXPECT_EQ(g32(later).in.neighbors.to_vector(), g.in.neighbors.to_vector());
  EXPECT_EQ(g32(later).in.weights.to_vector(), g.in.weights.to_vector());
}

TEST(Builder, InEdgesNotBuiltForUndirected) {
  AnyGraph any = build_graph(make_edges(3, {{0, 1}}), {.undirected = true, .in_edges = true});
  ensure_in_edges(any);
  EXPECT_FALSE(g32(any).in.built());
  EXPECT_EQ(g32(any).in_edges().num_edges(), 2u);
}

TEST(Builder, SameGraphForAnyThreadCount) {
  int saved = omp_get_max_threads();
  std::vector<std::vector<uint32_t>> results;
  for (int threads : {1, 2, 3}) {
    omp_set_num_threads(threads);
    AnyGraph any = build_graph(random_edges(2000, 100000, 7, true), {.undirected = true, .in_edges = true});
    const auto& g = g32(any);
    std::vector<uint32_t> flat(g.out.neighbors.begin(), g.out.neighbors.end());
    for (weight_t w : g.out.weights) flat.push_back(static_cast<uint32_t>(w));
    results.push_back(flat);
  }
  omp_set_num_threads(saved);
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0], results[2]);
}

// Long lists take the radix sort, short ones std::sort: both against the
// brute-force lists, for 32- and 64-bit ids.
TEST(Builder, LongListsMatchBruteForce) {
  EdgeList el = random_edges(100, 30000, 9, false);
  Edges pairs;
  for (size_t e = 0; e < el.src.size(); ++e) pairs.push_back({el.src[e], el.dst[e]});
  for (bool undirected : {false, true}) {
    for (bool simplify : {false, true}) {
      BuildOptions options{.undirected = undirected, .simplify = simplify};
      AnyGraph narrow = build_graph(make_edges(100, pairs), options);
      expect_lists(g32(narrow).out, expected_lists(100, pairs, undirected, simplify));
      options.force_64bit_ids = true;
      AnyGraph wide = build_graph(make_edges(100, pairs), options);
      expect_lists(std::get<Graph<vid64_t>>(wide).out, expected_lists(100, pairs, undirected, simplify));
    }
  }
}

// Simplify packs lists in place in per-thread blocks: check it against a
// brute-force simplification for several thread counts.
TEST(Builder, SimplifyMatchesBruteForceForAnyThreadCount) {
  int saved = omp_get_max_threads();
  for (bool undirected : {false, true}) {
    EdgeList el = random_edges(400, 20000, 5, true);
    // (u, v) -> smallest weight, both directions when undirected; self loops dropped
    std::vector<std::map<uint64_t, weight_t>> expected(400);
    auto add = [&](uint64_t u, uint64_t v, weight_t w) {
      if (u == v) return;
      auto [it, fresh] = expected[u].insert({v, w});
      if (!fresh) it->second = std::min(it->second, w);
    };
    for (size_t e = 0; e < el.src.size(); ++e) {
      add(el.src[e], el.dst[e], el.weights[e]);
      if (undirected) add(el.dst[e], el.src[e], el.weights[e]);
    }
    for (int threads : {1, 2, 3, 5}) {
      omp_set_num_threads(threads);
      AnyGraph any = build_graph(random_edges(400, 20000, 5, true), {.undirected = undirected, .simplify = true});
      const auto& g = g32(any);
      eid_t total = 0;
      for (uint64_t u = 0; u < 400; ++u) {
        std::vector<uint64_t> want_v;
        std::vector<weight_t> want_w;
        for (auto [v, w] : expected[u]) {
          want_v.push_back(v);
          want_w.push_back(w);
        }
        total += want_v.size();
        ASSERT_EQ(neighbors(g.out, u), want_v) << "threads " << threads << " vertex " << u;
        ASSERT_EQ(weights_of(g.out, u), want_w) << "threads " << threads << " vertex " << u;
      }
      EXPECT_EQ(g.num_edges(), total);
      EXPECT_EQ(g.out.neighbors.size(), total);
      EXPECT_EQ(g.out.weights.size(), total);
    }
  }
  omp_set_num_threads(saved);
}

TEST(Builder, RandomWeightsInRangeSymmetricAndDeterministic) {
  BuildOptions options{.undirected = true, .random_weights = WeightRange{8, 72}, .weight_seed = 5};
  AnyGraph a = build_graph(random_edges(500, 20000, 3, false), options);
  const auto& g = g32(a);
  ASSERT_TRUE(g.weighted());
  std::map<std::pair<uint64_t, uint64_t>, weight_t> seen;
  std::vector<int> histogram(73, 0);
  for (uint64_t u = 0; u < g.num_vertices; ++u) {
    for (eid_t j = g.out.offsets[u]; j < g.out.offsets[u + 1]; ++j) {
      weight_t w = g.out.weights[j];
      ASSERT_GE(w, 8);
      ASSERT_LE(w, 72);
      ASSERT_EQ(w, static_cast<weight_t>(static_cast<int>(w)));
      ++histogram[static_cast<int>(w)];
      uint64_t v = g.out.neighbors[j];
      std::pair<uint64_t, uint64_t> key{std::min(u, v), std::max(u, v)};
      auto [it, fresh] = seen.insert({key, w});
      EXPECT_EQ(it->second, w) << "edge " << u << " " << g.out.neighbors[j];
    }
  }
  // every value of the range drawn, none wildly over-represented (~600 each)
  for (int w = 8; w <= 72; ++w) {
    EXPECT_GT(histogram[w], 300) << w;
    EXPECT_LT(histogram[w], 1000) << w;
  }

  // same seed: same weights, whatever the edge order; other seed: different
  EdgeList shuffled = random_edges(500, 20000, 3, false);
  std::reverse(shuffled.src.begin(), shuffled.src.end());
  std::reverse(shuffled.dst.begin(), shuffled.dst.end());
  AnyGraph b = build_graph(std::move(shuffled), options);
  EXPECT_EQ(g32(b).out.weights.to_vector(), g.out.weights.to_vector());
  options.weight_seed = 6;
  AnyGraph c = build_graph(random_edges(500, 20000, 3, false), options);
  EXPECT_NE(g32(c).out.weights.to_vector(), g.out.weights.to_vector());

  // they replace the weights of a weighted edge list
  AnyGraph d = build_graph(make_edges(2, {{0, 1}}, {1000}), {.random_weights = WeightRange{3, 3}});
  EXPECT_EQ(weights_of(g32(d).out, 0), (std::vector<weight_t>{3}));
}

TEST(Builder, DegreeStats) {
  // 0->1 0->1 0->2 0->0 1->2 ; vertex 3 has only an in-edge; 4 and 5 isolated
  Edges e = {{0, 1}, {0, 1}, {0, 2}, {0, 0}, {1, 2}, {2, 3}};
  DegreeStats s = degree_stats(build_graph(make_edges(6, e), {}));
  EXPECT_EQ(s.num_vertices, 6u);
  EXPECT_EQ(s.num_edges, 6u);
  EXPECT_EQ(s.isolated, 2u);
  EXPECT_EQ(s.zero_out_degree, 3u);
  EXPECT_EQ(s.max_out_degree, 4u);
  EXPECT_DOUBLE_EQ(s.mean_out_degree, 1.0);
  EXPECT_EQ(s.median_out_degree, 0u);  // degrees 4 1 1 0 0 0: lower middle of sorted 0 0 0 1 1 4
  EXPECT_EQ(s.self_loops, 1u);
  EXPECT_EQ(s.duplicate_edges, 1u);
  EXPECT_EQ(s.log2_histogram, (std::vector<uint64_t>{2, 0, 1}));  // degrees 1, 1 and 4

  // undirected: vertex 3 now has an out-edge; counts are over stored edges
  DegreeStats u = degree_stats(build_graph(make_edges(6, e), {.undirected = true}));
  EXPECT_EQ(u.num_edges, 11u);
  EXPECT_EQ(u.isolated, 2u);
  EXPECT_EQ(u.zero_out_degree, 2u);
  EXPECT_EQ(u.self_loops, 1u);
  EXPECT_EQ(u.duplicate_edges, 2u);

  DegreeStats simple = degree_stats(build_graph(make_edges(6, e), {.simplify = true}));
  EXPECT_EQ(simple.self_loops, 0u);
  EXPECT_EQ(simple.duplicate_edges, 0u);
}

TEST(Builder, ParseWeightRange) {
  WeightRange a = parse_weight_range("8:72");
  EXPECT_EQ(a.low, 8u);
  EXPECT_EQ(a.high, 72u);
  WeightRange b = parse_weight_range("1..255");
  EXPECT_EQ(b.low, 1u);
  EXPECT_EQ(b.high, 255u);
  WeightRange c = parse_weight_range("0:0");
  EXPECT_EQ(c.high, 0u);
  for (const char* bad : {"", "8", "72:8", "-1:5", "a:b", "8:", ":72", "8:72x", "8...72", "8:-72", "1:99999999999",
                          " 8:72"}) {
    try {
      parse_weight_range(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("--weights"), std::string::npos) << e.what();
    }
  }
}

TEST(Builder, ToEdgeListRoundTrips) {
  for (bool undirected : {false, true}) {
    EdgeList el = random_edges(200, 3000, 11, true);
    el.id_base = 1;
    el.name = "round";
    AnyGraph first = build_graph(std::move(el), {.undirected = undirected});
    EdgeList back = to_edge_list(first);
    EXPECT_EQ(back.directed, !undirected);
    EXPECT_EQ(back.num_vertices, 200u);
    EXPECT_EQ(back.id_base, 1);
    EXPECT_EQ(back.name, "round");
    ASSERT_TRUE(back.weighted());
    if (undirected) {
      for (size_t e = 0; e < back.src.size(); ++e) EXPECT_LE(back.src[e], back.dst[e]);
    }
    AnyGraph second = build_graph(std::move(back), {});
    EXPECT_EQ(g32(second).directed, !undirected);
    EXPECT_EQ(g32(second).out.offsets.to_vector(), g32(first).out.offsets.to_vector());
    EXPECT_EQ(g32(second).out.neighbors.to_vector(), g32(first).out.neighbors.to_vector());
    EXPECT_EQ(g32(second).out.weights.to_vector(), g32(first).out.weights.to_vector());
  }
  // rebuilt with new options, as the CLI does for a loaded binary graph
  AnyGraph directed = build_graph(make_edges(3, {{0, 1}, {0, 1}, {2, 2}}), {});
  AnyGraph rebuilt = build_graph(to_edge_list(directed), {.undirected = true, .simplify = true});
  EXPECT_EQ(num_edges(rebuilt), 2u);
}

}  // namespace
}  // namespace tg
