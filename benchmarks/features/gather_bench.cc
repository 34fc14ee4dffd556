// Gathering feature rows into GPU memory (issue 11, docs/FEATURES.md): GB/s of
// gathered bytes for
//   zerocopy_aligned  our warp-per-row kernel over registered host memory (the dissertation's shift)
//   zerocopy_naive    a thread per 4 bytes over the same memory (no shift)
//   cpu_then_copy     OpenMP gather into pinned memory, then one cudaMemcpy (what DGL and PyG do)
//   memcpy_limit      one pinned cudaMemcpy of the same bytes (the link's limit)
//   device_resident   the aligned kernel with the table in GPU memory (what a hot tier gets)
//   zerocopy_aligned_few_sms  the aligned kernel held to TG_BENCH_SM_FRACTION of the SMs (default 0.1)
//   zerocopy_sorted   the aligned kernel with the ids sorted into address order first (AddressOrder;
//                     the sort is timed): scattered reads of a large table are bounded by address
//                     translation, which neighbouring rows share
//   zerocopy_sorted_few_sms   the same on TG_BENCH_SM_FRACTION of the SMs
//   tiered_store      GpuTiers::gather with the first TG_BENCH_GPU_FRACTION of rows (default 0.1) in GPU
//                     memory: a feature store's gather as store[ids] runs it (ids uploaded, output
//                     allocated, wall time)
// GPU time by CUDA events (manual time); registers nothing where no GPU is.
//
//   TG_BENCH_ROWS=4194304 TG_BENCH_ROW_BYTES=1028 TG_BENCH_IDS=262144 build/benchmarks/tg_gather_bench
//
// Defaults: 2^20 rows of 1028 bytes (1 GiB; misaligned rows, as the paper's 1024-1044 B sweep), 2^16 random ids.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "features/cpu_gather.h"
#include "features/gpu/feature_gather.h"
#include "features/gpu_tiers.h"
#include "features/tier_plan.h"
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

enum class Way { kAligned, kNaive, kCpuThenCopy, kMemcpy, kDevice, kAlignedFewSms, kSorted, kSortedFewSms };

double fraction_from_env(const char* name, double fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atof(v) : fallback;
}

// A feature store's gather, ids from the host as store[ids] passes them.
void TieredStore(benchmark::State& state) {
  Setup& s = setup();
  const double fraction = fraction_from_env("TG_BENCH_GPU_FRACTION", 0.1);
  try {
    const features::TierPlan plan = features::plan_tiers({}, s.rows, fraction);
    features::GpuTiers tiers({s.table.data(), s.rows, s.row_bytes, s.row_bytes}, plan, {});
    const features::TierCounts counts = features::count_tiers(plan, s.ids);
    for (auto _ : state) {
      const auto start = std::chrono::steady_clock::now();
      std::shared_ptr<void> rows = tiers.gather(s.ids);
      state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    state.counters["gpu_fraction"] = fraction;
    state.counters["hit_ratio"] = s.count > 0 ? static_cast<double>(counts.gpu_hits) / static_cast<double>(s.count) : 0;
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * s.bytes()));
  state.counters["row_bytes"] = static_cast<double>(s.row_bytes);
  state.counters["ids"] = static_cast<double>(s.count);
}

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
  int few_sms_blocks = 0;
  try {
    few_sms_blocks = features::blocks_for_sm_share(fraction_from_env("TG_BENCH_SM_FRACTION", 0.1));
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
  features::AddressOrder order;
  const features::GatherRequest request{ids, nullptr, s.count, out};
  if (way == Way::kSorted || way == Way::kSortedFewSms) order.sort(request, s.rows, nullptr);  // its memory, untimed
  cudaEvent_t start, stop;
  BENCH_CUDA(cudaEventCreate(&start));
  BENCH_CUDA(cudaEventCreate(&stop));
  for (auto _ : state) {
    BENCH_CUDA(cudaEventRecord(start));
    switch (way) {
      case Way::kAligned:
      case Way::kDevice: features::gather_rows(table, request, features::GatherKernel::kAligned, 0, nullptr); break;
      case Way::kNaive: features::gather_rows(table, request, features::GatherKernel::kNaive, 0, nullptr); break;
      case Way::kAlignedFewSms:
        features::gather_rows(table, request, features::GatherKernel::kAligned, few_sms_blocks, nullptr);
        break;
      case Way::kSorted:
      case Way::kSortedFewSms:
        features::gather_rows(table, order.sort(request, s.rows, nullptr), features::GatherKernel::kAligned,
                              way == Way::kSorted ? 0 : few_sms_blocks, nullptr);
        break;
      case Way::kCpuThenCopy: {
        features::gather_rows_cpu(s.table.data(), s.row_bytes, s.row_bytes, s.ids, pinned);
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
  if (way == Way::kAlignedFewSms || way == Way::kSortedFewSms) state.counters["max_blocks"] = few_sms_blocks;
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
                           std::pair{"device_resident", Way::kDevice},
                           std::pair{"zerocopy_aligned_few_sms", Way::kAlignedFewSms},
                           std::pair{"zerocopy_sorted", Way::kSorted},
                           std::pair{"zerocopy_sorted_few_sms", Way::kSortedFewSms}})
    benchmark::RegisterBenchmark(name, [way](benchmark::State& st) { Gather(st, way); })->UseManualTime();
  benchmark::RegisterBenchmark("tiered_store", TieredStore)->UseManualTime();
}

}  // namespace tg
