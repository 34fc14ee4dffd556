// Gathering feature rows into GPU memory (issue 11, docs/FEATURES.md): GB/s of
// gathered bytes for
//   zerocopy_aligned  our warp-per-row kernel over registered host memory (the dissertation's shift)
//   zerocopy_naive    a thread per 4 bytes over the same memory (no shift)
//   cpu_then_copy     OpenMP gather into pinned memory, then one cudaMemcpy (what DGL and PyG do)
//   memcpy_limit      one pinned cudaMemcpy of the same bytes (the link's limit)
//   device_resident   the aligned kernel with the table in GPU memory (what a hot tier gets)
// GPU time by CUDA events (manual time); registers nothing where no GPU is.
//
//   TG_BENCH_ROWS=4194304 TG_BENCH_ROW_BYTES=1028 TG_BENCH_IDS=262144 build/benchmarks/tg_gather_bench
//
// Defaults: 2^20 rows of 1028 bytes (1 GiB; misaligned rows, as the paper's 1024-1044 B sweep), 2^16 random ids.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "features/gpu/feature_gather.h"
#include "support/bench_support.h"

namespace tg {
namespace {

using bench::env_u64;

#define BENCH_CUDA(call)                                                              \
  do {                                                                                \
    if ((call) != cudaSuccess) {                                                      \
      state.SkipWithError(cudaGetErrorString(cudaGetLastError()));                    \
      return;                                                                         \
    }                                                                                 \
  } while (0)

struct Setup {
  uint64_t rows = env_u64("TG_BENCH_ROWS", uint64_t{1} << 20);
  uint64_t row_bytes = env_u64("TG_BENCH_ROW_BYTES", 1028);
  uint64_t count = env_u64("TG_BENCH_IDS", uint64_t{1} << 16);
  std::vector<uint8_t> table;
  std::vector<int64_t> ids;
  Setup() : table(rows * row_bytes), ids(count) {
    std::mt19937_64 rng(7);
    for (size_t i = 0; i < table.size(); i += 64) table[i] = static_cast<uint8_t>(rng());
    for (int64_t& id : ids) id = static_cast<int64_t>(rng() % rows);
  }
  uint64_t bytes() const { return count * row_bytes; }
};

Setup& setup() {
  static Setup s;
  return s;
}

enum class Way { kAligned, kNaive, kCpuThenCopy, kMemcpy, kDevice };

void Gather(benchmark::State& state, Way way) {
  Setup& s = setup();
  int64_t* ids = nullptr;
  uint8_t *out = nullptr, *pinned = nullptr, *device_table = nullptr;
  BENCH_CUDA(cudaMalloc(&ids, s.count * sizeof(int64_t)));
  BENCH_CUDA(cudaMalloc(&out, s.bytes()));
  BENCH_CUDA(cudaMemcpy(ids, s.ids.data(), s.count * sizeof(int64_t), cudaMemcpyHostToDevice));
  BENCH_CUDA(cudaMallocHost(&pinned, s.bytes()));
  std::unique_ptr<features::RegisteredHostRows> registered;
  features::RowTable table;
  try {
    registered = std::make_unique<features::RegisteredHostRows>(s.table.data(), s.rows, s.row_bytes, s.row_bytes);
    table = registered->table();
    if (way == Way::kDevice) {
      BENCH_CUDA(cudaMalloc(&device_table, s.table.size()));
      BENCH_CUDA(cudaMemcpy(device_table, s.table.data(), s.table.size(), cudaMemcpyHostToDevice));
      table.rows = device_table;
    }
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  cudaEvent_t start, stop;
  BENCH_CUDA(cudaEventCreate(&start));
  BENCH_CUDA(cudaEventCreate(&stop));
  for (auto _ : state) {
    BENCH_CUDA(cudaEventRecord(start));
    switch (way) {
      case Way::kAligned:
      case Way::kDevice: features::gather_rows(table, ids, s.count, out, features::GatherKernel::kAligned, 0, nullptr); break;
      case Way::kNaive: features::gather_rows(table, ids, s.count, out, features::GatherKernel::kNaive, 0, nullptr); break;
      case Way::kCpuThenCopy: {
        const int64_t n = static_cast<int64_t>(s.count);
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < n; ++i)
          std::memcpy(pinned + i * s.row_bytes, s.table.data() + s.ids[i] * s.row_bytes, s.row_bytes);
        BENCH_CUDA(cudaMemcpyAsync(out, pinned, s.bytes(), cudaMemcpyHostToDevice));
        break;
      }
      case Way::kMemcpy: BENCH_CUDA(cudaMemcpyAsync(out, pinned, s.bytes(), cudaMemcpyHostToDevice)); break;
    }
    BENCH_CUDA(cudaEventRecord(stop));
    BENCH_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    BENCH_CUDA(cudaEventElapsedTime(&ms, start, stop));
    state.SetIterationTime(ms / 1000.0);
  }
  BENCH_CUDA(cudaGetLastError());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * s.bytes()));
  state.counters["row_bytes"] = static_cast<double>(s.row_bytes);
  state.counters["ids"] = static_cast<double>(s.count);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  registered.reset();
  cudaFree(ids);
  cudaFree(out);
  cudaFree(device_table);
  cudaFreeHost(pinned);
}

}  // namespace

void bench::register_benchmarks() {
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
    cudaGetLastError();
    std::fprintf(stderr, "tg_gather_bench: no GPU, nothing to measure\n");
    return;
  }
  for (auto [name, way] : {std::pair{"zerocopy_aligned", Way::kAligned}, std::pair{"zerocopy_naive", Way::kNaive},
                           std::pair{"cpu_then_copy", Way::kCpuThenCopy}, std::pair{"memcpy_limit", Way::kMemcpy},
                           std::pair{"device_resident", Way::kDevice}})
    benchmark::RegisterBenchmark(name, [way](benchmark::State& st) { Gather(st, way); })->UseManualTime();
}

}  // namespace tg
