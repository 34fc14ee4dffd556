// cc's two ways of linking (cc.h): the sampled form (Afforest's sample, then
// only the edges outside the largest component) and Shiloach-Vishkin rounds,
// on every shape, orientation and id width, against the reference and the
// verifier; what the sampled form reads; and the sampled form by pushes,
// where the engine cannot pull (the GPU's streamed placements).
#include <gtest/gtest.h>

#include <string>

#include "algorithms/cc.h"
#include "core/error.h"
#include "engines/cpu/cpu_engine.h"
#include "engines/run.h"
#include "support/algorithm_checks.h"
#include "support/shapes.h"
#include "support/thread_count.h"

namespace tg::test {
namespace {

class CcMethods : public ::testing::TestWithParam<CcMethod> {};

TEST_P(CcMethods, MatchReferenceOnEveryShape) {
  AlgorithmOptions options;
  options.cc_method = GetParam();
  for (const std::string& name : shape_names())
    for (Orientation o : all_orientations())
      for (bool ids64 : {false, true}) {
        SCOPED_TRACE(name + ", " + orientation_name(o) + (ids64 ? ", 64-bit ids" : ""));
        AnyGraph graph = build_variant(find_shape(name).edges, o, ids64);
        for (int threads : {1, 2}) {
          ThreadCount scope(threads);
          EXPECT_TRUE(runs_correctly(run_on_cpu, algorithm("cc"), graph, {}, options)) << threads << " threads";
        }
      }
}

INSTANTIATE_TEST_SUITE_P(Cc, CcMethods, ::testing::Values(CcMethod::kSampled, CcMethod::kShiloachVishkin),
                         [](const ::testing::TestParamInfo<CcMethod>& info) {
                           return std::string(info.param == CcMethod::kSampled ? "sampled" : "sv");
                         });

// On a graph with one large component the sampled form reads a small part of
// the edges: two per vertex, and the lists of the vertices left outside.
TEST(CcSampled, ReadsFewEdgesWhereOneComponentDominates) {
  AnyGraph graph = build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false);
  RunRequest r = prepare_request(graph, make_request(algorithm("cc")));
  RunOutput sampled = run_on_cpu(graph, r);
  r.options.cc_method = CcMethod::kShiloachVishkin;
  RunOutput sv = run_on_cpu(graph, r);
  EXPECT_LT(sampled.stats.edges_traversed * 4, sv.stats.edges_traversed);
  EXPECT_LE(sampled.stats.edges_traversed, 2 * num_vertices(graph) + num_edges(graph) / 4);
  EXPECT_TRUE(agrees(algorithm("cc"), sampled.values, sv.values));
}

// What an engine that honours the list_limit hint on a push applies: the
// edges to the first `limit` entries of u's list (a target listed there and
// again later is applied twice, which a link allows).
template <typename V, typename Op>
struct HeadsOnly {
  static constexpr bool needs_weights = false;
  Op op;
  const Graph<V>* g;
  bool heads(V u, V v) const {
    const eid_t b = g->out.offsets[u], e = list_end(b, g->out.offsets[u + 1], list_limit(op));
    for (eid_t j = b; j < e; ++j)
      if (g->out.neighbors[j] == v) return true;
    return false;
  }
  bool cond(V v) const { return op.cond(v); }
  bool update(V u, V v, weight_t w) const { return heads(u, v) && op.update(u, v, w); }
  bool update_atomic(V u, V v, weight_t w) const { return heads(u, v) && op.update_atomic(u, v, w); }
};

// The CPU engine as the GPU's streamed placements are: no pull steps, and
// pushes that read only a list's heads under the list_limit hint.
template <typename V>
class PushOnlyCpuEngine : public CpuEngine<V> {
 public:
  using Frontier = typename CpuEngine<V>::Frontier;
  explicit PushOnlyCpuEngine(const Graph<V>& g) : CpuEngine<V>(g), g_(g) {}
  bool can_pull() const { return false; }
  template <typename Op>
  Frontier edge_map(const Frontier& f, const Op& op, EdgeMapOptions options = {}) {
    if (options.direction != Direction::kPush) throw Error("PushOnlyCpuEngine: a step that is not a push");
    ++pushes;
    if constexpr (requires { op.list_limit(); })
      return CpuEngine<V>::edge_map(f, HeadsOnly<V, Op>{op, &g_}, options);
    else
      return CpuEngine<V>::edge_map(f, op, options);
  }
  int pushes = 0;

 private:
  const Graph<V>& g_;
};

// Where the engine cannot pull, a symmetric graph takes the sampled form by
// pushes (the heads, then the lists outside the largest component: two
// steps), and a directed one links every edge once (one step).
TEST(CcSampled, ByPushesWhereTheEngineCannotPull) {
  int sampled = 0;
  for (const std::string& name : shape_names())
    for (Orientation o : all_orientations())
      for (bool ids64 : {false, true}) {
        SCOPED_TRACE(name + ", " + orientation_name(o) + (ids64 ? ", 64-bit ids" : ""));
        AnyGraph graph = build_variant(find_shape(name).edges, o, ids64);
        std::visit(
            [&](const auto& g) {
              using V = typename std::decay_t<decltype(g)>::vertex_t;
              PushOnlyCpuEngine<V> engine(g);
              const ResultVector<uint64_t> label = cc(engine, AlgorithmOptions{});
              EXPECT_TRUE(matches_reference(algorithm("cc"), graph, {}, VertexValues(label), AlgorithmOptions{}));
              if (g.num_vertices == 0) return;
              const bool symmetric = o == Orientation::kUndirected;
              EXPECT_EQ(engine.pushes, symmetric ? 2 : 1);
              EXPECT_EQ(engine.stats().iterations, symmetric ? 2u : 1u);
              sampled += symmetric;
            },
            graph);
      }
  EXPECT_GT(sampled, 20);
}

}  // namespace
}  // namespace tg::test
