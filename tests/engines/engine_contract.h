// The engine contract (src/engines/engine.h), tested the same way on every
// engine: a typed test suite over "engine factories". A factory makes an
// engine over a graph for the edges a test reads:
//
//   struct Factory {
//     using vertex_t = V;
//     static constexpr bool kAsynchronous;           // inner steps within an edge_map (Subway's async)
//     static bool available(std::string* why);       // false: the suite skips
//     struct Instance { Instance(const Graph<V>&, const EdgeReads&); Engine& engine(); };
//   };
//
// contract_cpu_test.cc instantiates it for the CPU engine (1 and 2 threads,
// 32- and 64-bit ids); tests/gpu/contract_gpu_test.cu for the GPU engine on
// every placement. The operators and functors below are TG_HD, so that the
// same test runs its checks in device code where the engine is a GPU one;
// membership and "what should happen" come from a hash of the vertex id,
// computed the same way on the host.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "algorithms/algorithm.h"
#include "core/atomics.h"
#include "core/error.h"
#include "core/hash.h"
#include "engines/buckets.h"
#include "engines/engine.h"
#include "support/shapes.h"

namespace tg::test::contract {

// ---- operators and functors the tests hand to engines ----

// Whether v is picked by a seeded hash with probability 1 / every.
struct Picked {
  uint64_t seed;
  uint64_t every;
  template <typename V>
  TG_HD bool operator()(V v) const {
    return mix64(static_cast<uint64_t>(v) ^ (seed * 0x9e3779b97f4a7c15ULL)) % every == 0;
  }
};

struct Not {
  Picked p;
  template <typename V>
  TG_HD bool operator()(V v) const {
    return !p(v);
  }
};

// Picked by `yes` and not by `no`.
struct PickedNot {
  Picked yes, no;
  template <typename V>
  TG_HD bool operator()(V v) const {
    return yes(v) && !no(v);
  }
};

// Counts each vertex_map call per vertex (a repeat shows as 2).
struct CountVisits {
  int32_t* visits;
  template <typename V>
  TG_HD void operator()(V v) const {
    atomic_add(&visits[v], int32_t{1});
  }
};

// flag[v] = 1 where p(v).
struct SetWhere {
  int32_t* flag;
  Picked p;
  template <typename V>
  TG_HD void operator()(V v) const {
    flag[v] = p(v) ? 1 : 0;
  }
};

// key[v] == k: the vertices whose key was set to k.
template <typename V>
struct InSet {
  const double* key;
  double k;
  TG_HD bool operator()(V v) const { return key[v] == k; }
};

struct IdAsDouble {
  template <typename V>
  TG_HD double operator()(V v) const {
    return static_cast<double>(v);
  }
};

struct HundredMinusId {
  template <typename V>
  TG_HD double operator()(V v) const {
    return 100.0 - static_cast<double>(v);
  }
};

// Marks v reached the first time an edge into it is followed.
template <typename V>
struct Reach {
  static constexpr bool needs_weights = false;
  int32_t* reached;
  TG_HD bool cond(V v) const { return atomic_load(&reached[v]) == 0; }
  TG_HD bool update(V, V v, weight_t) const {
    reached[v] = 1;
    return true;
  }
  TG_HD bool update_atomic(V, V v, weight_t) const { return compare_and_swap(&reached[v], int32_t{0}, int32_t{1}); }
};

// Counts the in-neighbours a pull hands to update (and a hash of them) under
// the list_limit hint: cond stays true, so only the limit stops the pull.
template <typename V>
struct FirstInNeighbours {
  static constexpr bool needs_weights = false;
  int32_t* count;
  uint64_t* hash_sum;
  int32_t limit;
  TG_HD bool cond(V) const { return true; }
  TG_HD int32_t list_limit() const { return limit; }
  TG_HD bool update(V u, V v, weight_t) const {
    atomic_add(&count[v], int32_t{1});
    atomic_add(&hash_sum[v], mix64(static_cast<uint64_t>(u)));
    return false;
  }
  TG_HD bool update_atomic(V u, V v, weight_t w) const { return update(u, v, w); }
};

// Counts begin calls per vertex and in all, and counts updates that ran
// before every begin of the step had (through `late`). Updates return false,
// so an asynchronous engine runs no inner iterations (which may call begin
// again by contract).
template <typename V>
struct CountBegins {
  static constexpr bool needs_weights = false;
  int32_t* begun;       // per vertex
  uint64_t* counts;     // [0]: begin calls in all, [1]: late updates, [2]: updates
  uint64_t expected;    // the frontier's size

  TG_HD void begin(V u) const {
    atomic_add(&begun[u], int32_t{1});
    atomic_add(&counts[0], uint64_t{1});
  }
  TG_HD bool cond(V) const { return true; }
  TG_HD bool update_atomic(V u, V, weight_t) const {
    atomic_add(&counts[2], uint64_t{1});
    if (atomic_load(&counts[0]) != expected || atomic_load(&begun[u]) != 1) atomic_add(&counts[1], uint64_t{1});
    return false;
  }
  TG_HD bool update(V u, V v, weight_t w) const { return update_atomic(u, v, w); }
};

// Sums incoming weights: gather over in-edges.
template <typename V>
struct InWeight {
  using acc_t = double;
  static constexpr bool needs_weights = true;
  double* out;
  TG_HD acc_t zero() const { return 0; }
  TG_HD acc_t gather(V, V, weight_t w) const { return w; }
  TG_HD acc_t sum(acc_t a, acc_t b) const { return a + b; }
  TG_HD double apply(V v, acc_t total) const {
    out[v] = total;
    return total;
  }
};

// key[v], from an engine array (buckets' key functor).
struct KeyFromArray {
  const double* key;
  template <typename V>
  TG_HD double operator()(V v) const {
    return key[v];
  }
};

// key[v] = the picked vertex's hash spread over `range` buckets (times
// `stride`), or inf for one vertex in `unkeyed`.
struct SetKeys {
  double* key;
  uint64_t range;
  double stride;
  uint64_t unkeyed;
  template <typename V>
  TG_HD void operator()(V v) const {
    const uint64_t h = mix64(static_cast<uint64_t>(v) + 77);
    key[v] = h % unkeyed == 0 ? kNoBucket : static_cast<double>(h % range) * stride;
  }
};

// ---- helpers over any engine ----

template <typename Engine>
std::set<uint64_t> members(Engine& engine, const typename Engine::Frontier& f) {
  auto visits = engine.template make_array<int32_t>(0);
  engine.vertex_map(f, CountVisits{engine.data(visits)});
  const auto v = engine.to_host(visits);
  std::set<uint64_t> out;
  for (uint64_t i = 0; i < v.size(); ++i) {
    EXPECT_LE(v[i], 1) << "vertex_map visited vertex " << i << " " << v[i] << " times";
    if (v[i] > 0) out.insert(i);
  }
  EXPECT_EQ(out.size(), engine.size(f)) << "size() disagrees with the members";
  return out;
}

template <typename V>
std::set<uint64_t> picked(uint64_t n, Picked p) {
  std::set<uint64_t> s;
  for (uint64_t v = 0; v < n; ++v)
    if (p(static_cast<V>(v))) s.insert(v);
  return s;
}

template <typename V>
Graph<V> shape_graph(const std::string& name, Orientation o, bool weights = false) {
  EdgeList e = find_shape(name).edges;
  if (weights) e = with_weights(e, WeightKind::kInteger, 3);
  return std::get<Graph<V>>(build_variant(e, o, sizeof(V) == 8));
}

constexpr EdgeReads kPushAndPull{Need::kYes, Need::kIfPresent, false};

// ---- the suite ----

template <typename Factory>
class EngineContract : public ::testing::Test {
 protected:
  using V = typename Factory::vertex_t;
  void SetUp() override {
    std::string why;
    if (!Factory::available(&why)) GTEST_SKIP() << why;
  }
};

TYPED_TEST_SUITE_P(EngineContract);

TYPED_TEST_P(EngineContract, FrontiersAreSets) {
  using V = typename TestFixture::V;
  Graph<V> g = shape_graph<V>("kron_large", Orientation::kDirected);
  typename TypeParam::Instance inst(g, kPushAndPull);
  auto& engine = inst.engine();
  const uint64_t n = g.num_vertices;
  EXPECT_EQ(engine.num_vertices(), n);
  EXPECT_EQ(engine.size(engine.all()), n);
  EXPECT_EQ(members(engine, engine.all()).size(), n);
  EXPECT_EQ(members(engine, engine.single(5)), std::set<uint64_t>{5});

  const Picked half{1, 2}, third{2, 3};
  auto a = engine.filter(engine.all(), half);
  EXPECT_EQ(members(engine, a), picked<V>(n, half));
  auto ab = engine.filter(a, third);  // a filter of a sparse frontier
  std::set<uint64_t> both;
  for (uint64_t v : picked<V>(n, half))
    if (third(static_cast<V>(v))) both.insert(v);
  EXPECT_EQ(members(engine, ab), both);

  auto b = engine.filter(engine.all(), third);
  std::set<uint64_t> either = picked<V>(n, half);
  for (uint64_t v : picked<V>(n, third)) either.insert(v);
  EXPECT_EQ(members(engine, engine.merge(a, b)), either);
  auto none = engine.filter(engine.all(), Picked{3, uint64_t(1) << 62});
  EXPECT_EQ(engine.size(none), 0u);
  EXPECT_EQ(members(engine, engine.merge(none, b)), picked<V>(n, third));
  EXPECT_EQ(members(engine, engine.merge(b, none)), picked<V>(n, third));
  EXPECT_EQ(engine.size(engine.merge(b, engine.all())), n);
}

// split(f, first, second) (engines/engine.h): the two filters' members, for
// every kind of frontier an engine hands out: all, a filter's, an edge
// map's (a pull's where the engine pulls: the GPU's dense bitmap), empty.
TYPED_TEST_P(EngineContract, SplitIsTheTwoFilters) {
  using V = typename TestFixture::V;
  Graph<V> g = shape_graph<V>("kron_large", Orientation::kUndirected);
  typename TypeParam::Instance inst(g, kPushAndPull);
  auto& engine = inst.engine();
  const uint64_t n = g.num_vertices;
  const Picked third{2, 3}, half{1, 2};
  const PickedNot rest{half, third};
  auto reached = engine.template make_array<int32_t>(0);
  const Direction d = engine.can_pull() ? Direction::kPull : Direction::kPush;
  auto stepped = engine.edge_map(engine.filter(engine.all(), Picked{5, 7}), Reach<V>{engine.data(reached)},
                                 EdgeMapOptions{d, true});
  ASSERT_GT(engine.size(stepped), 0u);
  const std::set<uint64_t> stepped_members = members(engine, stepped);
  using Frontier = typename std::remove_reference_t<decltype(engine)>::Frontier;
  std::set<uint64_t> everyone;
  for (uint64_t v = 0; v < n; ++v) everyone.insert(v);
  struct Case {
    const char* name;
    Frontier f;
    std::set<uint64_t> want;
  };
  const std::vector<Case> cases = {{"all", engine.all(), everyone},
                                   {"filtered", engine.filter(engine.all(), half), picked<V>(n, half)},
                                   {"stepped", stepped, stepped_members},
                                   {"empty", Frontier{}, {}}};
  for (const auto& [name, f, want] : cases) {
    SCOPED_TRACE(name);
    auto [first, second] = split(engine, f, third, rest);
    std::set<uint64_t> want_first, want_second;
    for (uint64_t v : want) {
      if (third(static_cast<V>(v))) want_first.insert(v);
      if (rest(static_cast<V>(v))) want_second.insert(v);
    }
    EXPECT_EQ(members(engine, first), want_first);
    EXPECT_EQ(members(engine, second), want_second);
    EXPECT_EQ(members(engine, f), want) << "the input frontier was changed by its split";
  }
}

TYPED_TEST_P(EngineContract, SumsAndMinimum) {
  using V = typename TestFixture::V;
  Graph<V> g = shape_graph<V>("kron_large", Orientation::kUndirected);
  typename TypeParam::Instance inst(g, kPushAndPull);
  auto& engine = inst.engine();
  const uint64_t n = g.num_vertices;
  EXPECT_EQ(engine.vertex_sum(IdAsDouble{}), double(n) * double(n - 1) / 2);
  const Picked p{4, 5};
  auto f = engine.filter(engine.all(), p);
  const uint64_t largest = *picked<V>(n, p).rbegin();
  EXPECT_EQ(engine.min_over(f, HundredMinusId{}), 100.0 - double(largest));
  EXPECT_TRUE(std::isinf(engine.min_over(engine.filter(engine.all(), Picked{3, uint64_t(1) << 62}), IdAsDouble{})));
  auto values = engine.template make_array<double>(2.5);
  engine.set(values, 7, 4.0);
  EXPECT_EQ(engine.get(values, 7), 4.0);
  EXPECT_EQ(engine.get(values, 8), 2.5);
  // In the order asked, repeats and the last vertex included.
  engine.set(values, static_cast<V>(n - 1), -1.0);
  const std::vector<V> at{8, 7, static_cast<V>(n - 1), 7};
  EXPECT_EQ(engine.get_many(values, std::span<const V>(at)), (std::vector<double>{2.5, 4.0, -1.0, 4.0}));
  EXPECT_TRUE(engine.get_many(values, std::span<const V>()).empty());
  engine.set(values, static_cast<V>(n - 1), 2.5);
  const auto host = engine.to_host(values);
  ASSERT_EQ(host.size(), n);
  EXPECT_EQ(host[7], 4.0);
  // Converted on the way out, every value (the CPU engine writes large
  // arrays from all threads).
  const auto as_float = engine.template to_host<float>(values);
  std::vector<float> want(n, 2.5f);
  want[7] = 4.0f;
  EXPECT_EQ(as_float, want);
}

// Push, pull and auto from the same frontier reach the same vertices, which
// are exactly the out-neighbours of the frontier not reached before (brute
// force); the output set is those vertices, once each. An asynchronous
// engine runs inner steps from what it reached (within a loaded unit), so
// there the output holds those vertices and possibly more reachable ones.
TYPED_TEST_P(EngineContract, PushPullAndAutoReachTheSameSet) {
  using V = typename TestFixture::V;
  for (const char* shape : {"kron_large", "big_star", "big_star_in", "random_1", "loops_and_duplicates", "isolated"})
    for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
      Graph<V> g = shape_graph<V>(shape, o);
      const uint64_t n = g.num_vertices;
      const Picked in_frontier{11, 4}, reached_before{12, 3};
      std::set<uint64_t> want;
      for (uint64_t u = 0; u < n; ++u)
        if (in_frontier(static_cast<V>(u)))
          for (eid_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e)
            if (!reached_before(g.out.neighbors[e])) want.insert(g.out.neighbors[e]);
      for (Direction d : {Direction::kPush, Direction::kPull, Direction::kAuto}) {
        SCOPED_TRACE(std::string(shape) + ", " + orientation_name(o) + ", direction " + std::to_string(int(d)));
        typename TypeParam::Instance inst(g, kPushAndPull);
        auto& engine = inst.engine();
        auto reached = engine.template make_array<int32_t>(0);
        engine.vertex_map(engine.all(), SetWhere{engine.data(reached), reached_before});
        auto frontier = engine.filter(engine.all(), in_frontier);
        if (d == Direction::kPull && !engine.can_pull()) {
          EXPECT_THROW(engine.edge_map(frontier, Reach<V>{engine.data(reached)}, EdgeMapOptions{d, true}), Error);
          continue;
        }
        auto out = engine.edge_map(frontier, Reach<V>{engine.data(reached)}, EdgeMapOptions{d, true});
        const auto r = engine.to_host(reached);
        if (TypeParam::kAsynchronous) {
          std::set<uint64_t> got = members(engine, out);
          EXPECT_TRUE(std::includes(got.begin(), got.end(), want.begin(), want.end()));
          for (uint64_t v : got) EXPECT_EQ(r[v], 1) << "vertex " << v;
          continue;
        }
        EXPECT_EQ(members(engine, out), want);
        for (uint64_t v = 0; v < n; ++v)
          ASSERT_EQ(r[v], (reached_before(static_cast<V>(v)) || want.count(v)) ? 1 : 0) << "vertex " << v;
        const RunStats& s = engine.stats();
        if (d == Direction::kPush) EXPECT_EQ(s.push_steps, 1u);
        if (d == Direction::kPull) EXPECT_EQ(s.pull_steps, 1u);
        EXPECT_EQ(s.push_steps + s.pull_steps, 1u);
        // The input frontier was not changed by its use.
        EXPECT_EQ(members(engine, frontier), picked<V>(n, in_frontier));
      }
    }
}

// A pull under the list_limit hint reads the first `limit` entries of each
// in-list and no more: updates for the frontier's members among them, and
// those entries counted as read.
TYPED_TEST_P(EngineContract, PullLimitReadsOnlyTheFirstEntries) {
  using V = typename TestFixture::V;
  for (const char* shape : {"kron_large", "big_star_in", "loops_and_duplicates", "isolated"})
    for (Orientation o : {Orientation::kDirected, Orientation::kUndirected})
      for (int32_t limit : {1, 2, 5})
        for (bool everyone : {true, false}) {
          SCOPED_TRACE(std::string(shape) + ", " + orientation_name(o) + ", limit " + std::to_string(limit) +
                       (everyone ? ", every vertex" : ", a picked frontier"));
          Graph<V> g = shape_graph<V>(shape, o);
          typename TypeParam::Instance inst(g, kPushAndPull);
          auto& engine = inst.engine();
          if (!engine.can_pull()) continue;
          const uint64_t n = g.num_vertices;
          const Picked in_frontier{5, 3};
          const Csr<V>& in = g.in_edges();
          std::vector<int32_t> want_count(n, 0);
          std::vector<uint64_t> want_hash(n, 0);
          uint64_t want_read = 0;
          for (uint64_t v = 0; v < n; ++v) {
            const eid_t b = in.offsets[v], e = std::min<eid_t>(in.offsets[v + 1], b + limit);
            want_read += e - b;
            for (eid_t i = b; i < e; ++i)
              if (everyone || in_frontier(in.neighbors[i])) {
                want_count[v]++;
                want_hash[v] += mix64(static_cast<uint64_t>(in.neighbors[i]));
              }
          }
          auto count = engine.template make_array<int32_t>(0);
          auto hash_sum = engine.template make_array<uint64_t>(0);
          auto frontier = everyone ? engine.all() : engine.filter(engine.all(), in_frontier);
          engine.edge_map(frontier, FirstInNeighbours<V>{engine.data(count), engine.data(hash_sum), limit},
                          EdgeMapOptions{Direction::kPull, false});
          const auto got_count = engine.to_host(count);
          const auto got_hash = engine.to_host(hash_sum);
          for (uint64_t v = 0; v < n; ++v) {
            ASSERT_EQ(got_count[v], want_count[v]) << "vertex " << v;
            ASSERT_EQ(got_hash[v], want_hash[v]) << "vertex " << v;
          }
          EXPECT_EQ(engine.stats().edges_traversed, want_read);
        }
}

TYPED_TEST_P(EngineContract, WithoutOutputUpdatesStillRun) {
  using V = typename TestFixture::V;
  Graph<V> g = shape_graph<V>("big_star", Orientation::kUndirected);
  for (Direction d : {Direction::kPush, Direction::kAuto}) {
    typename TypeParam::Instance inst(g, kPushAndPull);
    auto& engine = inst.engine();
    auto reached = engine.template make_array<int32_t>(0);
    auto out = engine.edge_map(engine.single(0), Reach<V>{engine.data(reached)}, EdgeMapOptions{d, false});
    EXPECT_EQ(engine.size(out), 0u);
    const auto r = engine.to_host(reached);
    for (uint64_t v = 1; v <= 6000; ++v) ASSERT_EQ(r[v], 1) << v;
    if (d == Direction::kPush) EXPECT_EQ(engine.stats().edges_traversed, g.out.degree(0));
  }
}

// A directed graph without its CSC: a pull asked for is an error, auto
// pushes, a gather is an error; never a silent push or an out-of-bounds read.
TYPED_TEST_P(EngineContract, PullWithoutInEdgesIsAnError) {
  using V = typename TestFixture::V;
  Graph<V> g = shape_graph<V>("kron_1", Orientation::kDirectedNoCsc, true);
  ASSERT_FALSE(g.has_in_edges());
  typename TypeParam::Instance inst(g, kPushAndPull);
  auto& engine = inst.engine();
  EXPECT_FALSE(engine.can_pull());
  auto reached = engine.template make_array<int32_t>(0);
  EXPECT_THROW(engine.edge_map(engine.single(0), Reach<V>{engine.data(reached)}, EdgeMapOptions{Direction::kPull, true}),
               Error);
  auto out = engine.edge_map(engine.all(), Reach<V>{engine.data(reached)}, EdgeMapOptions{});
  EXPECT_GT(engine.size(out), 0u);
  EXPECT_EQ(engine.stats().pull_steps, 0u);
  auto sums = engine.template make_array<double>(0.0);
  EXPECT_THROW(engine.gather_apply(InWeight<V>{engine.data(sums)}), Error);
}

// begin runs once for every frontier vertex, all before the first update,
// pushing or pulling, from sparse and from all-vertex frontiers.
TYPED_TEST_P(EngineContract, BeginRunsOncePerFrontierVertexBeforeUpdates) {
  using V = typename TestFixture::V;
  for (const char* shape : {"kron_large", "big_star", "loops_and_duplicates"}) {
    Graph<V> g = shape_graph<V>(shape, Orientation::kDirected);
    const uint64_t n = g.num_vertices;
    const Picked in_frontier{21, 3};
    for (bool every : {false, true})
      for (Direction d : {Direction::kPush, Direction::kPull}) {
        SCOPED_TRACE(std::string(shape) + (every ? ", all vertices" : ", a third") + ", direction " +
                     std::to_string(int(d)));
        typename TypeParam::Instance inst(g, kPushAndPull);
        auto& engine = inst.engine();
        if (d == Direction::kPull && !engine.can_pull()) continue;
        auto frontier = every ? engine.all() : engine.filter(engine.all(), in_frontier);
        auto begun = engine.template make_array<int32_t>(0);
        auto counts = engine.template make_array<uint64_t>(0);
        CountBegins<V> op{engine.data(begun), engine.data(counts), engine.size(frontier)};
        engine.edge_map(frontier, op, EdgeMapOptions{d, true});
        const auto c = engine.to_host(counts);
        EXPECT_EQ(c[0], engine.size(frontier)) << "begin calls";
        EXPECT_EQ(c[1], 0u) << "updates before every begin had run";
        EXPECT_GT(c[2], 0u) << "updates";
        const auto b = engine.to_host(begun);
        for (uint64_t v = 0; v < n; ++v)
          ASSERT_EQ(b[v], (every || in_frontier(static_cast<V>(v))) ? 1 : 0) << "vertex " << v;
      }
  }
}

// What InWeight gathers: each vertex's in-edge weights summed, and the sum of
// all.
template <typename V>
std::pair<std::vector<double>, double> in_weight_sums(const Graph<V>& g) {
  std::vector<double> sums(g.num_vertices, 0.0);
  double total = 0;
  for (uint64_t u = 0; u < g.num_vertices; ++u)
    for (eid_t i = g.out.offsets[u]; i < g.out.offsets[u + 1]; ++i) {
      sums[g.out.neighbors[i]] += g.out.weights[i];
      total += g.out.weights[i];
    }
  return {sums, total};
}

TYPED_TEST_P(EngineContract, GatherApplySumsInEdges) {
  using V = typename TestFixture::V;
  for (const char* shape : {"kron_large", "big_star_in", "isolated"})
    for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
      SCOPED_TRACE(std::string(shape) + ", " + orientation_name(o));
      Graph<V> g = shape_graph<V>(shape, o, true);
      typename TypeParam::Instance inst(g, EdgeReads{Need::kNo, Need::kYes, true});
      auto& engine = inst.engine();
      auto sums = engine.template make_array<double>(-1.0);
      double total = engine.gather_apply(InWeight<V>{engine.data(sums)});
      const auto [want, want_total] = in_weight_sums(g);
      EXPECT_EQ(engine.to_host(sums), want);  // small integers: exact in any order
      EXPECT_EQ(total, want_total);
      EXPECT_EQ(engine.stats().edges_traversed, g.num_edges());
    }
}

// Vertex 0 sends to 1 .. 5000 and those to 1: one long out-list (0's) and
// one long in-list (1's), longer than a GPU chunk (1024 entries). 10^4 edges:
// the streamed placements' test budget (1.5 bytes an edge) must hold the
// least buffers of a push and a gather at once.
template <typename V>
Graph<V> two_stars() {
  EdgeList e;
  e.num_vertices = 5001;
  for (uint64_t v = 1; v <= 5000; ++v) {
    e.src.push_back(0);
    e.dst.push_back(v);
    if (v > 1) {
      e.src.push_back(v);
      e.dst.push_back(1);
    }
  }
  return std::get<Graph<V>>(build_variant(with_weights(e, WeightKind::kInteger, 3), Orientation::kDirected, sizeof(V) == 8));
}

// A gather repeated, and again after a push (which, on the GPU, fills the
// queue where long lists wait: two_stars' push queues 0 where its gather
// queued 1): each sums what the first did, so an engine that keeps a
// gather's state for the next over the same vertices (the GPU's kept queues,
// GatherQueues in engines/gpu/kernels/step_args.h) keeps only what still
// holds.
TYPED_TEST_P(EngineContract, GatherApplyRepeatsAcrossPushes) {
  using V = typename TestFixture::V;
  for (const char* shape : {"two_stars", "kron_large"}) {
    SCOPED_TRACE(shape);
    Graph<V> g = std::string(shape) == "two_stars" ? two_stars<V>() : shape_graph<V>(shape, Orientation::kUndirected, true);
    typename TypeParam::Instance inst(g, EdgeReads{Need::kYes, Need::kYes, true});
    auto& engine = inst.engine();
    const auto [want, want_total] = in_weight_sums(g);
    for (const bool push_before : {false, false, true, false}) {
      SCOPED_TRACE(push_before ? "after a push" : "right after a gather");
      if (push_before) {
        auto reached = engine.template make_array<int32_t>(0);
        engine.edge_map(engine.all(), Reach<V>{engine.data(reached)}, EdgeMapOptions{Direction::kPush, true});
      }
      auto sums = engine.template make_array<double>(-1.0);
      EXPECT_EQ(engine.gather_apply(InWeight<V>{engine.data(sums)}), want_total);
      EXPECT_EQ(engine.to_host(sums), want);  // small integers: exact in any order
    }
  }
}

// Test names from the factories' name(): "Gpu/EngineContract/device_v32.FrontiersAreSets".
struct FactoryName {
  template <typename Factory>
  static std::string GetName(int) {
    return Factory::name();
  }
};

// Buckets (engines/buckets.h, the engine's own or the frontier version): pop
// returns the lowest bucket and each of its vertices once; a vertex inserted
// again with a lower key comes out of its new bucket only; keys spread far
// beyond any window come out in order too.
TYPED_TEST_P(EngineContract, BucketsPopInKeyOrder) {
  using V = typename TestFixture::V;
  Graph<V> g = shape_graph<V>("kron_large", Orientation::kUndirected);
  const uint64_t n = g.num_vertices;
  for (double stride : {1.0, 1e6}) {
    SCOPED_TRACE("stride " + std::to_string(stride));
    typename TypeParam::Instance inst(g, kPushAndPull);
    auto& engine = inst.engine();
    auto keys = engine.template make_array<double>(0.0);
    engine.vertex_map(engine.all(), SetKeys{engine.data(keys), 50, stride, 7});
    auto buckets = make_buckets(engine, KeyFromArray{engine.data(keys)});
    buckets.insert(engine.all());
    buckets.insert(engine.filter(engine.all(), Picked{5, 3}));  // repeats must come out once
    auto k = engine.to_host(keys);
    // The first pop, then lower the keys of some waiting vertices to the
    // popped bucket's successor and insert them again.
    auto [first, lowest_bucket] = buckets.pop();
    double lowest = kNoBucket;
    for (double x : k) lowest = std::min(lowest, x);
    EXPECT_EQ(first, lowest);
    std::set<uint64_t> want;
    for (uint64_t v = 0; v < n; ++v)
      if (k[v] == first) want.insert(v);
    EXPECT_EQ(members(engine, lowest_bucket), want);
    const double moved_to = first + stride;
    std::vector<uint64_t> moved;
    for (uint64_t v = 0; v < n && moved.size() < 20; ++v)
      if (k[v] > moved_to && k[v] < kNoBucket) moved.push_back(v);
    for (uint64_t v : moved) {
      engine.set(keys, static_cast<V>(v), moved_to);
      k[v] = moved_to;
    }
    std::set<uint64_t> moved_set(moved.begin(), moved.end());
    buckets.insert(engine.filter(engine.all(), InSet<V>{engine.data(keys), moved_to}));
    double last = first;
    uint64_t popped = want.size();
    while (true) {
      auto [b, f] = buckets.pop();
      if (engine.size(f) == 0) break;
      EXPECT_GT(b, last);
      last = b;
      std::set<uint64_t> expect;
      for (uint64_t v = 0; v < n; ++v)
        if (k[v] == b) expect.insert(v);
      EXPECT_EQ(members(engine, f), expect) << "bucket " << b;
      popped += expect.size();
    }
    uint64_t keyed = 0;
    for (double x : k) keyed += x < kNoBucket;
    EXPECT_EQ(popped, keyed);
  }
}

REGISTER_TYPED_TEST_SUITE_P(EngineContract, FrontiersAreSets, SplitIsTheTwoFilters, SumsAndMinimum, PushPullAndAutoReachTheSameSet,
                            PullLimitReadsOnlyTheFirstEntries, WithoutOutputUpdatesStillRun, PullWithoutInEdgesIsAnError,
                            BeginRunsOncePerFrontierVertexBeforeUpdates, GatherApplySumsInEdges,
                            GatherApplyRepeatsAcrossPushes, BucketsPopInKeyOrder);

}  // namespace tg::test::contract
