// The CPU engine's operations one by one (engines/engine.h is the contract):
// frontiers, vertex maps and sums, and edge_map in both directions, which
// must reach the same vertices; checked against brute force on test shapes.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <set>

#include "core/error.h"
#include "engines/cpu/cpu_engine.h"
#include "engines/run.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

using V = vid32_t;
using Engine = CpuEngine<V>;

Graph<V> graph32(const std::string& shape, Orientation o = Orientation::kDirected) {
  return std::get<Graph<V>>(build_variant(find_shape(shape).edges, o, false));
}

std::set<V> members(Engine& engine, const Engine::Frontier& f) {
  std::vector<uint8_t> seen(engine.num_vertices(), 0);
  std::atomic<int> repeats{0};
  engine.vertex_map(f, [&](V v) {
    if (std::atomic_ref<uint8_t>(seen[v]).exchange(1)) repeats++;
  });
  EXPECT_EQ(repeats.load(), 0) << "vertex_map visited a vertex twice";
  std::set<V> out;
  for (V v = 0; v < seen.size(); ++v)
    if (seen[v]) out.insert(v);
  EXPECT_EQ(out.size(), engine.size(f)) << "size() disagrees with the members";
  return out;
}

// Marks v reached the first time an edge into it is followed.
struct Reach {
  static constexpr bool needs_weights = false;
  int32_t* reached;
  bool cond(V v) const { return reached[v] == 0; }
  bool update(V, V v, weight_t) const {
    reached[v] = 1;
    return true;
  }
  bool update_atomic(V, V v, weight_t) const {
    return __atomic_exchange_n(&reached[v], 1, __ATOMIC_RELAXED) == 0;
  }
};

// Counts begin calls and checks, at every update, that begin has already run
// for every frontier vertex (so for u too) and only once; a begin after the
// first update counts as late.
struct CountBegins {
  static constexpr bool needs_weights = false;
  int32_t* begun;       // begin calls per vertex
  uint64_t* total;      // begin calls in all
  uint64_t expected;    // frontier size
  int32_t* updating;    // set by the first update
  uint64_t* bad;        // updates that ran too early, begins that ran too late

  void begin(V u) const {
    __atomic_fetch_add(&begun[u], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(total, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(updating, __ATOMIC_SEQ_CST)) __atomic_fetch_add(bad, 1, __ATOMIC_RELAXED);
  }
  bool cond(V) const { return true; }
  bool update_atomic(V u, V, weight_t) const {
    __atomic_store_n(updating, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(total, __ATOMIC_SEQ_CST) != expected || __atomic_load_n(&begun[u], __ATOMIC_RELAXED) != 1)
      __atomic_fetch_add(bad, 1, __ATOMIC_RELAXED);
    return true;
  }
  bool update(V u, V v, weight_t w) const { return update_atomic(u, v, w); }
};

static_assert(HasBegin<CountBegins, V>);
static_assert(!HasBegin<Reach, V>);

// Sums incoming weights: gather over in-edges.
struct InWeight {
  using acc_t = double;
  static constexpr bool needs_weights = true;
  double* out;
  acc_t zero() const { return 0; }
  acc_t gather(V, V, weight_t w) const { return w; }
  acc_t sum(acc_t a, acc_t b) const { return a + b; }
  double apply(V v, acc_t total) const {
    out[v] = total;
    return total;
  }
};

TEST(CpuEngine, Frontiers) {
  Graph<V> g = graph32("kron_large");
  Engine engine(g);
  const uint64_t n = g.num_vertices;
  EXPECT_EQ(engine.size(engine.all()), n);
  EXPECT_EQ(members(engine, engine.single(5)), std::set<V>{5});

  auto even = engine.filter(engine.all(), [](V v) { return v % 2 == 0; });
  EXPECT_EQ(engine.size(even), (n + 1) / 2);
  auto sixes = engine.filter(even, [](V v) { return v % 3 == 0; });
  std::set<V> want;
  for (V v = 0; v < n; v += 6) want.insert(v);
  EXPECT_EQ(members(engine, sixes), want);

  auto threes = engine.filter(engine.all(), [](V v) { return v % 3 == 0; });
  auto both = engine.merge(even, threes);
  want.clear();
  for (V v = 0; v < n; ++v)
    if (v % 2 == 0 || v % 3 == 0) want.insert(v);
  EXPECT_EQ(members(engine, both), want);
  auto none = engine.filter(engine.all(), [](V) { return false; });
  EXPECT_EQ(engine.size(engine.merge(none, threes)), engine.size(threes));
  EXPECT_EQ(engine.size(engine.merge(threes, none)), engine.size(threes));

  EXPECT_EQ(engine.vertex_sum([](V v) { return double(v); }), double(n) * (n - 1) / 2);
  EXPECT_EQ(engine.min_over(sixes, [](V v) { return 100.0 - v; }), 100.0 - 6 * ((n - 1) / 6));
  EXPECT_TRUE(std::isinf(engine.min_over(none, [](V v) { return double(v); })));
}

// Push and pull from the same frontier reach the same vertices, which are
// exactly the unreached out-neighbours of the frontier (brute force).
TEST(CpuEngine, PushAndPullAgree) {
  for (const char* shape : {"kron_large", "big_star", "random_1", "loops_and_duplicates", "isolated"}) {
    for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
      Graph<V> g = graph32(shape, o);
      const uint64_t n = g.num_vertices;
      std::mt19937 rng(42);
      std::vector<uint8_t> in_frontier(n), pre_reached(n);
      for (uint64_t v = 0; v < n; ++v) {
        in_frontier[v] = rng() % 4 == 0;
        pre_reached[v] = rng() % 3 == 0;
      }
      std::set<V> want;
      for (uint64_t u = 0; u < n; ++u)
        if (in_frontier[u])
          for (eid_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e)
            if (!pre_reached[g.out.neighbors[e]]) want.insert(g.out.neighbors[e]);

      for (Direction d : {Direction::kPush, Direction::kPull, Direction::kAuto})
        for (int threads : {1, 2}) {
          omp_set_num_threads(threads);
          Engine engine(g);
          auto reached = engine.make_array<int32_t>(0);
          for (uint64_t v = 0; v < n; ++v) engine.set(reached, v, int32_t{pre_reached[v]});
          auto frontier = engine.filter(engine.all(), [&](V v) { return in_frontier[v] != 0; });
          auto out = engine.edge_map(frontier, Reach{engine.data(reached)}, EdgeMapOptions{d, true});
          EXPECT_EQ(members(engine, out), want) << shape << " direction " << int(d) << ", " << threads << " threads";
          for (uint64_t v = 0; v < n; ++v)
            EXPECT_EQ(engine.get(reached, v), (pre_reached[v] || want.count(v)) ? 1 : 0) << shape << " vertex " << v;
          // The frontier's vertex set was unchanged by its use.
          EXPECT_EQ(engine.size(frontier), uint64_t(std::count(in_frontier.begin(), in_frontier.end(), 1)));
        }
      omp_set_num_threads(2);
    }
  }
}

// begin runs once for every frontier vertex, all before the first update,
// pushing or pulling, from sparse and from all-vertex frontiers.
TEST(CpuEngine, BeginRunsOncePerFrontierVertexBeforeUpdates) {
  for (const char* shape : {"kron_large", "big_star", "loops_and_duplicates"}) {
    Graph<V> g = graph32(shape, Orientation::kDirected);
    const uint64_t n = g.num_vertices;
    std::mt19937 rng(7);
    std::vector<uint8_t> in_frontier(n);
    for (uint64_t v = 0; v < n; ++v) in_frontier[v] = v == 0 || rng() % 3 == 0;
    for (bool every : {false, true})
      for (Direction d : {Direction::kPush, Direction::kPull})
        for (int threads : {1, 2}) {
          SCOPED_TRACE(std::string(shape) + (every ? ", all vertices" : ", a third") + ", direction " +
                       std::to_string(int(d)) + ", " + std::to_string(threads) + " threads");
          omp_set_num_threads(threads);
          Engine engine(g);
          auto frontier = every ? engine.all() : engine.filter(engine.all(), [&](V v) { return in_frontier[v] != 0; });
          auto begun = engine.make_array<int32_t>(0);
          uint64_t total = 0, bad = 0;
          int32_t updating = 0;
          CountBegins op{engine.data(begun), &total, engine.size(frontier), &updating, &bad};
          auto out = engine.edge_map(frontier, op, EdgeMapOptions{d, true});
          EXPECT_EQ(d == Direction::kPush ? engine.stats().push_steps : engine.stats().pull_steps, 1u);
          EXPECT_EQ(bad, 0u);
          EXPECT_EQ(total, engine.size(frontier));
          for (uint64_t v = 0; v < n; ++v)
            ASSERT_EQ(engine.get(begun, v), (every || in_frontier[v]) ? 1 : 0) << "vertex " << v;
          EXPECT_GT(engine.size(out), 0u);
        }
    omp_set_num_threads(2);
  }
}

TEST(CpuEngine, PushWithoutOutputStillUpdates) {
  Graph<V> g = graph32("big_star");
  Engine engine(g);
  auto reached = engine.make_array<int32_t>(0);
  auto out = engine.edge_map(engine.single(0), Reach{engine.data(reached)}, EdgeMapOptions{Direction::kPush, false});
  EXPECT_EQ(engine.size(out), 0u);
  for (V v = 1; v <= 6000; ++v) ASSERT_EQ(engine.get(reached, v), 1) << v;
  EXPECT_EQ(engine.stats().edges_traversed, 6000u);
  EXPECT_EQ(engine.stats().push_steps, 1u);
}

TEST(CpuEngine, GatherApplySumsInEdges) {
  for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
    EdgeList e = with_weights(find_shape("kron_large").edges, WeightKind::kInteger, 3);
    Graph<V> g = std::get<Graph<V>>(build_variant(e, o, false));
    Engine engine(g);
    auto sums = engine.make_array<double>(-1.0);
    double total = engine.gather_apply(InWeight{engine.data(sums)});
    std::vector<double> want(g.num_vertices, 0.0);
    double want_total = 0;
    for (uint64_t u = 0; u < g.num_vertices; ++u)
      for (eid_t i = g.out.offsets[u]; i < g.out.offsets[u + 1]; ++i) {
        want[g.out.neighbors[i]] += g.out.weights[i];
        want_total += g.out.weights[i];
      }
    EXPECT_EQ(engine.to_host(sums), want);
    EXPECT_EQ(total, want_total);
  }
}

// Without the CSC of a directed graph: pulling would read out of bounds. An
// explicit pull and gather_apply (PageRank) are errors; auto pushes.
TEST(CpuEngine, DirectedGraphWithoutCsc) {
  Graph<V> g = graph32("kron_1", Orientation::kDirectedNoCsc);
  ASSERT_FALSE(g.has_in_edges());
  Engine engine(g);
  auto reached = engine.make_array<int32_t>(0);
  EXPECT_FALSE(engine.can_pull());
  EXPECT_THROW(engine.edge_map(engine.single(0), Reach{engine.data(reached)}, EdgeMapOptions{Direction::kPull, true}),
               Error);
  auto out = engine.edge_map(engine.single(0), Reach{engine.data(reached)}, EdgeMapOptions{});
  EXPECT_EQ(engine.size(out), std::set<V>(g.out.neighbors.data() + g.out.offsets[0],
                                          g.out.neighbors.data() + g.out.offsets[1]).size());
  EXPECT_EQ(engine.stats().pull_steps, 0u);
  auto sums = engine.make_array<double>(0.0);
  EXPECT_THROW(engine.gather_apply(InWeight{engine.data(sums)}), Error);

  AnyGraph any = build_variant(find_shape("kron_1").edges, Orientation::kDirectedNoCsc, false);
  RunRequest r = make_request(*find_algorithm("pagerank"));
  EXPECT_THROW(run_on_cpu(any, prepare_request(any, r)), Error);
}

}  // namespace
}  // namespace tg::test
