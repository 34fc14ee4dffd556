// The GPU engine on its resident placements (device, uvm, zero-copy naive,
// merged, aligned) against the CPU engine and the verifiers: every algorithm
// of the registry x placement x vertex id width, on the support shapes in
// each orientation (directed with and without the CSC, undirected) from
// several sources, then the real graphs of the datasets folder and a
// generated Kronecker graph; then the budget, the placement choice and the
// accounting. Device allocations are poisoned (gpu_checks.h). Where no GPU
// is usable every test is skipped.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "engines/vertex_order.h"
#include "formats/load_graph.h"
#include "graph/weight_order.h"
#include "gpu/gpu_checks.h"
#include "support/datasets.h"
#include "support/reference.h"

namespace tg::test::gpu {
namespace {

const std::vector<Placement> kResident = {Placement::kDevice, Placement::kUvm, Placement::kZeroCopyNaive,
                                          Placement::kZeroCopyMerged, Placement::kZeroCopyAligned};

// The resident edge cache off: these tests read every edge where the
// placement keeps it (with the default budget the cache would hold the
// small graphs whole); edge_cache_test.cc tests the cache.
GpuOptions on(Placement p) {
  GpuOptions o;
  o.placement = p;
  o.edge_cache = EdgeCacheMode::kOff;
  return o;
}

// Runs the requests on one placement of the graph (a batch) and compares.
void check_batch(const AnyGraph& graph, const std::vector<RunRequest>& requests, Placement p, const std::string& what) {
  if (requests.empty()) return;
  std::vector<RunOutput> gpu = run_batch_on_gpu(graph, requests, on(p));
  expect_as_on_cpu(graph, requests, gpu, what);
  for (const RunOutput& out : gpu) {
    EXPECT_EQ(out.placement, p);
    const RunStats& st = out.stats;
    // Zero-copy reads every needed entry across the link, in whole sectors;
    // UVM moves a page once per run however often it is read.
    if (p == Placement::kZeroCopyNaive || p == Placement::kZeroCopyMerged || p == Placement::kZeroCopyAligned)
      EXPECT_GE(st.bytes_moved, st.bytes_needed);
    if (p == Placement::kUvm && st.edges_traversed > 0) EXPECT_GT(st.bytes_moved, 0u);
  }
}

// ---- the matrix: placement x id width x algorithm, over the shapes ----

using Param = std::tuple<Placement, bool, std::string>;

class GpuMatrix : public ::testing::TestWithParam<Param> {};

TEST_P(GpuMatrix, MatchesCpuOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const auto& [placement, ids64, name] = GetParam();
  const AlgorithmInfo& a = algorithm(name);
  uint64_t seed = 1;
  for (const std::string& shape : gpu_shapes())
    for (Orientation o : all_orientations()) {
      // A form that gathers over in-edges needs the CSC of a directed graph.
      if (o == Orientation::kDirectedNoCsc && a.reads({}).in_edges == Need::kYes) continue;
      AnyGraph graph = gpu_graph(shape, a, o, ids64);
      ASSERT_EQ(vertex_id_bytes(graph), ids64 ? 8 : 4);
      check_batch(graph, gpu_requests(graph, a, seed++), placement, shape + ", " + orientation_name(o));
    }
  // The deep shape tests many steps, not how lists are read: one placement
  // in GPU memory and one over the link, 32-bit ids (it was 70 of the
  // matrix's runs, most of the suite's time on the H100).
  if (!ids64 && (placement == Placement::kDevice || placement == Placement::kZeroCopyAligned)) {
    AnyGraph deep = gpu_graph(kDeepShape, a, Orientation::kUndirected, ids64);
    check_batch(deep, gpu_requests(deep, a, seed), placement, kDeepShape);
  }
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  std::string p(name_of(std::get<0>(info.param)));
  std::replace(p.begin(), p.end(), '-', '_');
  return std::get<2>(info.param) + "_" + p + (std::get<1>(info.param) ? "_v64" : "_v32");
}

INSTANTIATE_TEST_SUITE_P(AllPlacements, GpuMatrix,
                         ::testing::Combine(::testing::ValuesIn(kResident), ::testing::Bool(),
                                            ::testing::ValuesIn(algorithm_names())),
                         param_name);

// cc's Shiloach-Vishkin rounds (the matrix runs the default, sampled form).
TEST(GpuCc, ShiloachVishkinOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& cc = algorithm("cc");
  AlgorithmOptions sv;
  sv.cc_method = CcMethod::kShiloachVishkin;
  for (Placement p : kResident)
    for (const std::string& shape : gpu_shapes())
      for (Orientation o : all_orientations()) {
        AnyGraph graph = gpu_graph(shape, cc, o, false);
        check_batch(graph, gpu_requests(graph, cc, 1, sv), p, shape + ", " + orientation_name(o) + ", sv");
      }
}

// SSSP over lists ordered by weight (graph/weight_order.h): the resident
// placements walk a bucket's light edges and its heavy ones apart
// (settle_in_order_by_band, kernels/push.cuh's push_walk_band). The same
// distances as the CPU's on the shapes with several weight kinds, on every
// resident placement, and on kron:14 with the edge cache on too (heads and
// whole lists read by band); there, fewer edges relaxed than the same graph
// unordered takes (the generic loop), on every placement that walks bands.
TEST(GpuSsspBands, MatchCpuOnOrderedLists) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& sssp = algorithm("sssp");
  for (Placement p : kResident)
    for (const std::string& shape : gpu_shapes())
      for (Orientation o : {Orientation::kDirectedNoCsc, Orientation::kUndirected})
        for (WeightKind kind : {WeightKind::kInteger, WeightKind::kWithInf}) {
          const bool ids64 = p == Placement::kZeroCopyAligned && o == Orientation::kUndirected;
          AnyGraph graph = build_variant(with_weights(find_shape(shape).edges, kind, 9), o, ids64);
          order_lists_by_weight(graph);
          const std::string what = shape + ", " + orientation_name(o) + ", " + weight_kind_name(kind) + ", by weight" +
                                   (ids64 ? ", v64" : "");
          const std::vector<RunRequest> requests = gpu_requests(graph, sssp, 3);
          for (const RunRequest& r : requests)
            EXPECT_EQ(r.options.lists_by_weight, num_edges(graph) > 0) << what;
          check_batch(graph, requests, p, what);
        }
  LoadOptions lo;
  lo.build.random_weights = WeightRange{1, 255};
  const AnyGraph plain = load_graph("kron:14", lo);
  lo.lists_by_weight = true;
  const AnyGraph ordered = load_graph("kron:14", lo);
  const std::vector<RunRequest> by_weight = gpu_requests(ordered, sssp, 5), by_id = gpu_requests(plain, sssp, 5);
  ASSERT_EQ(by_weight.size(), by_id.size());
  for (Placement p : kResident) {
    for (EdgeCacheMode cache : {EdgeCacheMode::kOff, EdgeCacheMode::kAuto}) {
      GpuOptions options = on(p);
      options.edge_cache = cache;
      const std::vector<RunOutput> banded = run_batch_on_gpu(ordered, by_weight, options);
      expect_as_on_cpu(ordered, by_weight, banded, "kron:14 by weight, " + std::string(name_of(p)));
      // EMOGI's naive worker (a thread a list) reads whole lists: the generic loop there.
      if (cache != EdgeCacheMode::kOff || p == Placement::kZeroCopyNaive) continue;
      const std::vector<RunOutput> whole = run_batch_on_gpu(plain, by_id, options);
      uint64_t banded_edges = 0, whole_edges = 0;  // a source without out-edges relaxes none either way
      for (size_t i = 0; i < banded.size(); ++i) {
        EXPECT_LE(banded[i].stats.edges_traversed, whole[i].stats.edges_traversed) << name_of(p) << ", run " << i;
        banded_edges += banded[i].stats.edges_traversed;
        whole_edges += whole[i].stats.edges_traversed;
      }
      EXPECT_LT(banded_edges, whole_edges) << name_of(p);
    }
  }
}

// The gather in GPU memory sums lists of up to 8 entries a thread each, queues
// the longer ones, and sums those of up to 32 entries with eight lanes each,
// four lists a warp, the rest a warp each or in chunks (kernels/gather.cuh).
// In-lists whose lengths cycle through every case, so that each warp's four
// queued lists mix short and long ones: PageRank as on the CPU, every
// in-entry gathered once an iteration.
TEST(GpuGather, ShortAndLongListsShareAWarp) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const std::vector<uint64_t> lengths = {9, 2000, 12, 31, 0, 32, 33, 5, 17, 1025, 64, 8, 20, 1024, 10, 9, 3};
  const uint64_t n = 3000;
  EdgeList e;
  e.num_vertices = n;
  uint64_t next = 0;
  for (uint64_t v = 0; v < 400; ++v)
    for (uint64_t k = 0; k < lengths[v % lengths.size()]; ++k, ++next) {
      e.src.push_back((v * 7919 + next * 104729) % n);  // spread, so the values lie apart
      e.dst.push_back(v);
    }
  const AlgorithmInfo& pagerank = algorithm("pagerank");
  for (bool ids64 : {false, true}) {
    const AnyGraph graph = build_variant(e, Orientation::kDirected, ids64);
    const std::vector<RunRequest> requests = gpu_requests(graph, pagerank, 1);
    const std::vector<RunOutput> gpu = run_batch_on_gpu(graph, requests, on(Placement::kDevice));
    expect_as_on_cpu(graph, requests, gpu, ids64 ? "mixed lists, 64-bit ids" : "mixed lists");
    const uint64_t in_edges = num_in_edges(graph);
    for (const RunOutput& out : gpu) EXPECT_EQ(out.stats.edges_traversed, out.stats.iterations * in_edges);
  }
}

// ---- real graphs ----

struct Dataset {
  std::string file;
  bool weighted;  // whether the file has weights (else random ones are added)
};

std::vector<RunRequest> every_algorithm(const AnyGraph& graph, uint64_t seed) {
  std::vector<RunRequest> requests;
  for (const AlgorithmInfo* a : all_algorithms())
    for (const RunRequest& r : gpu_requests(graph, *a, seed)) requests.push_back(r);
  return requests;
}

TEST(GpuDatasets, MatchCpuOnRealGraphs) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const std::vector<Dataset> datasets = {{"karate.mtx", false},
                                         {"rome99.gr", true},
                                         {"wiki-Vote.el.gz", false},
                                         {"road-NY.el.gz", false},
                                         {"soc-Slashdot0902.el.gz", false}};
  int found = 0;
  for (const Dataset& d : datasets) {
    const std::string path = test::dataset(d.file);
    if (!std::ifstream(path)) continue;
    ++found;
    LoadOptions lo;
    lo.build.in_edges = true;
    if (!d.weighted) lo.build.random_weights = WeightRange{8, 72};
    AnyGraph graph = load_graph(path, lo);
    for (Placement p : {Placement::kDevice, Placement::kZeroCopyAligned, Placement::kUvm})
      check_batch(graph, every_algorithm(graph, 99), p, d.file);
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
    for (Placement p : kResident)
      check_batch(graph, every_algorithm(graph, 5), p, std::string("kron:14") + (ids64 ? " v64" : " v32"));
  }
}

// Runs on the graph renumbered hubs first (engines/vertex_order.h, `--vertex-order degree`), their outputs put
// back in the graph's ids: the CPU's results on the graph as built, on the placements in GPU memory and over the
// link, on the shapes and on kron:14 with its lists by weight too (SSSP's bands).
TEST(GpuVertexOrder, RenumberedRunsMatchCpuInTheGraphsOwnIds) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  auto check_renumbered = [](const AnyGraph& graph, const std::vector<RunRequest>& requests, Placement p,
                             const std::string& what) {
    if (requests.empty()) return;
    const Renumbering r = renumber(graph, VertexOrder::kDegree);
    std::vector<RunRequest> renumbered;
    for (const RunRequest& q : requests) renumbered.push_back(to_new_ids(q, r));
    std::vector<RunOutput> gpu = run_batch_on_gpu(r.graph, renumbered, on(p));
    for (size_t i = 0; i < gpu.size(); ++i) to_old_ids(gpu[i], *requests[i].algorithm, r);
    expect_as_on_cpu(graph, requests, gpu, what + ", renumbered");
  };
  for (Placement p : {Placement::kDevice, Placement::kZeroCopyAligned}) {
    uint64_t seed = 1;
    for (const AlgorithmInfo* a : all_algorithms())
      for (const std::string& shape : gpu_shapes())
        for (Orientation o : all_orientations()) {
          if (o == Orientation::kDirectedNoCsc && a->reads({}).in_edges == Need::kYes) continue;
          AnyGraph graph = gpu_graph(shape, *a, o, false);
          check_renumbered(graph, gpu_requests(graph, *a, seed++), p, shape + ", " + orientation_name(o));
        }
    for (bool by_weight : {false, true}) {
      LoadOptions lo;
      lo.build.random_weights = WeightRange{1, 255};
      lo.lists_by_weight = by_weight;
      AnyGraph graph = load_graph("kron:14", lo);
      check_renumbered(graph, every_algorithm(graph, 5), p, by_weight ? "kron:14 by weight" : "kron:14");
    }
  }
}

// ---- placements, budget and accounting ----

AnyGraph power_law(bool ids64 = false) {
  LoadOptions lo;
  lo.build.force_64bit_ids = ids64;
  lo.build.in_edges = true;
  return load_graph("kron:12", lo);
}

RunRequest bfs_from(const AnyGraph& g, uint64_t source) {
  return prepare_request(g, make_request(algorithm("bfs"), {source}));
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
  for (Placement p : {Placement::kDevice, Placement::kUvm}) {
    GpuOptions o = on(p);
    o.memory_budget = 1024;
    std::string message = error_of([&] { run_on_gpu(g, bfs_from(g, 0), o); });
    EXPECT_NE(message.find("budget"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(GpuPlacement, UvmRefusesMoreThanFreeMemory) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = power_law();
  GpuOptions o = on(Placement::kUvm);
  o.memory_budget = uint64_t{1} << 50;  // a budget far beyond the card: free memory still decides
  RunOutput out = run_on_gpu(g, bfs_from(g, 0), o);  // the small graph fits
  EXPECT_EQ(out.placement, Placement::kUvm);
}

TEST(GpuPlacement, AutoPicksDeviceWhenTheEdgesFitElseZeroCopy) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = power_law();
  GpuOptions o;
  EXPECT_EQ(run_on_gpu(g, bfs_from(g, 0), o).placement, Placement::kDevice);
  o.memory_budget = 1024;
  RunOutput out = run_on_gpu(g, bfs_from(g, 0), o);
  EXPECT_EQ(out.placement, Placement::kZeroCopyAligned);
  ASSERT_TRUE(out.stats.gpu.has_value());
  EXPECT_EQ(out.stats.gpu->budget_bytes, 1024u);
}

TEST(GpuAccounting, AlignedReadsNeedNoMoreRequestsThanMerged) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  for (bool ids64 : {false, true}) {
    AnyGraph g = power_law(ids64);
    RunRequest r = prepare_request(g, make_request(algorithm("pagerank")));
    std::map<Placement, RunStats> stats;
    for (Placement p : kResident) stats[p] = run_on_gpu(g, r, on(p)).stats;
    const uint64_t needed = stats[Placement::kZeroCopyAligned].bytes_needed;
    EXPECT_GT(needed, 0u);
    // The same work everywhere: PageRank reads every in-edge each iteration.
    for (auto& [p, s] : stats) EXPECT_EQ(s.bytes_needed, needed) << name_of(p);
    EXPECT_LE(stats[Placement::kZeroCopyAligned].link_requests, stats[Placement::kZeroCopyMerged].link_requests);
    EXPECT_GE(stats[Placement::kZeroCopyNaive].link_requests, stats[Placement::kZeroCopyMerged].link_requests);
    // Merged loads that straddle a sector boundary request that sector twice.
    EXPECT_LE(stats[Placement::kZeroCopyAligned].bytes_moved, stats[Placement::kZeroCopyMerged].bytes_moved);
    // The device placement moved the edge array once; UVM at least what it needed.
    EXPECT_EQ(stats[Placement::kDevice].bytes_moved, num_edges(g) * (ids64 ? 8u : 4u));
    EXPECT_GE(stats[Placement::kUvm].bytes_moved, num_edges(g) * (ids64 ? 8u : 4u));
  }
}

TEST(GpuAccounting, DirectionOptimizingBfsPullsOnPowerLawGraphs) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = power_law();
  RunOutput out = run_on_gpu(g, bfs_from(g, test_sources(g, 0, 1).at(1)), on(Placement::kDevice));
  EXPECT_GT(out.stats.pull_steps, 0u);
  EXPECT_GT(out.stats.push_steps, 0u);
  EXPECT_LT(out.stats.edges_traversed, num_edges(g));  // bottom-up stops early
}

// --push-only on every resident placement: no bottom-up step, the reference's
// depths, and every reached vertex's out-edges read top-down.
TEST(GpuAccounting, PushOnlyBfsNeverPulls) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = power_law();
  const uint64_t source = test_sources(g, 0, 1).at(1);
  AlgorithmOptions push_only;
  push_only.push_only = true;
  const RunRequest r = prepare_request(g, make_request(algorithm("bfs"), {source}, push_only));
  for (Placement p : kResident) {
    RunOutput out = run_on_gpu(g, r, on(p));
    EXPECT_EQ(out.stats.pull_steps, 0u) << name_of(p);
    EXPECT_GT(out.stats.push_steps, 0u) << name_of(p);
    EXPECT_EQ(to_std_vector(std::get<ResultVector<int32_t>>(out.values)), reference_bfs(g, source)) << name_of(p);
  }
}

}  // namespace
}  // namespace tg::test::gpu
