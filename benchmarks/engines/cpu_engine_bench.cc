// Every algorithm of the registry on the CPU engine, the graph loaded once:
// the compute phase alone, for profiling and for issue 9's comparison with
// GAP (scripts/compare-gap.sh runs the program end to end instead).
//
//   OMP_NUM_THREADS=2 TG_BENCH_GRAPH=/tmp/tg-gap/kron20.sg build/benchmarks/tg_cpu_engine_bench
//
// TG_BENCH_GRAPH (default kron:14) is a file or generator spec; weighted
// algorithms get random weights 1..255 when it has none. Sources are picked
// as bench picks them (pick_sources, 4 of them), one per iteration in turn.
// edges/s counts the edges each run read, as RunStats::edges_traversed.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "engines/cpu/cpu_engine.h"
#include "engines/run.h"
#include "formats/load_graph.h"
#include "graph/source_picker.h"
#include "support/bench_support.h"

namespace tg {
namespace {

std::string graph_spec() {
  const char* g = std::getenv("TG_BENCH_GRAPH");
  return g != nullptr && *g != '\0' ? g : "kron:14";
}

// Loaded once per weight need, with the CSC where an algorithm pulls.
const AnyGraph& graph(bool weights) {
  static AnyGraph plain, weighted;
  static bool loaded[2] = {false, false};
  AnyGraph& g = weights ? weighted : plain;
  if (!loaded[weights]) {
    LoadOptions o;
    o.build.in_edges = true;
    if (weights) o.build.random_weights = WeightRange{1, 255};
    g = load_graph(graph_spec(), o);
    loaded[weights] = true;
  }
  return g;
}

void BM_Algorithm(benchmark::State& state, const AlgorithmInfo* algorithm) {
  const AnyGraph& g = graph(algorithm->needs_weights());
  const std::vector<uint64_t> sources = pick_sources(g, 4);
  uint64_t edges = 0, runs = 0;
  size_t next = 0;
  for (auto _ : state) {
    Sources s;
    if (algorithm->needs_source()) s = {sources[next++ % sources.size()]};
    const RunRequest r = prepare_request(g, make_request(*algorithm, s));
    RunOutput out = run_on_cpu(g, r);
    edges += out.stats.edges_traversed;
    ++runs;
    benchmark::DoNotOptimize(out.values);
  }
  state.counters["edges/s"] = benchmark::Counter(static_cast<double>(edges), benchmark::Counter::kIsRate);
  state.counters["edges/run"] = runs ? static_cast<double>(edges) / static_cast<double>(runs) : 0;
}

void register_benchmarks() {
  for (const AlgorithmInfo* a : all_algorithms())
    benchmark::RegisterBenchmark(("cpu/" + a->name() + "/" + graph_spec()).c_str(), BM_Algorithm, a)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
}

}  // namespace
}  // namespace tg

// The anonymous registrations above, for bench_main.cc.
void tg::bench::register_benchmarks() { ::tg::register_benchmarks(); }
