// The CPU engine's prefetch hooks (engines/cpu/lookahead.h): it asks only for
// the lines of vertices its loop will read (every id in range; a target of an
// edge it pushes along, a source it pulls or gathers from, a vertex it
// settles or reaches), and it does ask where lists are long enough to look
// ahead in. Spy operators record the ids they are asked for. A prefetch never
// changes a result; an id out of range here would be an out-of-bounds read
// of the lists that precede it.
#include <gtest/gtest.h>

#include <atomic>
#include <limits>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "algorithms/sssp.h"
#include "engines/cpu/cpu_engine.h"
#include "support/shapes.h"
#include "support/thread_count.h"

namespace tg::test {
namespace {

using V = vid32_t;

// How often the engine asked for each vertex's line; ids out of range apart.
struct Asked {
  std::vector<std::atomic<uint32_t>> count;
  std::atomic<uint64_t> out_of_range{0};
  explicit Asked(uint64_t n) : count(n) {}
  void record(uint64_t v) {
    if (v >= count.size()) out_of_range++;
    else count[v]++;
  }
  uint64_t total() const {
    uint64_t sum = 0;
    for (const auto& c : count) sum += c.load();
    return sum;
  }
  // The vertices asked for that `allowed` does not hold.
  std::vector<V> outside(const std::set<V>& allowed) const {
    std::vector<V> bad;
    for (uint64_t v = 0; v < count.size(); ++v)
      if (count[v] > 0 && !allowed.count(static_cast<V>(v))) bad.push_back(static_cast<V>(v));
    return bad;
  }
};

struct PushSpy {
  static constexpr bool needs_weights = false;
  Asked* asked;
  bool cond(V) const { return true; }
  bool update(V, V, weight_t) const { return false; }
  bool update_atomic(V, V, weight_t) const { return false; }
  void prefetch(V v) const { asked->record(v); }
};

struct PullSpy {
  static constexpr bool needs_weights = false;
  Asked* asked;
  int32_t limit;
  bool cond(V) const { return true; }
  int32_t list_limit() const { return limit; }
  bool update(V, V, weight_t) const { return false; }
  bool update_atomic(V, V, weight_t) const { return false; }
  void prefetch_source(V u) const { asked->record(u); }
};

struct GatherSpy {
  using acc_t = double;
  static constexpr bool needs_weights = false;
  Asked* asked;
  acc_t zero() const { return 0; }
  acc_t gather(V, V, weight_t) const { return 1; }
  acc_t sum(acc_t a, acc_t b) const { return a + b; }
  double apply(V, acc_t) const { return 0; }
  void prefetch_source(V u) const { asked->record(u); }
};

// SSSP's key and relaxation, recording what each asks for.
struct KeySpy {
  DistanceBucket<double> key;
  Asked* asked;
  template <typename W>
  double operator()(W v) const { return key(v); }
  void prefetch(V v) const { asked->record(v); }
};
struct RelaxSpy : SsspRelax<V, double> {
  Asked* asked = nullptr;
  void prefetch(V v) const { asked->record(v); }
};

const Graph<V>& graph_of(const AnyGraph& any) { return std::get<Graph<V>>(any); }

// Every (first `limit`) neighbour in the lists of `from`'s vertices.
std::set<V> listed(const Csr<V>& csr, const std::vector<V>& from, eid_t limit = std::numeric_limits<eid_t>::max()) {
  std::set<V> out;
  for (V u : from)
    for (eid_t e = csr.offsets[u]; e < csr.offsets[u + 1] && e - csr.offsets[u] < limit; ++e) out.insert(csr.neighbors[e]);
  return out;
}
std::vector<V> every_vertex(uint64_t n) {
  std::vector<V> all(n);
  for (uint64_t v = 0; v < n; ++v) all[v] = static_cast<V>(v);
  return all;
}

// The engine asked for some lines, all of them in range and in `allowed`.
void expect_asked_within(const Asked& asked, const std::set<V>& allowed) {
  EXPECT_EQ(asked.out_of_range.load(), 0u);
  EXPECT_TRUE(asked.outside(allowed).empty());
  EXPECT_GT(asked.total(), 0u);
}
V largest_out_degree(const Graph<V>& graph) {
  const auto degree = [&](V v) { return graph.out.offsets[v + 1] - graph.out.offsets[v]; };
  V hub = 0;
  for (V v = 0; v < graph.num_vertices; ++v)
    if (degree(v) > degree(hub)) hub = v;
  return hub;
}
AnyGraph kron_large(Orientation orientation) {
  return build_variant(find_shape("kron_large").edges, orientation, false);
}

// A test's graph and the CPU engine over it, at the test's thread count.
struct EngineOnGraph {
  ThreadCount threads;
  AnyGraph any;
  const Graph<V>& graph;
  uint64_t n;
  CpuEngine<V> engine;
  EngineOnGraph(int thread_count, AnyGraph built)
      : threads(thread_count), any(std::move(built)), graph(graph_of(any)), n(graph.num_vertices), engine(graph) {}
};

class Lookahead : public ::testing::TestWithParam<int> {};  // threads

TEST_P(Lookahead, PushAsksOnlyForTargetsOfItsFrontier) {
  EngineOnGraph setup(GetParam(), kron_large(Orientation::kUndirected));
  [[maybe_unused]] auto& [threads, any, graph, n, engine] = setup;
  // Every vertex, then one hub alone (a sparse frontier).
  Asked all_asked(n);
  engine.edge_map(engine.all(), PushSpy{&all_asked}, EdgeMapOptions{Direction::kPush, false});
  expect_asked_within(all_asked, listed(graph.out, every_vertex(n)));
  const V hub = largest_out_degree(graph);
  Asked hub_asked(n);
  engine.edge_map(engine.single(hub), PushSpy{&hub_asked}, EdgeMapOptions{Direction::kPush, false});
  expect_asked_within(hub_asked, listed(graph.out, {hub}));
}

TEST_P(Lookahead, PullAsksOnlyForTheSourcesItWillRead) {
  EngineOnGraph setup(GetParam(), kron_large(Orientation::kDirected));
  [[maybe_unused]] auto& [threads, any, graph, n, engine] = setup;
  for (int32_t limit : {2, 1 << 30}) {
    Asked asked(n);
    engine.edge_map(engine.all(), PullSpy{&asked, limit}, EdgeMapOptions{Direction::kPull, false});
    SCOPED_TRACE("limit " + std::to_string(limit));
    expect_asked_within(asked, listed(graph.in, every_vertex(n), static_cast<eid_t>(limit)));
  }
}

TEST_P(Lookahead, GatherAsksOnlyForInNeighbours) {
  EngineOnGraph setup(GetParam(), kron_large(Orientation::kDirected));
  [[maybe_unused]] auto& [threads, any, graph, n, engine] = setup;
  Asked asked(n);
  engine.set_gather_segment_vertices(0);  // the plain pull's look-ahead (a segmented gather asks for nothing)
  engine.gather_apply(GatherSpy{&asked});
  expect_asked_within(asked, listed(graph.in, every_vertex(n)));
}

TEST_P(Lookahead, OrderedRelaxationAsksOnlyForReachedVertices) {
  EngineOnGraph setup(GetParam(), build_variant(with_weights(find_shape("kron_large").edges, all_weight_kinds().front(), 3),
                                        Orientation::kDirected, false));
  [[maybe_unused]] auto& [threads, any, graph, n, engine] = setup;
  auto dist = engine.make_array<double>(std::numeric_limits<double>::infinity());
  const V hub = largest_out_degree(graph);
  engine.set(dist, hub, 0.0);
  Asked key_asked(n), relax_asked(n);
  RelaxSpy relax;
  relax.dist = engine.data(dist);
  relax.asked = &relax_asked;
  engine.settle_in_order(engine.single(hub), KeySpy{{engine.data(dist), 0.5}, &key_asked}, relax);
  std::set<V> reached;
  for (V v = 0; v < n; ++v)
    if (dist[v] < std::numeric_limits<double>::infinity()) reached.insert(v);
  ASSERT_GT(reached.size(), 100u);
  expect_asked_within(key_asked, reached);
  expect_asked_within(relax_asked, reached);
}

INSTANTIATE_TEST_SUITE_P(Threads, Lookahead, ::testing::Values(1, 2, 4));

}  // namespace
}  // namespace tg::test
