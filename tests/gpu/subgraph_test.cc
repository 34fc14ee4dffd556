// The subgraph and stream placements (Subway, docs/SUBWAY.md) against the CPU
// engine and the verifiers: every algorithm x variant (subgraph with GPU or
// CPU gather, subgraph streaming every iteration, PT, PT-Opt, --async) x
// vertex id width, on small graphs of many shapes, each with a budget so
// small that SubCSRs are cut into many pieces, hub lists are split and the
// graph into many partitions, and with the default budget (one piece). The
// shapes give empty frontiers (a source without out-edges), one vertex, and
// every vertex (cc). Device allocations are poisoned (TG_GPU_POISON).
// Where no GPU is usable every test is skipped.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "algorithms/verifier.h"
#include "core/error.h"
#include "engines/run.h"
#include "formats/load_graph.h"
#include "graph/builder.h"

namespace tg {
namespace {

bool have_gpu() {
  static const bool ok = [] {
    setenv("TG_GPU_POISON", "1", 1);
    std::string reason;
    bool usable = gpu_available(&reason);
    if (!usable) std::fprintf(stderr, "GPU tests skipped: %s\n", reason.c_str());
    return usable;
  }();
  return ok;
}

struct Variant {
  std::string name;
  std::string placement;
  bool async = false;
  std::string stream_mode = "pt-opt";
  double threshold = 0.8;
  std::string gather = "auto";
  bool default_budget_too = false;  // also run with the default (large) budget
};

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {
      {"subgraph_gpu", "subgraph", false, "pt-opt", 0.8, "gpu", true},
      {"subgraph_cpu", "subgraph", false, "pt-opt", 0.8, "cpu", false},
      {"subgraph_always_stream", "subgraph", false, "pt-opt", 0.0, "auto", false},
      {"subgraph_async", "subgraph", true, "pt-opt", 0.8, "cpu", true},
      {"stream_pt", "stream", false, "pt", 0.8, "auto", false},
      {"stream_pt_opt", "stream", false, "pt-opt", 0.8, "auto", true},
      {"stream_async", "stream", true, "pt-opt", 0.8, "auto", false},
  };
  return v;
}

GpuOptions options_of(const Variant& v, uint64_t budget) {
  GpuOptions o;
  o.placement = v.placement;
  o.async = v.async;
  o.stream_mode = v.stream_mode;
  o.stream_threshold = v.threshold;
  o.gather = v.gather;
  o.memory_budget = budget;
  return o;
}

// ---- shapes ----

EdgeList edge_list(uint64_t n, bool directed, const std::vector<std::pair<uint64_t, uint64_t>>& edges) {
  EdgeList e;
  e.num_vertices = n;
  e.directed = directed;
  for (auto [u, v] : edges) {
    e.src.push_back(u);
    e.dst.push_back(v);
  }
  return e;
}

EdgeList rmat(int scale, int edge_factor, bool directed, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1);
  std::vector<std::pair<uint64_t, uint64_t>> edges;
  const uint64_t m = (uint64_t{1} << scale) * edge_factor;
  for (uint64_t i = 0; i < m; ++i) {
    uint64_t u = 0, v = 0;
    for (int b = 0; b < scale; ++b) {
      double r = coin(rng);
      int q = r < 0.57 ? 0 : r < 0.76 ? 1 : r < 0.95 ? 2 : 3;
      u = (u << 1) | (q >> 1);
      v = (v << 1) | (q & 1);
    }
    edges.emplace_back(u, v);
  }
  return edge_list(uint64_t{1} << scale, directed, edges);
}

struct Shape {
  std::string name;
  std::function<EdgeList()> edges;
};

std::vector<Shape> shapes() {
  std::vector<Shape> s;
  s.push_back({"single-vertex", [] { return edge_list(1, false, {}); }});
  s.push_back({"no-edges", [] { return edge_list(70, false, {}); }});
  s.push_back({"self-loops", [] { return edge_list(4, false, {{0, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 3}, {3, 3}}); }});
  s.push_back({"disconnected", [] {
                 return edge_list(40, false, {{0, 1}, {1, 2}, {2, 0}, {10, 11}, {11, 12}, {20, 21}, {30, 39}});
               }});
  s.push_back({"directed-cycle", [] {
                 std::vector<std::pair<uint64_t, uint64_t>> e;
                 for (uint64_t i = 0; i < 300; ++i) e.emplace_back(i, (i + 1) % 300);
                 e.emplace_back(5, 150);
                 e.emplace_back(200, 7);
                 return edge_list(310, true, e);
               }});
  s.push_back({"path", [] {
                 std::vector<std::pair<uint64_t, uint64_t>> e;
                 for (uint64_t i = 0; i + 1 < 700; ++i) e.emplace_back(i, i + 1);
                 return edge_list(700, false, e);
               }});
  s.push_back({"star", [] {  // a hub list far longer than a buffer: split pieces and partitions
                 std::vector<std::pair<uint64_t, uint64_t>> e;
                 for (uint64_t i = 1; i < 5000; ++i) e.emplace_back(0, i);
                 e.emplace_back(17, 4000);
                 return edge_list(5001, false, e);
               }});
  s.push_back({"grid", [] {
                 std::vector<std::pair<uint64_t, uint64_t>> e;
                 const uint64_t w = 30;
                 for (uint64_t r = 0; r < w; ++r)
                   for (uint64_t c = 0; c < w; ++c) {
                     if (c + 1 < w) e.emplace_back(r * w + c, r * w + c + 1);
                     if (r + 1 < w) e.emplace_back(r * w + c, (r + 1) * w + c);
                   }
                 return edge_list(w * w, false, e);
               }});
  s.push_back({"uniform", [] {
                 std::mt19937_64 rng(7);
                 std::vector<std::pair<uint64_t, uint64_t>> e;
                 for (int i = 0; i < 8000; ++i) e.emplace_back(rng() % 2000, rng() % 2000);
                 return edge_list(2000, false, e);
               }});
  s.push_back({"power-law", [] { return rmat(11, 8, false, 11); }});
  s.push_back({"power-law-directed", [] { return rmat(10, 8, true, 12); }});
  return s;
}

AnyGraph build(const Shape& shape, bool ids64) {
  BuildOptions o;
  o.in_edges = true;
  o.force_64bit_ids = ids64;
  o.random_weights = WeightRange{1, 255};
  return build_graph(shape.edges(), o);
}

// Vertex 0, a random vertex with out-edges, and a vertex without out-edges
// when there is one (an empty frontier after the first step).
std::vector<uint64_t> pick_sources(const AnyGraph& any, uint64_t seed) {
  return std::visit(
      [&](const auto& g) {
        std::vector<uint64_t> with_edges, without;
        for (uint64_t v = 0; v < g.num_vertices; ++v) (g.out.degree(v) > 0 ? with_edges : without).push_back(v);
        std::vector<uint64_t> sources = {0};
        std::mt19937_64 rng(seed);
        if (!with_edges.empty()) sources.push_back(with_edges[rng() % with_edges.size()]);
        if (!without.empty()) sources.push_back(without[rng() % without.size()]);
        return sources;
      },
      any);
}

template <typename T>
::testing::AssertionResult same_values(const std::vector<T>& gpu, const std::vector<T>& cpu, double rel) {
  if (gpu.size() != cpu.size()) return ::testing::AssertionFailure() << "size " << gpu.size() << " vs " << cpu.size();
  for (size_t i = 0; i < gpu.size(); ++i) {
    double a = static_cast<double>(gpu[i]), b = static_cast<double>(cpu[i]);
    if (a == b) continue;
    if (std::isfinite(a) && std::isfinite(b) && std::fabs(a - b) <= rel * std::fabs(b)) continue;
    return ::testing::AssertionFailure() << "vertex " << i << ": gpu " << a << ", cpu " << b;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult same_result(Algorithm a, const VertexValues& gpu, const VertexValues& cpu) {
  if (gpu.index() != cpu.index()) return ::testing::AssertionFailure() << "value types differ";
  switch (a) {
    case Algorithm::kBfs: return same_values(std::get<std::vector<int32_t>>(gpu), std::get<std::vector<int32_t>>(cpu), 0);
    case Algorithm::kCc: return same_values(std::get<std::vector<uint64_t>>(gpu), std::get<std::vector<uint64_t>>(cpu), 0);
    case Algorithm::kSswp: return same_values(std::get<std::vector<float>>(gpu), std::get<std::vector<float>>(cpu), 0);
    case Algorithm::kSssp:
    case Algorithm::kSsnsp:
      return same_values(std::get<std::vector<double>>(gpu), std::get<std::vector<double>>(cpu), 1e-9);
    case Algorithm::kPageRank: {
      // Pull (gather) form and the accumulative form of --async stop by
      // different rules; both are within the tolerance of the fixed point.
      const auto& g = std::get<std::vector<double>>(gpu);
      const auto& c = std::get<std::vector<double>>(cpu);
      if (g.size() != c.size()) return ::testing::AssertionFailure() << "size " << g.size() << " vs " << c.size();
      for (size_t i = 0; i < g.size(); ++i)
        if (!(std::fabs(g[i] - c[i]) <= 1e-5))
          return ::testing::AssertionFailure() << "vertex " << i << ": gpu " << g[i] << ", cpu " << c[i];
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure() << "unexpected algorithm";
}

// The edge-buffer budget that cuts these graphs finely: an eighth of the edge
// array, at least the PT-Opt minimum (8 slots of 64 edges of 12 bytes).
uint64_t tiny_budget(const AnyGraph& g) { return std::max<uint64_t>(8192, num_edges(g) * 12 / 8); }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

void check(const AnyGraph& graph, Algorithm algorithm, const Variant& v, uint64_t budget, uint64_t seed,
           const std::string& what) {
  std::vector<uint64_t> sources = needs_source(algorithm) ? pick_sources(graph, seed) : std::vector<uint64_t>{0};
  for (uint64_t source : sources) {
    RunRequest r;
    r.algorithm = algorithm;
    r.source = source;
    r = prepare_request(graph, r);
    SCOPED_TRACE(what + ", " + algorithm_name(algorithm) + " from " + std::to_string(source) + ", budget " +
                 std::to_string(budget));
    const GpuOptions o = options_of(v, budget);
    RunOutput gpu = run_on_gpu(graph, r, o);
    EXPECT_EQ(gpu.placement, v.placement);
    RunOutput cpu = run_on_cpu(graph, r);
    EXPECT_TRUE(same_result(algorithm, gpu.values, cpu.values));
    Verification ver = verify(algorithm, graph, source, gpu.values, r.options);
    EXPECT_TRUE(ver.ok) << ver.message;
    const RunStats& st = gpu.stats;
    // Every entry a kernel read was copied (or gathered) into device memory
    // first; --async reads loaded lists again without copying them.
    // PT-Opt keeps its first partitions resident (copied once, read often).
    // PageRank's gather (without --async) streams the in-edges on both
    // placements: PT for stream pt, otherwise PT-Opt.
    const bool gather = algorithm == Algorithm::kPageRank && !v.async;
    const bool pt = v.placement == "stream" && v.stream_mode == "pt";
    const bool resident = (v.placement == "stream" && v.stream_mode == "pt-opt") || (gather && !pt);
    if (!v.async && !resident) EXPECT_GE(st.bytes_moved, st.bytes_needed);
    ASSERT_TRUE(st.details.contains("subgraph"));
    const auto& sub = st.details["subgraph"];
    const uint64_t steps = gather ? st.iterations : st.push_steps;
    EXPECT_EQ(sub["bytes_copied"].get<uint64_t>(), st.bytes_moved);
    EXPECT_EQ(sub["outer_iterations"].get<uint64_t>(), steps);
    EXPECT_GE(sub["inner_iterations"].get<uint64_t>(), sub["units"].get<uint64_t>());
    EXPECT_EQ(st.pull_steps, 0u);
    if (v.placement == "stream" || gather) {
      EXPECT_EQ(sub["iterations_by_transfer"].value("stream", uint64_t{0}), steps);
    }
    if (pt && steps > 0) {
      // PT copies the whole edge array every iteration.
      EXPECT_EQ(st.bytes_moved % std::max<uint64_t>(1, num_edges(graph)), 0u);
    }
  }
}

using Param = std::tuple<size_t, bool, Algorithm>;
class SubwayMatrix : public ::testing::TestWithParam<Param> {};

TEST_P(SubwayMatrix, MatchesCpuOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const auto& [vi, ids64, algorithm] = GetParam();
  const Variant& v = variants()[vi];
  uint64_t seed = 1;
  for (const Shape& shape : shapes()) {
    AnyGraph graph = build(shape, ids64);
    ASSERT_EQ(vertex_id_bytes(graph), ids64 ? 8 : 4);
    check(graph, algorithm, v, tiny_budget(graph), seed, shape.name);
    if (v.default_budget_too) check(graph, algorithm, v, 0, seed, shape.name);
    ++seed;
  }
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  return std::string(algorithm_name(std::get<2>(info.param))) + "_" + variants()[std::get<0>(info.param)].name +
         (std::get<1>(info.param) ? "_v64" : "_v32");
}

INSTANTIATE_TEST_SUITE_P(Subway, SubwayMatrix,
                         ::testing::Combine(::testing::Range<size_t>(0, 7), ::testing::Bool(),
                                            ::testing::ValuesIn(all_algorithms())),
                         param_name);

TEST(SubwayKron, AllVariantsOnKron14) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  LoadOptions lo;
  lo.build.random_weights = WeightRange{1, 255};
  AnyGraph graph = load_graph("kron:14", lo);
  for (const Variant& v : variants())
    for (Algorithm a : {Algorithm::kBfs, Algorithm::kSssp, Algorithm::kCc, Algorithm::kSswp, Algorithm::kPageRank})
      check(graph, a, v, num_edges(graph) * 8 / 4, 3, "kron:14 " + v.name);  // a quarter of the edge bytes
}

TEST(SubwayErrors, OneLineRefusals) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = build(shapes().back(), false);
  RunRequest bfs;
  bfs.algorithm = Algorithm::kBfs;
  bfs = prepare_request(g, bfs);
  // --async elsewhere than subgraph / stream
  GpuOptions o;
  o.placement = "device";
  o.async = true;
  std::string e = error_of([&] { run_on_gpu(g, bfs, o); });
  EXPECT_NE(e.find("--async needs --placement subgraph or stream"), std::string::npos) << e;
  // a budget under the minimum names the option
  o = GpuOptions{};
  o.placement = "subgraph";
  o.memory_budget = 100;
  e = error_of([&] { run_on_gpu(g, bfs, o); });
  EXPECT_NE(e.find("--gpu-mem"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  o.placement = "stream";
  e = error_of([&] { run_on_gpu(g, bfs, o); });
  EXPECT_NE(e.find("--gpu-mem"), std::string::npos) << e;
  o = GpuOptions{};
  o.placement = "stream";
  o.stream_mode = "fast";
  e = error_of([&] { run_on_gpu(g, bfs, o); });
  EXPECT_NE(e.find("stream mode"), std::string::npos) << e;
}

TEST(SubwayAccounting, SubgraphMovesLessThanPtOnSparseFrontiers) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  LoadOptions lo;
  AnyGraph g = load_graph("kron:14", lo);
  RunRequest bfs;
  bfs.algorithm = Algorithm::kBfs;
  bfs = prepare_request(g, bfs);
  const uint64_t budget = num_edges(g) * 4 / 4;
  auto moved = [&](const Variant& v) { return run_on_gpu(g, bfs, options_of(v, budget)).stats.bytes_moved; };
  const uint64_t pt = moved(variants()[4]);
  const uint64_t opt = moved(variants()[5]);
  const uint64_t sub = moved(variants()[1]);  // cpu gather: exactly the active lists
  EXPECT_GT(pt, 0u);
  EXPECT_LE(opt, pt);
  EXPECT_LT(sub, pt);
}

}  // namespace
}  // namespace tg
