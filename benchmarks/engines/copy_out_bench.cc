// What handing a result out costs (docs/PERF.md, issue 9): the engine's
// vertex array copied into the vector to_host returns. Into a std::vector,
// `resize` zero-fills on one thread whatever the copy does after (the serial
// pass alone, and the whole copy-out the CPU engine did that way); into a
// ResultVector (core/recycled_vector.h), as to_host does now; and the
// parallel copy into memory already mapped (the limit).
//
//   OMP_NUM_THREADS=16 TG_BENCH_VERTICES=33554432 build/benchmarks/tg_copy_out_bench
//
// TG_BENCH_VERTICES (default 2^20): the array's length; kron:25 has 2^25.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/array.h"
#include "engines/cpu/parallel.h"
#include "graph/huge_pages.h"
#include "support/bench_support.h"

namespace tg {
namespace {

uint64_t vertices() {
  const char* n = std::getenv("TG_BENCH_VERTICES");
  return n != nullptr && *n != '\0' ? std::strtoull(n, nullptr, 10) : uint64_t{1} << 20;
}

Array<uint32_t> source_array() {
  Array<uint32_t> a = Array<uint32_t>::allocate(vertices());
  parallel_fill(a.data(), a.size(), uint32_t{7});
  return a;
}

// The serial pass alone: resize of a vector whose pages are already mapped.
template <typename Out>
void ResizeOnly(benchmark::State& state) {
  const uint64_t n = vertices();
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<Out> out;
    out.reserve(n);
    advise_huge_pages(out.data(), n * sizeof(Out));
    parallel_fill(out.data(), n, Out{});  // maps the pages first, as to_host did
    state.ResumeTiming();
    out.resize(n);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(n * sizeof(Out)));
}

// The copy-out into a std::vector, as the CPU engine's to_host did it:
// pages faulted in by every thread, in huge pages, then resize, then a
// parallel copy.
template <typename Out>
void StdVectorCopyOut(benchmark::State& state) {
  const Array<uint32_t> in = source_array();
  for (auto _ : state) {
    std::vector<Out> out;
    out.reserve(in.size());
    Out* data = out.data();
    advise_huge_pages(data, in.size() * sizeof(Out));
#pragma omp parallel for schedule(static)
    for (uint64_t i = 0; i < in.size(); i += 4096 / sizeof(Out)) data[i] = Out{};
    out.resize(in.size());
#pragma omp parallel for schedule(static)
    for (uint64_t i = 0; i < in.size(); ++i) data[i] = static_cast<Out>(in[i]);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(in.size() * sizeof(Out)));
}

// The copy-out as to_host does it now.
template <typename Out>
void ResultCopyOut(benchmark::State& state) {
  const Array<uint32_t> in = source_array();
  for (auto _ : state) {
    ResultVector<Out> out = parallel_to_vector<Out>(in.data(), in.size());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(in.size() * sizeof(Out)));
}

// The limit: every thread converting into memory mapped and kept.
template <typename Out>
void ParallelCopy(benchmark::State& state) {
  const Array<uint32_t> in = source_array();
  Array<Out> out = Array<Out>::allocate_reused(in.size());
  parallel_fill(out.data(), out.size(), Out{});
  for (auto _ : state) {
    Out* o = out.data();
    const uint32_t* i = in.data();
#pragma omp parallel for schedule(static)
    for (uint64_t v = 0; v < in.size(); ++v) o[v] = static_cast<Out>(i[v]);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(in.size() * sizeof(Out)));
}

void register_benchmarks() {
  for (auto* b : {benchmark::RegisterBenchmark("ResizeOnly<int32_t>", ResizeOnly<int32_t>),
                  benchmark::RegisterBenchmark("ResizeOnly<uint64_t>", ResizeOnly<uint64_t>),
                  benchmark::RegisterBenchmark("StdVectorCopyOut<int32_t>", StdVectorCopyOut<int32_t>),
                  benchmark::RegisterBenchmark("StdVectorCopyOut<uint64_t>", StdVectorCopyOut<uint64_t>),
                  benchmark::RegisterBenchmark("ResultCopyOut<int32_t>", ResultCopyOut<int32_t>),
                  benchmark::RegisterBenchmark("ResultCopyOut<uint64_t>", ResultCopyOut<uint64_t>),
                  benchmark::RegisterBenchmark("ParallelCopy<int32_t>", ParallelCopy<int32_t>),
                  benchmark::RegisterBenchmark("ParallelCopy<uint64_t>", ParallelCopy<uint64_t>)})
    b->Unit(benchmark::kMillisecond)->UseRealTime();
}

}  // namespace
}  // namespace tg

void tg::bench::register_benchmarks() { ::tg::register_benchmarks(); }
