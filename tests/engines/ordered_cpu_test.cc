// The CPU engine's own ordered relaxation (engines/cpu/cpu_ordered.h: bins per
// thread, bucket fusion, a window with overflow) against the contract's loop
// over FrontierBuckets that every other engine runs: SSSP and SSWP on every
// shape, every weight kind, 1, 2 and 4 threads, with the automatic width, a
// width so small that keys leave the window (the overflow lists), and one so
// large that everything is one bucket. Both must equal the reference.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <tuple>

#include "algorithms/registry.h"
#include "checkpoint/checkpoint.h"
#include "engines/cpu/cpu_engine.h"
#include "support/algorithm_checks.h"
#include "support/shapes.h"
#include "support/thread_count.h"

namespace tg::test {
namespace {

// The CPU engine without its own settle_in_order: the algorithm runs the
// contract's loop over FrontierBuckets, as the GPU engine does.
template <typename V>
class CpuEngineWithGenericOrder : public CpuEngine<V> {
 public:
  using CpuEngine<V>::CpuEngine;
  template <typename Key, typename Relax>
  void settle_in_order(const typename CpuEngine<V>::Frontier&, Key, const Relax&) = delete;
};

// The test compares two loops only if the engine's own is the one taken.
template <typename E>
constexpr bool has_own_order = requires(E& engine, typename E::Frontier f) {
  engine.settle_in_order(f, DistanceBucket<>{}, SsspRelax<vid32_t>{});
};
static_assert(has_own_order<CpuEngine<vid32_t>> && !has_own_order<CpuEngineWithGenericOrder<vid32_t>>);

template <template <typename> class E>
VertexValues run_with(const AnyGraph& any, const RunRequest& request) {
  return std::visit(
      [&](const auto& graph) {
        using V = typename std::decay_t<decltype(graph)>::vertex_t;
        E<V> engine(graph);
        return run_algorithm(engine, *request.algorithm, request.sources, request.options);
      },
      any);
}

using Param = std::tuple<std::string, std::string>;  // shape, algorithm

class OrderedRelaxation : public ::testing::TestWithParam<Param> {};

TEST_P(OrderedRelaxation, OwnLoopAndGenericLoopMatchReference) {
  const Shape& shape = find_shape(std::get<0>(GetParam()));
  const AlgorithmInfo& algo = algorithm(std::get<1>(GetParam()));
  uint64_t seed = 7;
  for (WeightKind kind : all_weight_kinds()) {
    const AnyGraph graph = build_variant(with_weights(shape.edges, kind, seed++), Orientation::kDirected, false);
    if (num_vertices(graph) == 0) continue;
    for (uint64_t source : test_sources(graph, 1, seed)) {
      for (double delta : {0.0, 0.01, 1e9}) {
        // 4 threads on a 2-core machine too: more threads than cores
        // interleave the rounds' votes and barriers in more ways.
        for (int threads : {1, 2, 4}) {
          ThreadCount scope(threads);
          RunRequest request;
          request.algorithm = &algo;
          request.sources = {source};
          request.options.delta = delta;
          request = prepare_request(graph, request);
          SCOPED_TRACE(std::string(weight_kind_name(kind)) + ", source " + std::to_string(source) + ", delta " +
                       std::to_string(delta) + ", " + std::to_string(threads) + " threads");
          const VertexValues own = run_with<CpuEngine>(graph, request);
          const VertexValues generic = run_with<CpuEngineWithGenericOrder>(graph, request);
          EXPECT_TRUE(matches_reference(algo, graph, request.sources, own, request.options)) << "own loop";
          EXPECT_TRUE(matches_reference(algo, graph, request.sources, generic, request.options)) << "generic loop";
        }
      }
    }
  }
}

// With a checkpointer the CPU engine's own loop stops each time the buckets
// to the next checkpoint are settled, every thread together, and goes on
// from the waiting vertices the values name; a run resumed from the last
// checkpoint goes on the same way. Both end at the reference, on 1, 2 and 4
// threads, a checkpoint every bucket or every third.
TEST_P(OrderedRelaxation, CheckpointedOwnLoopStopsAndGoesOn) {
  const Shape& shape = find_shape(std::get<0>(GetParam()));
  const AlgorithmInfo& algo = algorithm(std::get<1>(GetParam()));
  const AnyGraph graph =
      build_variant(with_weights(shape.edges, WeightKind::kInteger, 11), Orientation::kDirected, false);
  if (num_vertices(graph) == 0) return;
  const CheckpointKey key = checkpoint_key(graph, algo.name(), "ordered test", true);
  for (uint64_t source : test_sources(graph, 1, 13)) {
    for (int every : {1, 3}) {
      for (int threads : {1, 2, 4}) {
        ThreadCount scope(threads);
        // A folder of this test's own: ctest runs the shapes' tests side by side.
        const std::string dir = ::testing::TempDir() + "/tg_ordered_checkpoint_" + std::get<0>(GetParam()) + "_" +
                                std::get<1>(GetParam()) + "_" + std::to_string(::getpid()) + "_" + std::to_string(every);
        std::filesystem::remove_all(dir);
        const Checkpointer saving(dir, every, false, key), resuming(dir, every, true, key);
        RunRequest request;
        request.algorithm = &algo;
        request.sources = {source};
        request = prepare_request(graph, request);
        SCOPED_TRACE("source " + std::to_string(source) + ", every " + std::to_string(every) + ", " +
                     std::to_string(threads) + " threads");
        RunRequest saved = request, resumed = request;
        saved.options.checkpoint = &saving;
        EXPECT_TRUE(matches_reference(algo, graph, request.sources, run_with<CpuEngine>(graph, saved), request.options))
            << "saving";
        if (std::filesystem::exists(dir + "/checkpoint.tgc")) {  // none where the run had fewer buckets
          resumed.options.checkpoint = &resuming;
          EXPECT_TRUE(
              matches_reference(algo, graph, request.sources, run_with<CpuEngine>(graph, resumed), request.options))
              << "resumed";
        }
        std::filesystem::remove_all(dir);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, OrderedRelaxation,
                         ::testing::Combine(::testing::ValuesIn(shape_names()), ::testing::Values("sssp", "sswp")),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param);
                         });

}  // namespace
}  // namespace tg::test
