// Neighbour sampling for GNN mini-batches (issue 11, part 3): sampled edges
// per second, a batch at a time, as a training loop calls it, for
//   cpu              the CPU sampler (sampling/neighbor_sampler.h), all OpenMP threads
//   gpu_in_memory    the GPU sampler with the in-edges copied into GPU memory
//   gpu_zero_copy    the GPU sampler reading the in-edges from host memory in place
//   gpu_split        with TG_BENCH_EDGE_DEVICES=0,1 (say): the in-edges in pieces over
//                    those GPUs' memories, GPU 0 sampling over the peer link
//   *_device_out     the same, the hops left in GPU memory (sample_into, as
//                    sampler.sample(seeds, cuda=True) does) from an arena
//                    reused every batch, as torch's caching allocator would
//   *_host_out       the same, the hops written into host memory allocated
//                    fresh each batch (sample_to_host, as sampler.sample(seeds)
//                    does into NumPy arrays), where the plain form fills vectors
// Wall time per batch, seeds in and hops out in host memory (what the API
// hands back), or in GPU memory and the stream synchronized. Each batch has fresh seeds: TG_BENCH_BATCH distinct random
// vertices with in-edges; TG_BENCH_FANOUTS per hop (default 25,10).
//
//   TG_BENCH_GRAPH=kron:24 TG_BENCH_BATCH=1024 TG_BENCH_FANOUTS=25,10 build/benchmarks/tg_sample_bench
#include <benchmark/benchmark.h>
#if TG_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include <chrono>
#include <cstdlib>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "formats/load_graph.h"
#include "sampling/gpu_sampler.h"
#include "sampling/neighbor_sampler.h"
#include "support/bench_support.h"

namespace tg {
namespace {

using bench::env_u64;

struct Setup {
  AnyGraph graph;
  std::vector<int> fanouts;
  std::vector<int> edge_devices;  // gpu_split's pieces
  std::vector<uint64_t> with_in_edges;  // the vertices seeds are drawn from
  uint64_t batch = env_u64("TG_BENCH_BATCH", 1024);
  Setup() {
    const char* spec = std::getenv("TG_BENCH_GRAPH");
    LoadOptions o;
    o.build.in_edges = true;
    graph = load_graph(spec != nullptr && *spec != '\0' ? spec : "kron:16", o);
    const char* f = std::getenv("TG_BENCH_FANOUTS");
    std::stringstream list(f != nullptr && *f != '\0' ? f : "25,10");
    for (std::string item; std::getline(list, item, ',');) fanouts.push_back(std::stoi(item));
    if (const char* d = std::getenv("TG_BENCH_EDGE_DEVICES"); d != nullptr && *d != '\0') {
      std::stringstream devices(d);
      for (std::string item; std::getline(devices, item, ',');) edge_devices.push_back(std::stoi(item));
    }
    std::visit(
        [&](const auto& g) {
          const auto& in = g.in_edges();
          for (uint64_t v = 0; v < g.num_vertices; ++v)
            if (in.degree(v) > 0) with_in_edges.push_back(v);
        },
        graph);
  }
  std::vector<uint64_t> seeds(uint64_t round) const {
    std::mt19937_64 rng(round);
    std::vector<uint64_t> out;
    std::vector<bool> taken(with_in_edges.size());
    const uint64_t want = std::min<uint64_t>(batch, with_in_edges.size());
    while (out.size() < want) {
      const uint64_t i = rng() % with_in_edges.size();
      if (!taken[i]) taken[i] = true, out.push_back(with_in_edges[i]);
    }
    return out;
  }
};

Setup& setup() {
  static Setup s;
  return s;
}

enum class Where { kCpu, kGpuInMemory, kGpuZeroCopy, kGpuSplit };

#if TG_HAVE_CUDA
// GPU memory handed out in order from one block and taken back whole after
// each batch, as torch's caching allocator hands a training loop the same
// blocks batch after batch; `stream` is the consumer the hops are ordered with.
struct DeviceArena {
  uint8_t* base = nullptr;
  uint64_t capacity = 0, used = 0;
  cudaStream_t stream = nullptr;
  explicit DeviceArena(uint64_t bytes) : capacity(bytes) {
    if (cudaMalloc(&base, bytes) != cudaSuccess || cudaStreamCreate(&stream) != cudaSuccess)
      throw std::runtime_error("DeviceArena: no " + std::to_string(bytes) + " bytes of GPU memory or no stream");
  }
  ~DeviceArena() {
    cudaStreamDestroy(stream);
    cudaFree(base);
  }
  DeviceAllocator allocator() {
    return [this](uint64_t bytes) -> void* {
      const uint64_t at = (used + 255) / 256 * 256;
      if (at + bytes > capacity) return nullptr;  // sample_into says the allocator gave no memory
      used = at + bytes;
      return base + at;
    };
  }
};
#endif

// Where a batch's hops go: SampledHop's vectors, the caller's host memory
// (fresh each batch), or the caller's GPU memory.
enum class Out { kVectors, kHostArrays, kDevice };

// The hops of one batch, where `out` says (kDevice: from the arena `into`,
// the consumer stream synchronized); the edges sampled.
uint64_t sample_batch(Setup& s, GpuNeighborSampler* gpu, const std::vector<uint64_t>& seeds, const SampleOptions& o,
                      Out out, void* into) {
  uint64_t edges = 0;
#if TG_HAVE_CUDA
  if (out == Out::kDevice) {
    auto& arena = *static_cast<DeviceArena*>(into);
    arena.used = 0;
    for (const HopArrays& h : gpu->sample_into(seeds, o, arena.allocator(), reinterpret_cast<uintptr_t>(arena.stream)))
      edges += h.num_edges;
    if (cudaStreamSynchronize(arena.stream) != cudaSuccess) throw std::runtime_error("sample_into: stream failed");
    return edges;
  }
#endif
  (void)into;
  if (out == Out::kHostArrays) {
    std::vector<std::unique_ptr<uint64_t[]>> arrays;  // uninitialised, as np.empty's
    const HostAllocator allocate = [&](uint64_t bytes) -> void* {
      return arrays.emplace_back(new uint64_t[bytes / sizeof(uint64_t)]).get();
    };
    for (const HopArrays& h : gpu->sample_to_host(seeds, o, allocate)) edges += h.num_edges;
    return edges;
  }
  const std::vector<SampledHop> hops = gpu ? gpu->sample(seeds, o) : sample_neighbors(s.graph, seeds, o);
  for (const SampledHop& h : hops) edges += h.edge_src.size();
  return edges;
}

void Sample(benchmark::State& state, Where where, Out out = Out::kVectors) {
  Setup& s = setup();
  std::unique_ptr<GpuNeighborSampler> gpu;
  try {
    if (where != Where::kCpu)
      gpu = std::make_unique<GpuNeighborSampler>(
          s.graph, GpuSamplerOptions{0, where == Where::kGpuZeroCopy,
                                     where == Where::kGpuSplit ? s.edge_devices : std::vector<int>{}});
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  void* arena = nullptr;
#if TG_HAVE_CUDA
  std::unique_ptr<DeviceArena> arena_owner;
  if (out == Out::kDevice) {
    // Room for the largest batch the fanouts allow: each hop's sources at
    // most (fanout + 1) times its destinations, each edge two words.
    uint64_t words = s.batch, n = s.batch;
    for (int f : s.fanouts) {
      const uint64_t edges = n * static_cast<uint64_t>(f < 0 ? 1 << 10 : f);
      words += 2 * edges + n + edges + 96;
      n += edges;
    }
    try {
      arena_owner = std::make_unique<DeviceArena>(words * sizeof(uint64_t));
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      return;
    }
    arena = arena_owner.get();
  }
#endif
  uint64_t edges = 0, round = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const std::vector<uint64_t> seeds = s.seeds(++round);
    const SampleOptions o{s.fanouts, false, round};
    state.ResumeTiming();
    try {
      edges += sample_batch(s, gpu.get(), seeds, o, out, arena);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      break;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(edges));  // items_per_second: sampled edges per second
  state.counters["edges_per_batch"] = round > 0 ? static_cast<double>(edges) / static_cast<double>(round) : 0;
  if (gpu) state.counters["graph_bytes_on_gpu"] = static_cast<double>(gpu->graph_bytes_on_gpu());
}

}  // namespace

void bench::register_benchmarks() {
  bench::add_thread_context();
  benchmark::RegisterBenchmark("cpu", [](benchmark::State& st) { Sample(st, Where::kCpu); })->UseRealTime();
  std::string why;
  if (!gpu_sampler_available(&why)) {
    std::fprintf(stderr, "tg_sample_bench: %s: the CPU sampler only\n", why.c_str());
    return;
  }
  benchmark::RegisterBenchmark("gpu_in_memory", [](benchmark::State& st) { Sample(st, Where::kGpuInMemory); })
      ->UseRealTime();
  benchmark::RegisterBenchmark("gpu_zero_copy", [](benchmark::State& st) { Sample(st, Where::kGpuZeroCopy); })
      ->UseRealTime();
  if (const char* d = std::getenv("TG_BENCH_EDGE_DEVICES"); d != nullptr && *d != '\0')
    benchmark::RegisterBenchmark("gpu_split", [](benchmark::State& st) { Sample(st, Where::kGpuSplit); })
        ->UseRealTime();
  for (Out out : {Out::kDevice, Out::kHostArrays}) {
    const std::string suffix = out == Out::kDevice ? "_device_out" : "_host_out";
    benchmark::RegisterBenchmark(("gpu_in_memory" + suffix).c_str(),
                                 [out](benchmark::State& st) { Sample(st, Where::kGpuInMemory, out); })
        ->UseRealTime();
    benchmark::RegisterBenchmark(("gpu_zero_copy" + suffix).c_str(),
                                 [out](benchmark::State& st) { Sample(st, Where::kGpuZeroCopy, out); })
        ->UseRealTime();
  }
}

}  // namespace tg
