// The degree-separated partition (distributed/partition.h) that every
// `--gpus N` run and every `mpirun --distributed` process builds before its
// first root: a several-GPU bench pays it once a variant, on the host, while
// the GPUs wait. partition_graph (every rank's part, the one-process form),
// partition_rank (one rank's, a process of mpirun) and plan_partition (the
// counts alone, `tiergraph plan --gpus`) on a generated Kronecker graph.
//
//   OMP_NUM_THREADS=2 TG_BENCH_SCALE=22 TG_BENCH_RANKS=4 build/benchmarks/tg_partition_bench
//
// TG_BENCH_SCALE (default 16): kron:SCALE, undirected as generated.
// TG_BENCH_RANKS (default 4). TG_BENCH_THRESHOLD: TH (default the paper's
// rule; BFS's own scales it by the ranks, distributed/degree_threshold.h).
#include <benchmark/benchmark.h>

#include <optional>
#include <string>

#include "distributed/partition.h"
#include "distributed/partition_summary.h"
#include "formats/load_graph.h"
#include "support/bench_support.h"

namespace tg {
namespace {

const AnyGraph& graph() {
  static const AnyGraph g = load_graph("kron:" + std::to_string(bench::env_u64("TG_BENCH_SCALE", 16)), LoadOptions{});
  return g;
}

dist::PartitionOptions options() {
  dist::PartitionOptions o;
  if (const uint64_t th = bench::env_u64("TG_BENCH_THRESHOLD", 0); th > 0) o.threshold = th;
  return o;
}

void set_rate(benchmark::State& state) {
  const double edges = static_cast<double>(num_edges(graph()));
  state.counters["edges/s"] = benchmark::Counter(edges, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["edges"] = edges;
}

void BM_PartitionGraph(benchmark::State& state) {
  const int p = static_cast<int>(state.range(0));
  uint64_t delegates = 0;
  std::optional<dist::Partition> part;
  for (auto _ : state) {
    part.emplace(dist::partition_graph(graph(), p, options()));
    delegates = part->num_delegates();
    state.PauseTiming();  // the parts' release is not the partition's time
    part.reset();
    state.ResumeTiming();
  }
  set_rate(state);
  state.counters["delegates"] = static_cast<double>(delegates);
}

void BM_PartitionRank(benchmark::State& state) {
  const int p = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(dist::partition_rank(graph(), p, 0, options()).num_normals());
  set_rate(state);
}

void BM_PlanPartition(benchmark::State& state) {
  const int p = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(dist::plan_partition(graph(), p, options()).delegates);
  set_rate(state);
}

void register_benchmarks() {
  const int64_t ranks = static_cast<int64_t>(bench::env_u64("TG_BENCH_RANKS", 4));
  auto add = [ranks](const char* name, auto fn) {
    benchmark::RegisterBenchmark(name, fn)->Arg(ranks)->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();
  };
  add("partition_graph", BM_PartitionGraph);
  add("partition_rank/0", BM_PartitionRank);
  add("plan_partition", BM_PlanPartition);
}

}  // namespace
}  // namespace tg

// The anonymous registrations above, for bench_main.cc.
void tg::bench::register_benchmarks() { ::tg::register_benchmarks(); }
