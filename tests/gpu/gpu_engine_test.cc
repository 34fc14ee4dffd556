// The GPU engine against the CPU engine and the verifiers: every algorithm x
// placement x vertex id width, on small graphs of many shapes (hubs longer
// than a chunk, long paths, self loops, multi-edges, directed graphs with
// their in-edges, isolated vertices) and random sources, then the real graphs
// of the datasets folder and a generated Kronecker graph. Device allocations
// are poisoned (TG_GPU_POISON) so that unwritten results cannot pass.
// Where no GPU is usable every test is skipped.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
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
#include "support/datasets.h"

namespace tg {
namespace {

const std::vector<std::string> kPlacements = {"device", "uvm", "zerocopy-naive", "zerocopy-merged",
                                              "zerocopy-aligned"};

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

// ---- graph shapes ----

struct Shape {
  std::string name;
  std::function<EdgeList()> edges;
};

EdgeList edge_list(uint64_t n, bool directed, const std::vector<std::pair<uint64_t, uint64_t>>& edges) {
  EdgeList el;
  el.num_vertices = n;
  el.directed = directed;
  el.name = "shape";
  for (auto [u, v] : edges) {
    el.src.push_back(u);
    el.dst.push_back(v);
  }
  return el;
}

// R-MAT edges with Graph500's parameters: a skewed, power-law degree graph.
EdgeList rmat(int scale, int edge_factor, bool directed, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uni(0, 1);
  std::vector<std::pair<uint64_t, uint64_t>> edges;
  const uint64_t m = (uint64_t{1} << scale) * edge_factor;
  for (uint64_t i = 0; i < m; ++i) {
    uint64_t u = 0, v = 0;
    for (int b = 0; b < scale; ++b) {
      double r = uni(rng);
      int q = r < 0.57 ? 0 : r < 0.76 ? 1 : r < 0.95 ? 2 : 3;
      u = (u << 1) | (q >> 1);
      v = (v << 1) | (q & 1);
    }
    edges.emplace_back(u, v);
  }
  return edge_list(uint64_t{1} << scale, directed, edges);
}

std::vector<Shape> shapes() {
  std::vector<Shape> s;
  s.push_back({"single-vertex", [] { return edge_list(1, false, {}); }});
  s.push_back({"self-loops", [] { return edge_list(4, false, {{0, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 3}, {3, 3}}); }});
  s.push_back({"multi-edges", [] {
                 return edge_list(5, false, {{0, 1}, {0, 1}, {0, 1}, {1, 2}, {2, 1}, {3, 4}, {3, 4}});
               }});
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
                 for (uint64_t i = 0; i + 1 < 1500; ++i) e.emplace_back(i, i + 1);
                 return edge_list(1500, false, e);
               }});
  s.push_back({"star", [] {  // a hub far longer than a chunk (1024 entries)
                 std::vector<std::pair<uint64_t, uint64_t>> e;
                 for (uint64_t i = 1; i < 5000; ++i) e.emplace_back(0, i);
                 e.emplace_back(17, 4000);
                 return edge_list(5001, false, e);
               }});
  s.push_back({"in-star-directed", [] {  // in-degree 4000 at vertex 3, pulled over
                 std::vector<std::pair<uint64_t, uint64_t>> e;
                 for (uint64_t i = 0; i < 4000; ++i)
                   if (i != 3) e.emplace_back(i, 3);
                 for (uint64_t i = 0; i + 1 < 4000; ++i) e.emplace_back(i, i + 1);
                 e.emplace_back(3, 0);
                 return edge_list(4001, true, e);
               }});
  s.push_back({"grid", [] {
                 std::vector<std::pair<uint64_t, uint64_t>> e;
                 const uint64_t w = 45;
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
                 for (int i = 0; i < 20000; ++i) e.emplace_back(rng() % 3000, rng() % 3000);
                 return edge_list(3000, false, e);
               }});
  s.push_back({"power-law", [] { return rmat(12, 16, false, 11); }});
  s.push_back({"power-law-directed", [] { return rmat(11, 8, true, 12); }});
  return s;
}

AnyGraph build(const Shape& shape, bool ids64) {
  BuildOptions o;
  o.in_edges = true;
  o.force_64bit_ids = ids64;
  o.random_weights = WeightRange{1, 255};
  return build_graph(shape.edges(), o);
}

// Sources: vertex 0 and two random vertices (with out-edges where any have).
std::vector<uint64_t> pick_sources(const AnyGraph& any, uint64_t seed) {
  return std::visit(
      [&](const auto& g) {
        std::vector<uint64_t> with_edges;
        for (uint64_t v = 0; v < g.num_vertices; ++v)
          if (g.out.degree(v) > 0) with_edges.push_back(v);
        std::vector<uint64_t> sources = {0};
        std::mt19937_64 rng(seed);
        for (int i = 0; i < 2; ++i)
          sources.push_back(with_edges.empty() ? rng() % g.num_vertices : with_edges[rng() % with_edges.size()]);
        return sources;
      },
      any);
}

// ---- comparing results ----

template <typename T>
::testing::AssertionResult same_values(const std::vector<T>& gpu, const std::vector<T>& cpu, double rel, double abs) {
  if (gpu.size() != cpu.size())
    return ::testing::AssertionFailure() << "size " << gpu.size() << " vs " << cpu.size();
  for (size_t i = 0; i < gpu.size(); ++i) {
    double a = static_cast<double>(gpu[i]), b = static_cast<double>(cpu[i]);
    if (a == b) continue;
    if (std::isfinite(a) && std::isfinite(b) && std::fabs(a - b) <= abs + rel * std::fabs(b)) continue;
    return ::testing::AssertionFailure() << "vertex " << i << ": gpu " << a << ", cpu " << b;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult same_result(Algorithm a, const VertexValues& gpu, const VertexValues& cpu) {
  if (gpu.index() != cpu.index()) return ::testing::AssertionFailure() << "value types differ";
  switch (a) {
    case Algorithm::kBfs: return same_values(std::get<std::vector<int32_t>>(gpu), std::get<std::vector<int32_t>>(cpu), 0, 0);
    case Algorithm::kCc: return same_values(std::get<std::vector<uint64_t>>(gpu), std::get<std::vector<uint64_t>>(cpu), 0, 0);
    case Algorithm::kSswp: return same_values(std::get<std::vector<float>>(gpu), std::get<std::vector<float>>(cpu), 0, 0);
    case Algorithm::kSssp:
    case Algorithm::kSsnsp:
      return same_values(std::get<std::vector<double>>(gpu), std::get<std::vector<double>>(cpu), 1e-9, 0);
    case Algorithm::kPageRank:
      return same_values(std::get<std::vector<double>>(gpu), std::get<std::vector<double>>(cpu), 0, 2e-6);
  }
  return ::testing::AssertionFailure() << "unknown algorithm";
}

std::vector<RunRequest> requests_for(const AnyGraph& graph, Algorithm algorithm, uint64_t seed) {
  std::vector<RunRequest> out;
  std::vector<uint64_t> sources = needs_source(algorithm) ? pick_sources(graph, seed) : std::vector<uint64_t>{0};
  for (uint64_t s : sources) {
    RunRequest r;
    r.algorithm = algorithm;
    r.source = s;
    out.push_back(prepare_request(graph, r));
  }
  return out;
}

// Runs the requests on the GPU (one batch: one placement of the graph) and on
// the CPU, and compares them with each other and with the verifier.
void check_against_cpu(const AnyGraph& graph, const std::vector<RunRequest>& requests, const std::string& placement,
                       const std::string& what) {
  GpuOptions options;
  options.placement = placement;
  std::vector<RunOutput> gpu = run_batch_on_gpu(graph, requests, options);
  ASSERT_EQ(gpu.size(), requests.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    const RunRequest& r = requests[i];
    SCOPED_TRACE(what + ", " + algorithm_name(r.algorithm) + " from " + std::to_string(r.source));
    EXPECT_EQ(gpu[i].engine, "gpu");
    EXPECT_EQ(gpu[i].placement, placement);
    RunOutput cpu = run_on_cpu(graph, r);
    EXPECT_TRUE(same_result(r.algorithm, gpu[i].values, cpu.values));
    Verification v = verify(r.algorithm, graph, r.source, gpu[i].values, r.options);
    EXPECT_TRUE(v.ok) << v.message;
    const RunStats& st = gpu[i].stats;
    EXPECT_GT(st.phase("compute"), 0.0);
    // Zero-copy reads every needed entry across the link, in whole sectors;
    // UVM moves a page once per run however often it is read.
    if (placement.rfind("zerocopy", 0) == 0) EXPECT_GE(st.bytes_moved, st.bytes_needed);
    if (placement == "uvm" && st.edges_traversed > 0) EXPECT_GT(st.bytes_moved, 0u);
  }
}

// ---- the matrix: placement x id width x algorithm, over every shape ----

using Param = std::tuple<std::string, bool, Algorithm>;

class GpuMatrix : public ::testing::TestWithParam<Param> {};

TEST_P(GpuMatrix, MatchesCpuOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const auto& [placement, ids64, algorithm] = GetParam();
  uint64_t seed = 1;
  for (const Shape& shape : shapes()) {
    AnyGraph graph = build(shape, ids64);
    ASSERT_EQ(vertex_id_bytes(graph), ids64 ? 8 : 4);
    check_against_cpu(graph, requests_for(graph, algorithm, seed++), placement, shape.name);
  }
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  std::string p = std::get<0>(info.param);
  std::replace(p.begin(), p.end(), '-', '_');
  return std::string(algorithm_name(std::get<2>(info.param))) + "_" + p + (std::get<1>(info.param) ? "_v64" : "_v32");
}

INSTANTIATE_TEST_SUITE_P(AllPlacements, GpuMatrix,
                         ::testing::Combine(::testing::ValuesIn(kPlacements), ::testing::Bool(),
                                            ::testing::ValuesIn(all_algorithms())),
                         param_name);

// ---- real graphs ----

struct Dataset {
  std::string file;
  bool weighted;  // whether the file has weights (else random ones are added)
};

TEST(GpuDatasets, MatchCpuOnRealGraphs) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const std::vector<Dataset> datasets = {{"karate.mtx", false},
                                         {"rome99.gr", true},
                                         {"wiki-Vote.el.gz", false},
                                         {"road-NY.el.gz", false},
                                         {"soc-Slashdot0902.el.gz", false}};
  int found = 0;
  for (const Dataset& d : datasets) {
    // TG_DATASETS_DIR at run time wins (binaries built elsewhere and carried to the GPU machine).
    const char* dir = std::getenv("TG_DATASETS_DIR");
    std::string path = dir != nullptr && dir[0] != '\0' ? std::string(dir) + "/" + d.file : test::dataset(d.file);
    if (!std::ifstream(path)) continue;
    ++found;
    LoadOptions lo;
    lo.build.in_edges = true;
    if (!d.weighted) lo.build.random_weights = WeightRange{8, 72};
    AnyGraph graph = load_graph(path, lo);
    for (const std::string& placement : {std::string("device"), std::string("zerocopy-aligned"), std::string("uvm")}) {
      std::vector<RunRequest> requests;
      for (Algorithm a : all_algorithms())
        for (const RunRequest& r : requests_for(graph, a, 99)) requests.push_back(r);
      check_against_cpu(graph, requests, placement, d.file);
    }
  }
  if (found == 0) GTEST_SKIP() << "no dataset found under " << test::dataset("");
}

TEST(GpuDatasets, KroneckerAllPlacementsBothWidths) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  for (bool ids64 : {false, true}) {
    LoadOptions lo;
    lo.build.force_64bit_ids = ids64;
    lo.build.random_weights = WeightRange{1, 255};
    AnyGraph graph = load_graph("kron:14", lo);
    for (const std::string& placement : kPlacements) {
      std::vector<RunRequest> requests;
      for (Algorithm a : all_algorithms())
        for (const RunRequest& r : requests_for(graph, a, 5)) requests.push_back(r);
      check_against_cpu(graph, requests, placement, std::string("kron:14") + (ids64 ? " v64" : " v32"));
    }
  }
}

// ---- placements, budget and accounting ----

AnyGraph power_law(bool ids64 = false) {
  return build(Shape{"power-law", [] { return rmat(12, 16, false, 11); }}, ids64);
}

RunRequest bfs_from(const AnyGraph& g, uint64_t source) {
  RunRequest r;
  r.algorithm = Algorithm::kBfs;
  r.source = source;
  return prepare_request(g, r);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(GpuPlacement, DeviceAndUvmRefuseBeyondTheBudget) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = power_law();
  for (std::string placement : {"device", "uvm"}) {
    GpuOptions o;
    o.placement = placement;
    o.memory_budget = 1024;
    std::string message = error_of([&] { run_on_gpu(g, bfs_from(g, 0), o); });
    EXPECT_NE(message.find("budget"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(GpuPlacement, UvmRefusesMoreThanFreeMemory) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = power_law();
  GpuOptions o;
  o.placement = "uvm";
  o.memory_budget = uint64_t{1} << 50;  // a budget far beyond the card: free memory still decides
  RunOutput out = run_on_gpu(g, bfs_from(g, 0), o);  // the small graph fits
  EXPECT_EQ(out.placement, "uvm");
}

TEST(GpuPlacement, UnknownPlacementIsAnError) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = power_law();
  GpuOptions o;
  o.placement = "floppy";
  std::string message = error_of([&] { run_on_gpu(g, bfs_from(g, 0), o); });
  EXPECT_NE(message.find("unknown placement"), std::string::npos) << message;
}

TEST(GpuPlacement, AutoPicksDeviceWhenTheEdgesFitElseZeroCopy) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = power_law();
  GpuOptions o;
  EXPECT_EQ(run_on_gpu(g, bfs_from(g, 0), o).placement, "device");
  o.memory_budget = 1024;
  RunOutput out = run_on_gpu(g, bfs_from(g, 0), o);
  EXPECT_EQ(out.placement, "zerocopy-aligned");
  EXPECT_EQ(out.stats.details.value("placement", ""), "zerocopy-aligned");
}

TEST(GpuAccounting, AlignedReadsNeedNoMoreRequestsThanMerged) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  for (bool ids64 : {false, true}) {
    AnyGraph g = power_law(ids64);
    RunRequest r;
    r.algorithm = Algorithm::kPageRank;
    r = prepare_request(g, r);
    std::map<std::string, RunStats> stats;
    for (std::string p : {"zerocopy-naive", "zerocopy-merged", "zerocopy-aligned", "device", "uvm"}) {
      GpuOptions o;
      o.placement = p;
      stats[p] = run_on_gpu(g, r, o).stats;
    }
    const uint64_t needed = stats["zerocopy-aligned"].bytes_needed;
    EXPECT_GT(needed, 0u);
    // The same work everywhere: PageRank reads every in-edge each iteration.
    for (auto& [p, s] : stats) EXPECT_EQ(s.bytes_needed, needed) << p;
    EXPECT_LE(stats["zerocopy-aligned"].details["link_requests"].get<uint64_t>(),
              stats["zerocopy-merged"].details["link_requests"].get<uint64_t>());
    EXPECT_GE(stats["zerocopy-naive"].details["link_requests"].get<uint64_t>(),
              stats["zerocopy-merged"].details["link_requests"].get<uint64_t>());
    // Merged loads that straddle a sector boundary request that sector twice.
    EXPECT_LE(stats["zerocopy-aligned"].bytes_moved, stats["zerocopy-merged"].bytes_moved);
    // The device placement moved the edge array once; UVM at least what it needed.
    EXPECT_EQ(stats["device"].bytes_moved, num_edges(g) * (ids64 ? 8u : 4u));
    EXPECT_GE(stats["uvm"].bytes_moved, num_edges(g) * (ids64 ? 8u : 4u));
  }
}

TEST(GpuAccounting, DirectionOptimizingBfsPullsOnPowerLawGraphs) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = power_law();
  GpuOptions o;
  o.placement = "device";
  RunOutput out = run_on_gpu(g, bfs_from(g, pick_sources(g, 3)[1]), o);
  EXPECT_GT(out.stats.pull_steps, 0u);
  EXPECT_GT(out.stats.push_steps, 0u);
  EXPECT_LT(out.stats.edges_traversed, num_edges(g));  // bottom-up stops early
}

}  // namespace
}  // namespace tg
