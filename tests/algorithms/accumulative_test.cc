// The accumulative (order-independent) forms that asynchronous engines run
// (AlgorithmOptions::accumulative), on the CPU engine, on every test shape:
// directed (with and without the CSC) and undirected, 32- and 64-bit ids,
// 1 and 2 threads, several sources. BFS and SSNSP must equal the reference
// exactly (SSNSP's depths too); PageRank must pass the verifier and lie
// close to the pull form and the reference. Then the same on a small engine
// that reads edges in Subway's asynchronous order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <limits>
#include <set>
#include <string>

#include "algorithms/bc.h"
#include "algorithms/bfs.h"
#include "algorithms/pagerank.h"
#include "algorithms/ssnsp.h"
#include "engines/cpu/cpu_engine.h"
#include "core/error.h"
#include "engines/run.h"
#include "support/algorithm_checks.h"
#include "support/reference.h"
#include "support/shapes.h"
#include "support/thread_count.h"

namespace tg::test {
namespace {

// Engines call begin only where they detect it (a non-const begin would be
// skipped without a word).
static_assert(HasBegin<SsnspCount<vid32_t>, vid32_t> && HasBegin<SsnspCount<vid64_t>, vid64_t>);
static_assert(HasBegin<PageRankPush<vid32_t>, vid32_t> && HasBegin<PageRankPush<vid64_t>, vid64_t>);
static_assert(!HasBegin<BfsStep<vid32_t>, vid32_t> && !HasBegin<SsnspStep<vid32_t>, vid32_t>);

AlgorithmOptions accumulative(double tolerance = 1e-6) {
  AlgorithmOptions o;
  o.accumulative = true;
  o.tolerance = tolerance;
  return o;
}

double l1_distance(std::span<const double> a, std::span<const double> b) {
  double sum = 0;
  for (size_t v = 0; v < a.size(); ++v) sum += std::fabs(a[v] - b[v]);
  return sum;
}

const ResultVector<double>& scores(const RunOutput& out) { return std::get<ResultVector<double>>(out.values); }

// The driver itself, for the depths that run_on_cpu does not return.
SsnspOutput ssnsp_on_cpu(const AnyGraph& any, uint64_t source, const AlgorithmOptions& options) {
  return std::visit(
      [&](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_t;
        CpuEngine<V> engine(g);
        return ssnsp(engine, static_cast<V>(source), options);
      },
      any);
}

// A sequential engine that reads edges in the order of Subway's asynchronous
// mode, the order the accumulative forms are for: the vertices are cut into
// units (id ranges); each step calls begin on its frontier, then takes the
// units in a shuffled order and pushes within each until none of its own
// vertices changes (begin before each inner push), frontier vertices and
// edges shuffled too. The step's output is every vertex any push reached.
template <typename V>
class OutOfOrderEngine {
 public:
  using vertex_t = V;
  template <typename T>
  using array_t = std::vector<T>;
  using Frontier = std::vector<V>;  // sorted, no repeats

  OutOfOrderEngine(const Graph<V>& g, int units, uint64_t seed) : g_(g), units_(units), rng_(seed) {}

  uint64_t num_vertices() const { return g_.num_vertices; }
  RunStats& stats() { return stats_; }
  const eid_t* out_offsets() const { return g_.out.offsets.data(); }
  template <typename T>
  std::vector<T> make_array(T init) { return std::vector<T>(g_.num_vertices, init); }
  template <typename T>
  void set(std::vector<T>& a, V v, T x) { a[v] = x; }
  template <typename T>
  T* data(std::vector<T>& a) { return a.data(); }
  template <typename Out = void, typename T>
  ResultVector<std::conditional_t<std::is_void_v<Out>, T, Out>> to_host(const std::vector<T>& a) const {
    return ResultVector<std::conditional_t<std::is_void_v<Out>, T, Out>>(a.begin(), a.end());
  }
  Frontier single(V v) { return {v}; }
  Frontier all() {
    Frontier f(g_.num_vertices);
    for (uint64_t v = 0; v < f.size(); ++v) f[v] = static_cast<V>(v);
    return f;
  }
  uint64_t size(const Frontier& f) const { return f.size(); }
  bool can_pull() const { return false; }
  template <typename F>
  double min_over(const Frontier& f, F fn) {
    double best = std::numeric_limits<double>::infinity();
    for (V v : f) best = std::min(best, static_cast<double>(fn(v)));
    return best;
  }
  template <typename F>
  void vertex_map(const Frontier& f, F fn) {
    for (V v : f) fn(v);
  }
  template <typename F>
  double vertex_sum(F fn) {
    double total = 0;
    for (uint64_t v = 0; v < g_.num_vertices; ++v) total += fn(static_cast<V>(v));
    return total;
  }
  template <typename Pred>
  Frontier filter(const Frontier& f, Pred pred) {
    Frontier out;
    for (V v : f)
      if (pred(v)) out.push_back(v);
    return out;
  }

  template <typename Op>
  Frontier edge_map(const Frontier& f, const Op& op, EdgeMapOptions options) {
    if (options.direction == Direction::kPull) throw Error("OutOfOrderEngine: no pull");
    if constexpr (HasBegin<Op, V>) vertex_map(f, [&op](V u) { op.begin(u); });
    std::vector<int> order(units_);
    for (int k = 0; k < units_; ++k) order[k] = k;
    std::shuffle(order.begin(), order.end(), rng_);
    std::vector<uint8_t> reached(g_.num_vertices, 0);
    for (int k : order) {
      const uint64_t lo = g_.num_vertices * k / units_, hi = g_.num_vertices * (k + 1) / units_;
      Frontier inner;
      for (V u : f)
        if (u >= lo && u < hi) inner.push_back(u);
      for (bool first = true; !inner.empty(); first = false) {
        if (!first)
          if constexpr (HasBegin<Op, V>) vertex_map(inner, [&op](V u) { op.begin(u); });
        std::shuffle(inner.begin(), inner.end(), rng_);
        std::set<V> next;
        for (V u : inner) {
          std::vector<eid_t> edges;
          for (eid_t e = g_.out.offsets[u]; e < g_.out.offsets[u + 1]; ++e) edges.push_back(e);
          std::shuffle(edges.begin(), edges.end(), rng_);
          for (eid_t e : edges) {
            V v = g_.out.neighbors[e];
            if (!op.cond(v) || !op.update_atomic(u, v, 1.0f)) continue;
            reached[v] = 1;
            if (v >= lo && v < hi) next.insert(v);
          }
        }
        inner.assign(next.begin(), next.end());
        stats_.iterations++;
      }
    }
    if (!options.output) return {};
    return filter(all(), [&](V v) { return reached[v] != 0; });
  }

 private:
  const Graph<V>& g_;
  int units_;
  std::mt19937_64 rng_;
  RunStats stats_;
};

// Equal below 2^53; above, sums in another grouping may round differently
// (undirected tied_layers reaches 4^30).
::testing::AssertionResult same_counts(std::span<const double> got, std::span<const double> want) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (size_t v = 0; v < got.size(); ++v) {
    bool exact = want[v] < 9007199254740992.0;
    if (exact ? got[v] != want[v] : !(std::fabs(got[v] - want[v]) <= 1e-12 * want[v]))
      return ::testing::AssertionFailure() << "vertex " << v << ": got " << got[v] << ", want " << want[v];
  }
  return ::testing::AssertionSuccess();
}

// The accumulative forms on OutOfOrderEngine equal the reference (BFS,
// SSNSP) or pass the verifier (PageRank).
TEST(Accumulative, OutOfOrderEngine) {
  uint64_t wrong_sync_bfs = 0;
  for (const char* name : {"kron_large", "kron_1", "tied_layers", "diamonds", "random_1", "grid", "big_star", "isolated"})
    for (Orientation o : {Orientation::kDirected, Orientation::kUndirected}) {
      SCOPED_TRACE(std::string(name) + ", " + orientation_name(o));
      AnyGraph any = build_variant(find_shape(name).edges, o, false);
      const Graph<vid32_t>& g = std::get<Graph<vid32_t>>(any);
      for (uint64_t source : test_sources(any, 2, 5)) {
        OutOfOrderEngine<vid32_t> engine(g, 3, source);
        const vid32_t s = static_cast<vid32_t>(source);
        EXPECT_EQ(bfs(engine, s, accumulative()), reference_bfs(any, source)) << "source " << source;
        SsnspOutput counts = ssnsp(engine, s, accumulative());
        EXPECT_EQ(counts.depth, reference_bfs(any, source)) << "source " << source;
        EXPECT_TRUE(same_counts(counts.paths, reference_ssnsp(any, source))) << "source " << source;
        const Sources one{source};
        EXPECT_TRUE(matches_reference(algorithm("bc"), any, one,
                                      bc(engine, one, accumulative()), accumulative()));
        // The synchronous operators are wrong here: the engine does reorder.
        if (bfs(engine, s, AlgorithmOptions{}) != reference_bfs(any, source)) wrong_sync_bfs++;
      }
      OutOfOrderEngine<vid32_t> engine(g, 3, 1);
      PageRankOutput pr = pagerank_accumulative(engine, accumulative());
      VertexValues scores = pr.score;
      EXPECT_TRUE(passes_verifier(algorithm("pagerank"), any, {}, scores, accumulative()));
      EXPECT_TRUE(matches_reference(algorithm("pagerank"), any, {}, scores, accumulative()));
    }
  EXPECT_GT(wrong_sync_bfs, 0u);
}

class AccumulativeTest : public ::testing::TestWithParam<std::string> {
 protected:
  const Shape& shape() const { return find_shape(GetParam()); }

  // f(graph, sources) on each orientation, ids 32/64 and
  // threads 1/2; as in shapes_test.cc, 2 threads take the first 3 sources.
  void for_variants(const std::function<void(const AnyGraph&, const std::vector<uint64_t>&)>& f, bool weights = false) {
    const EdgeList edges = weights ? with_weights(shape().edges, WeightKind::kInteger, 3) : shape().edges;
    const uint64_t source_seed = std::hash<std::string>{}(shape().name);
    struct Variant {
      bool ids64;
      int threads;
      size_t max_sources;
    };
    for (Orientation o : all_orientations())
      for (Variant variant : {Variant{false, 1, 99}, Variant{true, 1, 99}, Variant{true, 2, 3}}) {
        SCOPED_TRACE(std::string(orientation_name(o)) + ", " + (variant.ids64 ? "64" : "32") + "-bit ids, " +
                     std::to_string(variant.threads) + " threads");
        AnyGraph graph = build_variant(edges, o, variant.ids64);
        std::vector<uint64_t> sources = test_sources(graph, 2, source_seed);
        if (sources.size() > variant.max_sources) sources.resize(variant.max_sources);
        ThreadCount scope(variant.threads);
        f(graph, sources);
      }
  }
};

// Every algorithm of the registry that takes a source, in its accumulative
// form (the same as the synchronous one where none differs), against the
// reference and the verifier; with integer weights where it reads them.
TEST_P(AccumulativeTest, EverySourceAlgorithm) {
  for (const AlgorithmInfo* a : all_algorithms()) {
    if (!a->needs_source()) continue;
    SCOPED_TRACE(a->name());
    for_variants(
        [&](const AnyGraph& graph, const std::vector<uint64_t>& sources) {
          for (uint64_t source : sources) EXPECT_TRUE(runs_correctly(run_on_cpu, *a, graph, {source}, accumulative()));
          if (a->traits.sources == SourceUse::kMany && sources.size() > 1)
            EXPECT_TRUE(runs_correctly(run_on_cpu, *a, graph, sources, accumulative()));
        },
        a->needs_weights());
  }
}

TEST_P(AccumulativeTest, SsnspDepthsEqualTheSynchronousForm) {
  for_variants([&](const AnyGraph& graph, const std::vector<uint64_t>& sources) {
    for (uint64_t source : sources) {
      SsnspOutput got = ssnsp_on_cpu(graph, source, accumulative());
      SsnspOutput sync = ssnsp_on_cpu(graph, source, AlgorithmOptions{});
      EXPECT_EQ(got.depth, reference_bfs(graph, source)) << "source " << source;
      EXPECT_EQ(got.depth, sync.depth) << "source " << source;
      EXPECT_EQ(got.paths, sync.paths) << "source " << source;
    }
  });
}

// Checked at the default tolerance against the reference (L1 < 1e-4) and at
// a coarse and a fine one against the verifier; at each, the L1 distance to
// the pull form with the same options is a few tolerances at most (both lie
// within a few tolerances of the fixed point).
TEST_P(AccumulativeTest, PageRank) {
  for_variants([&](const AnyGraph& graph, const std::vector<uint64_t>&) {
    if (num_vertices(graph) == 0) return;
    EXPECT_TRUE(runs_correctly(run_on_cpu, algorithm("pagerank"), graph, {}, accumulative()));
    const bool can_pull = std::visit([](const auto& g) { return g.has_in_edges(); }, graph);
    for (double tolerance : {1e-3, 1e-6, 1e-9}) {
      RunRequest request = make_request(algorithm("pagerank"), {}, accumulative(tolerance));
      request.options.max_iters = 1000;  // so that the pull form converges too
      RunOutput push = run_on_cpu(graph, request);
      EXPECT_TRUE(passes_verifier(algorithm("pagerank"), graph, {}, push.values, request.options))
          << "tolerance " << tolerance;
      if (!can_pull) continue;
      request.options.accumulative = false;
      RunOutput pull = run_on_cpu(graph, request);
      EXPECT_LE(l1_distance(scores(push), scores(pull)), 10 * tolerance) << "tolerance " << tolerance;
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Shapes, AccumulativeTest, ::testing::ValuesIn(shape_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// A tolerance finer than doubles can reach stops at the step cap
// (100 * max_iters) and still sums to 1.
TEST(Accumulative, PageRankStepCap) {
  AnyGraph graph = build_variant(find_shape("kron_1").edges, Orientation::kDirected, false);
  RunRequest request = make_request(algorithm("pagerank"), {}, accumulative(0));
  request.options.max_iters = 3;
  RunOutput out = run_on_cpu(graph, request);
  EXPECT_EQ(out.stats.iterations, 300u);
  EXPECT_TRUE(passes_verifier(algorithm("pagerank"), graph, {}, out.values, request.options));
}

}  // namespace
}  // namespace tg::test
