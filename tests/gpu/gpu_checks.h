// What the GPU tests share: whether a GPU is usable (poisoning every device
// allocation first, so that unwritten results cannot pass), the graphs they
// run on (the shapes of tests/support, built the ways the algorithms read
// them) and the check of a batch of GPU runs against the CPU engine, the
// registry's agreement and the verifier.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "algorithms/verifier.h"
#include "engines/run.h"
#include "support/algorithm_checks.h"
#include "support/shapes.h"

namespace tg::test::gpu {

// The entries of the in-lists a gather reads (the CSC, or the lists themselves where undirected).
inline uint64_t num_in_edges(const AnyGraph& graph) {
  return std::visit([](const auto& g) { return uint64_t(g.in_edges().num_edges()); }, graph);
}

inline bool have_gpu() {
  static const bool ok = [] {
    setenv("TG_GPU_POISON", "1", 1);
    std::string reason;
    bool usable = gpu_available(&reason);
    if (!usable) std::fprintf(stderr, "GPU tests skipped: %s\n", reason.c_str());
    return usable;
  }();
  return ok;
}

// The support shapes the GPU matrices run on: empty frontiers, one vertex,
// self loops and duplicates, components, ties (many shortest paths, counts
// beyond 2^53), hubs and in-hubs longer than a chunk (1024 entries), random
// and power-law graphs from the generators. long_path (1500 levels, each a
// few launches and copies) runs in one orientation only: it alone took most
// of the GPU tests' time in three.
inline const std::vector<std::string>& gpu_shapes() {
  static const std::vector<std::string> names = {
      "no_edges", "single_vertex", "loops_and_duplicates", "pieces", "isolated", "path",     "tied_layers",
      "diamonds", "grid",          "star_out",             "big_star", "big_star_in", "random_1", "dag",
      "urand_1",  "kron_large"};
  return names;
}
inline constexpr const char* kDeepShape = "long_path";

// A shape as the algorithm reads it: with integer weights where it reads
// weights, in one orientation and id width.
inline AnyGraph gpu_graph(const std::string& shape, const AlgorithmInfo& a, Orientation o, bool ids64) {
  EdgeList e = find_shape(shape).edges;
  if (a.needs_weights()) e = with_weights(e, WeightKind::kInteger, 9);
  return build_variant(e, o, ids64);
}

// Sources: the first three test sources of the support (0, the hub, a
// vertex without out-edges, or a random one); bc also from all at once.
inline std::vector<Sources> gpu_sources(const AnyGraph& graph, const AlgorithmInfo& a, uint64_t seed) {
  if (!a.needs_source()) return {Sources{}};
  std::vector<Sources> runs;
  if (num_vertices(graph) == 0) return runs;
  std::vector<uint64_t> picked = test_sources(graph, 1, seed);
  if (picked.size() > 3) picked.resize(3);
  for (uint64_t s : picked) runs.push_back({s});
  if (a.traits.sources == SourceUse::kMany && picked.size() > 1) runs.push_back(picked);
  return runs;
}

inline std::vector<RunRequest> gpu_requests(const AnyGraph& graph, const AlgorithmInfo& a, uint64_t seed,
                                            const AlgorithmOptions& options = {}) {
  std::vector<RunRequest> out;
  for (const Sources& s : gpu_sources(graph, a, seed)) out.push_back(prepare_request(graph, make_request(a, s, options)));
  return out;
}

// The CPU engine's result for a request on a graph named `what`, computed
// once per process: every placement of a matrix compares against the same
// one (the CPU runs were most of the GPU tests' time).
inline const VertexValues& cpu_result(const AnyGraph& graph, const RunRequest& r, const std::string& what) {
  static std::map<std::string, VertexValues> done;
  const std::string key = what + "|" + std::to_string(vertex_id_bytes(graph)) + "|" +
                          std::to_string(num_edges(graph)) + "|" + r.algorithm->name() + "|" +
                          describe_sources(r.sources) + "|" + std::to_string(r.options.accumulative) + "|" +
                          std::to_string(r.options.tolerance) + "|" + std::to_string(r.options.delta) + "|" +
                          std::to_string(static_cast<int>(r.options.cc_method)) + "|" +
                          std::to_string(static_cast<int>(r.options.contributions));
  auto it = done.find(key);
  if (it == done.end()) it = done.emplace(key, run_on_cpu(graph, r).values).first;
  return it->second;
}

// The GPU's results for each request agree with the CPU engine's (within
// the algorithm's agreement) and pass the verifier. `what` names the graph:
// the same name must mean the same graph (cpu_result keeps results by it).
inline void expect_as_on_cpu(const AnyGraph& graph, const std::vector<RunRequest>& requests,
                             const std::vector<RunOutput>& gpu, const std::string& what) {
  ASSERT_EQ(gpu.size(), requests.size()) << what;
  for (size_t i = 0; i < requests.size(); ++i) {
    const RunRequest& r = requests[i];
    SCOPED_TRACE(what + ", " + r.algorithm->name() + " from " + describe_sources(r.sources));
    EXPECT_EQ(gpu[i].engine, EngineKind::kGpu);
    EXPECT_TRUE(agrees(*r.algorithm, gpu[i].values, cpu_result(graph, r, what)));
    EXPECT_TRUE(passes_verifier(*r.algorithm, graph, r.sources, gpu[i].values, r.options));
    EXPECT_GT(gpu[i].stats.phase("compute"), 0.0);
  }
}

// PageRank on every GPU shape, each orientation with a CSC (the gather reads
// it) and both id widths, under `options`, against the CPU engine;
// `check(out, graph)` on each run. `label` names the options in the trace.
template <typename Check>
void pagerank_on_every_shape(const GpuOptions& options, const std::string& label, Check&& check) {
  const AlgorithmInfo& a = algorithm("pagerank");
  for (bool ids64 : {false, true})
    for (const std::string& shape : gpu_shapes())
      for (Orientation o : all_orientations()) {
        if (o == Orientation::kDirectedNoCsc) continue;
        AnyGraph graph = gpu_graph(shape, a, o, ids64);
        const std::vector<RunRequest> requests = gpu_requests(graph, a, 1);
        const std::string what = shape + ", " + orientation_name(o);
        SCOPED_TRACE(what + label + (ids64 ? ", 64-bit ids" : ""));
        std::vector<RunOutput> gpu = run_batch_on_gpu(graph, requests, options);
        expect_as_on_cpu(graph, requests, gpu, what);
        for (const RunOutput& out : gpu) check(out, graph);
      }
}

}  // namespace tg::test::gpu
