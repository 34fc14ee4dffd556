// Generators and the graph builder, for docs/PERF-graph.md: generate kron and
// urand, build_graph them (plain and --simplify), to_edge_list back; on kron
// as a directed graph, ensure_in_edges (the CSC) and degree_stats alone.
//
//   OMP_NUM_THREADS=2 TG_BENCH_SCALE=20 build/benchmarks/tg_generate_bench
//
// TG_BENCH_SCALE (default 16) is the generator scale: 2^scale vertices,
// 16 * 2^scale edges. Wall time is the clock (UseRealTime); CPU time is the
// whole process's, all threads: on a shared machine the steadier of the two.
#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <utility>
#include <variant>

#include "generators/generators.h"
#include "graph/builder.h"
#include "support/bench_support.h"

namespace tg {
namespace {

int bench_scale() { return static_cast<int>(bench::env_u64("TG_BENCH_SCALE", 16)); }

std::string spec_text(const std::string& kind, int scale) { return kind + ":" + std::to_string(scale); }

// Generated once per spec and copied for each build: build_graph consumes its
// input, and generating again would time the generator twice.
const EdgeList& generated(const std::string& text) {
  static std::map<std::string, EdgeList> cache;
  auto it = cache.find(text);
  if (it == cache.end()) it = cache.emplace(text, generate(parse_generator_spec(text))).first;
  return it->second;
}

const EdgeList& generated_directed(const std::string& text) {
  static std::map<std::string, EdgeList> cache;
  auto it = cache.find(text);
  if (it == cache.end()) {
    EdgeList el = generated(text);
    el.directed = true;
    it = cache.emplace(text, std::move(el)).first;
  }
  return it->second;
}

void set_edge_rate(benchmark::State& state, uint64_t edges) {
  state.counters["edges/s"] = benchmark::Counter(static_cast<double>(edges), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["edges"] = static_cast<double>(edges);
}

void BM_Generate(benchmark::State& state, const std::string& kind) {
  const GeneratorSpec spec = parse_generator_spec(spec_text(kind, static_cast<int>(state.range(0))));
  uint64_t edges = 0;
  for (auto _ : state) {
    EdgeList el = generate(spec);
    edges = el.num_edges();
    state.PauseTiming();
    el = EdgeList{};
    state.ResumeTiming();
  }
  set_edge_rate(state, edges);
  state.SetBytesProcessed(static_cast<int64_t>(edges * 2 * sizeof(uint64_t) * state.iterations()));
}

// edges/s counts the edges given to the builder; "stored" the directed edges
// of the CSR (both directions of an undirected edge, fewer after --simplify).
void BM_BuildGraph(benchmark::State& state, const std::string& kind, bool simplify) {
  const EdgeList& input = generated(spec_text(kind, static_cast<int>(state.range(0))));
  BuildOptions options;
  options.simplify = simplify;
  uint64_t stored = 0;
  for (auto _ : state) {
    state.PauseTiming();
    EdgeList el = input;
    state.ResumeTiming();
    AnyGraph g = build_graph(std::move(el), options);
    stored = num_edges(g);
    state.PauseTiming();
    g = AnyGraph{};
    state.ResumeTiming();
  }
  set_edge_rate(state, input.num_edges());
  state.counters["stored"] = static_cast<double>(stored);
}

void BM_ToEdgeList(benchmark::State& state, const std::string& kind) {
  const AnyGraph g = build_graph(EdgeList(generated(spec_text(kind, static_cast<int>(state.range(0))))), {});
  for (auto _ : state) {
    EdgeList back = to_edge_list(g);
    state.PauseTiming();
    back = EdgeList{};
    state.ResumeTiming();
  }
  set_edge_rate(state, num_edges(g));
}

void BM_EnsureInEdges(benchmark::State& state) {
  AnyGraph g = build_graph(EdgeList(generated_directed(spec_text("kron", static_cast<int>(state.range(0))))), {});
  for (auto _ : state) {
    state.PauseTiming();
    std::visit([](auto& graph) { graph.in = {}; }, g);
    state.ResumeTiming();
    ensure_in_edges(g);
  }
  set_edge_rate(state, num_edges(g));
}

void BM_DegreeStats(benchmark::State& state) {
  const AnyGraph g = build_graph(EdgeList(generated_directed(spec_text("kron", static_cast<int>(state.range(0))))), {});
  for (auto _ : state) benchmark::DoNotOptimize(degree_stats(g));
  set_edge_rate(state, num_edges(g));
}

void register_benchmarks() {
  const int scale = bench_scale();
  auto add = [scale](const std::string& name, auto&&... args) {
    return benchmark::RegisterBenchmark(name.c_str(), args...)
        ->Arg(scale)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MeasureProcessCPUTime();
  };
  for (const std::string kind : {"kron", "urand"}) {
    add("generate/" + kind, BM_Generate, kind);
    add("build_graph/" + kind, BM_BuildGraph, kind, false);
    add("build_graph_simplify/" + kind, BM_BuildGraph, kind, true);
    add("to_edge_list/" + kind, BM_ToEdgeList, kind);
  }
  add("ensure_in_edges/kron_directed", BM_EnsureInEdges);
  add("degree_stats/kron_directed", BM_DegreeStats);
}

}  // namespace
}  // namespace tg

// The anonymous registrations above, for bench_main.cc.
void tg::bench::register_benchmarks() { ::tg::register_benchmarks(); }
