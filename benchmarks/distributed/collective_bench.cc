// What one collective costs the several-GPU programs (issue 10, docs/DISTRIBUTED.md): every visible GPU a
// rank of one process (distributed/gpu/gpu_group.h, as `--gpus N` runs), an ncclAllGather of each rank's
// segment of `words` 4-byte words, at the sizes the BFS sends a level (its reached mask's segment: 1.7 MB at
// kron:27 on 2; its normal frontier's bits: 8.4 MB), timed on rank 0's stream by CUDA events:
//   allgather_queued/W   kOps collectives queued back to back (the GPUs' side alone)
//   allgather_synced/W   each followed by a host sync, as a level's end has one (the host's round trip too)
//   host_round_trip      a 4-byte copy to pinned host memory and a sync, kOps times
// Manual time per collective. Registers nothing with fewer than two GPUs (and says so).
//
//   NCCL_NVLS_ENABLE=0 build/benchmarks/tg_collective_bench
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "distributed/gpu/gpu_group.h"
#include "support/bench_support.h"

namespace tg {
namespace {

constexpr int kOps = 50;

#define CHECK_CUDA(call)                                                                    \
  do {                                                                                      \
    if (const cudaError_t e = (call); e != cudaSuccess) throw Error(cudaGetErrorString(e)); \
  } while (0)

enum class Mode { kQueued, kSynced, kHostRoundTrip };

// Each rank's buffers, streams and events, made and freed while no rank is in a
// collective: cudaMalloc, cudaMallocHost and cudaFree may wait for every
// device, and a rank inside an ncclAllGather waits for the others to join it,
// so allocating beside a collective can deadlock.
struct RankBuffers {
  uint32_t* words = nullptr;
  uint32_t* pinned = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
};

std::vector<RankBuffers> make_buffers(dist::gpu::GpuGroup& group, uint64_t words) {
  std::vector<RankBuffers> b(group.size());
  group.on_each_rank([&](int rank) {
    RankBuffers& r = b[rank];
    CHECK_CUDA(cudaMalloc(&r.words, std::max<uint64_t>(1, words) * group.size() * sizeof(uint32_t)));
    CHECK_CUDA(cudaMallocHost(&r.pinned, sizeof(uint32_t)));
    CHECK_CUDA(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
    CHECK_CUDA(cudaEventCreate(&r.start));
    CHECK_CUDA(cudaEventCreate(&r.stop));
  });
  return b;
}

void free_buffers(dist::gpu::GpuGroup& group, std::vector<RankBuffers>& b) {
  group.on_each_rank([&](int rank) {
    RankBuffers& r = b[rank];
    cudaStreamSynchronize(r.stream);
    cudaEventDestroy(r.start);
    cudaEventDestroy(r.stop);
    cudaStreamDestroy(r.stream);
    cudaFreeHost(r.pinned);
    cudaFree(r.words);
  });
}

// Rank 0's seconds for kOps operations (every rank runs them: a collective needs all).
double time_ops(dist::gpu::GpuGroup& group, std::vector<RankBuffers>& b, uint64_t words, Mode mode) {
  std::vector<double> seconds(group.size());
  group.on_each_rank([&](int rank) {
    RankBuffers& r = b[rank];
    const auto op = [&] {
      if (mode == Mode::kHostRoundTrip) {
        CHECK_CUDA(cudaMemcpyAsync(r.pinned, r.words, sizeof(uint32_t), cudaMemcpyDeviceToHost, r.stream));
      } else if (ncclAllGather(r.words + rank * words, r.words, words, ncclUint32, group.comm(rank), r.stream) !=
                 ncclSuccess) {
        throw Error("ncclAllGather failed");
      }
      if (mode != Mode::kQueued) CHECK_CUDA(cudaStreamSynchronize(r.stream));
    };
    for (int i = 0; i < 5; ++i) op();  // warm-up
    CHECK_CUDA(cudaStreamSynchronize(r.stream));
    CHECK_CUDA(cudaEventRecord(r.start, r.stream));
    for (int i = 0; i < kOps; ++i) op();
    CHECK_CUDA(cudaEventRecord(r.stop, r.stream));
    CHECK_CUDA(cudaEventSynchronize(r.stop));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, r.start, r.stop));
    seconds[rank] = ms * 1e-3;
  });
  return seconds[0];
}

dist::gpu::GpuGroup& group() {
  static dist::gpu::GpuGroup g(dist::gpu::visible_gpu_count());
  return g;
}

void Collective(benchmark::State& state, Mode mode) {
  const auto words = static_cast<uint64_t>(state.range(0));
  try {
    std::vector<RankBuffers> b = make_buffers(group(), words);
    for (auto _ : state) state.SetIterationTime(time_ops(group(), b, words, mode) / kOps);
    free_buffers(group(), b);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  state.counters["bytes_per_rank"] = static_cast<double>(words * sizeof(uint32_t));
  state.counters["gpus"] = group().size();
}

}  // namespace

void bench::register_benchmarks() {
  if (dist::gpu::visible_gpu_count() < 2) {
    std::fprintf(stderr, "tg_collective_bench: fewer than two GPUs visible: nothing to measure\n");
    return;
  }
  // 1 word, 64 KB, the reached mask's segment at kron:27 on 2 (13.7 M delegates as bits), the normal frontier's
  // bits there (67 M slots).
  for (const auto& [name, mode] : {std::pair{"allgather_queued", Mode::kQueued}, std::pair{"allgather_synced", Mode::kSynced}})
    benchmark::RegisterBenchmark(name, [mode](benchmark::State& st) { Collective(st, mode); })
        ->Arg(1)
        ->Arg(16 << 10)
        ->Arg(428 << 10)
        ->Arg(2 << 20)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("host_round_trip", [](benchmark::State& st) { Collective(st, Mode::kHostRoundTrip); })
      ->Arg(1)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace tg
