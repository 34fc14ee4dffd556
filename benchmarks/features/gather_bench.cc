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
//   host_store_few_sms  GpuTiers::gather_into with every row in host memory, the kernel held to
//                     TG_BENCH_SM_FRACTION of the SMs, into an output allocated once (ids uploaded, wall
//                     time to the rows in GPU memory)
//   host_store_few_sms_cpu_share  the same with TG_BENCH_CPU_SHARE of each gather's rows (default -1:
//                     balanced) gathered by CPU threads for the copy engine beside the kernel
//                     (features/cpu_share.h); the share reached is the counter cpu_share
//   tiered_store      GpuTiers::gather with the first TG_BENCH_GPU_FRACTION of rows (default 0.1) in GPU
//                     memory: a feature store's gather as store[ids] runs it (ids uploaded, output
//                     allocated, wall time)
//   peer_resident     the tiered kernel with every row in the peer GPUs' memory (every other GPU that GPU 0
//                     can read), interleaved, read directly over NVLink: the peer tier's rate
//   hot_local_and_peers  every row in GPU memory, interleaved over GPU 0 and its peers (an equal share
//                     each): the aggregate rate of hot hits the issue asks of two GPUs
//   tiered_store_peers  tiered_store with the next TG_BENCH_PEER_FRACTION of rows (default 0.2) on the peers
//   all_gpus_hot      every visible GPU gathering its own batch at once from rows interleaved over all of
//                     them (row r on GPU r mod P, a quarter local on 4 GPUs): data-parallel training's case;
//                     GB/s of every GPU's gathered bytes over the slowest GPU's time (the aggregate rate)
//   all_gpus_host     every visible GPU gathering rows 0.. in order at once from host memory by zero-copy (the
//                     aligned kernel; each GPU its own registered copy of the table): the aggregate host
//                     read rate of all links together (../shared/PLATFORM.md's "all GPUs at once")
// The peer rates need two GPUs; on one they report an error saying so.
// GPU time by CUDA events (manual time); registers nothing where no GPU is.
//
//   TG_BENCH_ROWS=4194304 TG_BENCH_ROW_BYTES=1028 TG_BENCH_IDS=262144 build/benchmarks/tg_gather_bench
//
// Defaults: 2^20 rows of 1028 bytes (1 GiB; misaligned rows, as the paper's 1024-1044 B sweep), 2^16 random ids.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "features/cpu_gather.h"
#include "features/gpu/feature_gather.h"
#include "features/gpu_tiers.h"
#include "features/peer_devices.h"
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

// Every iteration's GPU time by CUDA events around launch() (work on the
// legacy default stream, returning its CUDA status), then the bytes and the
// shape counters; false where CUDA failed (the state says so).
template <typename Launch>
bool time_by_events(benchmark::State& state, const Setup& s, Launch&& launch) {
  cudaEvent_t start, stop;
  if (cudaEventCreate(&start) != cudaSuccess || cudaEventCreate(&stop) != cudaSuccess) {
    state.SkipWithError(cudaGetErrorString(cudaGetLastError()));
    return false;
  }
  bool ok = true;
  for (auto _ : state) {
    float ms = 0;
    ok = cudaEventRecord(start) == cudaSuccess && launch() == cudaSuccess && cudaEventRecord(stop) == cudaSuccess &&
         cudaEventSynchronize(stop) == cudaSuccess && cudaEventElapsedTime(&ms, start, stop) == cudaSuccess;
    if (!ok) break;
    state.SetIterationTime(ms / 1000.0);
  }
  const cudaError_t e = cudaGetLastError();
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (!ok || e != cudaSuccess) {
    state.SkipWithError(cudaGetErrorString(e));
    return false;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * s.bytes()));
  state.counters["row_bytes"] = static_cast<double>(s.row_bytes);
  state.counters["ids"] = static_cast<double>(s.count);
  return true;
}

enum class Way { kAligned, kNaive, kCpuThenCopy, kMemcpy, kDevice, kAlignedFewSms, kSorted, kSortedFewSms };

double fraction_from_env(const char* name, double fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atof(v) : fallback;
}

// GPU 0's peers, or none with the reason in *why.
std::vector<int> peers_of_gpu0(std::string* why) {
  std::vector<int> peers = features::choose_peers(0, std::nullopt).peers;
  if (peers.empty()) *why = "needs a second GPU that GPU 0 can read (cudaDeviceCanAccessPeer): none here";
  return peers;
}

// A feature store's gather, ids from the host as store[ids] passes them;
// with_peers: the next TG_BENCH_PEER_FRACTION of rows on GPU 0's peers.
void TieredStore(benchmark::State& state, bool with_peers) {
  Setup& s = setup();
  const double fraction = fraction_from_env("TG_BENCH_GPU_FRACTION", 0.1);
  const double peer_fraction = with_peers ? fraction_from_env("TG_BENCH_PEER_FRACTION", 0.2) : 0.0;
  try {
    std::string why;
    const std::vector<int> peers = with_peers ? peers_of_gpu0(&why) : std::vector<int>{};
    if (with_peers && peers.empty()) {
      state.SkipWithError(why.c_str());
      return;
    }
    const features::TierPlan plan =
        features::plan_tiers({}, s.rows, {fraction, peer_fraction}, static_cast<uint32_t>(peers.size()));
    features::GpuTiers tiers({s.table.data(), s.rows, s.row_bytes, s.row_bytes}, plan, {0, 1.0, peers});
    const features::TierCounts counts = features::count_tiers(plan, s.ids);
    for (auto _ : state) {
      const auto start = std::chrono::steady_clock::now();
      std::shared_ptr<void> rows = tiers.gather(s.ids);
      state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    const auto share = [&](uint64_t hits) { return s.count > 0 ? static_cast<double>(hits) / s.count : 0.0; };
    state.counters["gpu_fraction"] = fraction;
    state.counters["hit_ratio"] = share(counts.gpu_hits);
    if (with_peers) {
      state.counters["peer_fraction"] = peer_fraction;
      state.counters["peer_hit_ratio"] = share(counts.peer_hits);
      state.counters["peers"] = static_cast<double>(peers.size());
    }
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * s.bytes()));
  state.counters["row_bytes"] = static_cast<double>(s.row_bytes);
  state.counters["ids"] = static_cast<double>(s.count);
}

// A store with every row in host memory, gathering into an output
// allocated once, as a training loop's gather_into does: the kernel held to
// TG_BENCH_SM_FRACTION of the SMs, with or without CPU threads sharing.
void HostStore(benchmark::State& state, bool cpu_share) {
  Setup& s = setup();
  uint8_t* out = nullptr;
  BENCH_CUDA(cudaMalloc(&out, s.bytes()));
  try {
    features::GpuTierOptions options{0, fraction_from_env("TG_BENCH_SM_FRACTION", 0.1)};
    options.cpu_share = cpu_share ? fraction_from_env("TG_BENCH_CPU_SHARE", -1.0) : 0.0;
    features::GpuTiers tiers({s.table.data(), s.rows, s.row_bytes, s.row_bytes}, features::plan_tiers({}, s.rows, {}),
                             options);
    for (auto _ : state) {
      const auto start = std::chrono::steady_clock::now();
      tiers.gather_into(s.ids, out, 0);
      if (cudaStreamSynchronize(nullptr) != cudaSuccess) throw std::runtime_error(cudaGetErrorString(cudaGetLastError()));
      state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    state.counters["cpu_share"] = tiers.cpu_share();
    state.counters["sm_fraction"] = options.sm_fraction;
  } catch (const std::exception& e) {
    cudaFree(out);
    state.SkipWithError(e.what());
    return;
  }
  cudaFree(out);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * s.bytes()));
  state.counters["row_bytes"] = static_cast<double>(s.row_bytes);
  state.counters["ids"] = static_cast<double>(s.count);
}

// The tiered kernel over rows in GPU memory only: on GPU 0's peers
// (interleaved, read over NVLink) and, with_local, an equal share on GPU 0
// itself. Each tier holds a copy of the table's first rows, not the rows the
// deal would put there: the rate does not depend on which bytes they are
// (GpuTiers' fill is tested in tests/gpu). Kernel time by CUDA events.
void PeerTier(benchmark::State& state, bool with_local) {
  Setup& s = setup();
  std::vector<uint8_t*> tiers;  // GPU 0's first, if any, then the peers'
  const auto free_tiers = [&] {
    for (uint8_t* t : tiers) {
      cudaPointerAttributes a{};
      if (cudaPointerGetAttributes(&a, t) == cudaSuccess) cudaSetDevice(a.device);
      cudaFree(t);
    }
    cudaSetDevice(0);
  };
  int64_t* ids = nullptr;
  uint8_t* out = nullptr;
  std::unique_ptr<features::RegisteredHostRows> registered;
  features::TieredTable table;
  std::vector<int> peers;
  try {
    std::string why;
    peers = peers_of_gpu0(&why);
    if (peers.empty()) {
      state.SkipWithError(why.c_str());
      return;
    }
    features::enable_peer_access(0, peers);
    registered = std::make_unique<features::RegisteredHostRows>(s.table.data(), s.rows, s.row_bytes, s.row_bytes);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  const uint64_t holders = peers.size() + (with_local ? 1 : 0);
  const uint64_t local_rows = with_local ? s.rows / holders : 0, peer_rows = s.rows - local_rows;
  table.host = registered->table();
  table.bounds = {local_rows, s.rows, static_cast<uint32_t>(peers.size())};
  const auto place = [&](int device, uint64_t rows) -> uint8_t* {
    uint8_t* p = nullptr;
    cudaSetDevice(device);
    const bool ok = cudaMalloc(&p, rows * s.row_bytes + 1) == cudaSuccess &&
                    cudaMemcpy(p, s.table.data(), rows * s.row_bytes, cudaMemcpyHostToDevice) == cudaSuccess;
    cudaSetDevice(0);
    if (p != nullptr) tiers.push_back(p);
    return ok ? p : nullptr;
  };
  bool placed = !with_local || (table.local = place(0, local_rows)) != nullptr;
  for (size_t i = 0; placed && i < peers.size(); ++i) {
    const uint64_t rows = (peer_rows + peers.size() - 1 - i) / peers.size();  // ranks r with r mod P == i
    placed = (table.peers[i] = place(peers[i], rows)) != nullptr;
  }
  if (!placed) {
    const std::string why = std::string("placing the tiers in GPU memory: ") + cudaGetErrorString(cudaGetLastError());
    free_tiers();
    state.SkipWithError(why.c_str());
    return;
  }
  BENCH_CUDA(cudaMalloc(&ids, s.count * sizeof(int64_t)));
  BENCH_CUDA(cudaMalloc(&out, s.bytes()));
  BENCH_CUDA(cudaMemcpy(ids, s.ids.data(), s.count * sizeof(int64_t), cudaMemcpyHostToDevice));
  const features::GatherRequest request{ids, nullptr, s.count, out};
  const bool timed = time_by_events(state, s, [&] {
    features::gather_tiered(table, request, 0, nullptr);
    return cudaSuccess;  // a failed launch throws; a fault shows at the event's synchronize
  });
  if (timed) {
    state.counters["peers"] = static_cast<double>(peers.size());
    state.counters["local_share"] = static_cast<double>(local_rows) / static_cast<double>(s.rows);
  }
  registered.reset();
  free_tiers();
  cudaFree(ids);
  cudaFree(out);
}

// Throws what CUDA says where a call fails (AllGpusHot's setup and loop,
// which must free every GPU's buffers on the way out).
void cuda_or_throw(cudaError_t e) {
  if (e != cudaSuccess) throw std::runtime_error(cudaGetErrorString(e));
}

// Every GPU gathers a batch of its own (the setup's ids, shifted per GPU) at
// once, each on its own stream, through the tiered kernel. from_host false:
// every row in the peer tier and the GPU itself among the "peers": rank r is
// read from GPU r mod P, locally where that is this GPU, over NVLink
// otherwise. from_host true: every row in host memory, each GPU reading its
// own copy of the table (registered for that GPU) by zero-copy over its own
// link: the aggregate host read rate of all links at once, which the
// several-GPU runs over parts in host memory are measured against. Each GPU's
// time is taken by its own events (events of two devices cannot be compared);
// the launches are microseconds apart against gathers of milliseconds, so the
// slowest GPU's time is the makespan.
void AllGpus(benchmark::State& state, bool from_host) {
  Setup& s = setup();
  int gpus = 0;
  BENCH_CUDA(cudaGetDeviceCount(&gpus));
  gpus = std::min<int>(gpus, static_cast<int>(features::kMaxPeers));
  if (gpus < 2) {
    state.SkipWithError("needs two GPUs or more");
    return;
  }
  struct PerGpu {
    std::vector<uint8_t> host_copy;  // from_host: this GPU's table
    std::unique_ptr<features::RegisteredHostRows> registered;
    features::TieredTable table;
    uint8_t* tier = nullptr;
    int64_t* ids = nullptr;
    uint8_t* out = nullptr;
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
  };
  std::vector<PerGpu> per(gpus);
  const auto release = [&] {
    for (int g = 0; g < gpus; ++g) {
      cudaSetDevice(g);
      per[g].registered.reset();
      cudaFree(per[g].tier);
      cudaFree(per[g].ids);
      cudaFree(per[g].out);
      if (per[g].stream) cudaStreamDestroy(per[g].stream);
      if (per[g].start) cudaEventDestroy(per[g].start);
      if (per[g].stop) cudaEventDestroy(per[g].stop);
    }
    cudaSetDevice(0);
  };
  features::TieredTable peer_table;
  peer_table.host = {nullptr, s.rows, s.row_bytes, s.row_bytes};
  peer_table.bounds = {0, s.rows, static_cast<uint32_t>(gpus)};
  std::string failed;
  try {
    for (int g = 0; g < gpus && from_host; ++g) {
      PerGpu& m = per[g];
      cuda_or_throw(cudaSetDevice(g));
      m.host_copy = s.table;
      m.registered = std::make_unique<features::RegisteredHostRows>(m.host_copy.data(), s.rows, s.row_bytes, s.row_bytes);
      m.table.host = m.registered->table();  // bounds {0, 0, 0}: every rank in host memory
    }
    for (int g = 0; g < gpus && failed.empty(); ++g) {
      std::vector<int> others;
      for (int q = 0; q < gpus; ++q) {
        int can = 0;
        if (q != g && (cudaDeviceCanAccessPeer(&can, g, q) != cudaSuccess || !can))
          failed = "GPU " + std::to_string(g) + " cannot read GPU " + std::to_string(q) + " (cudaDeviceCanAccessPeer)";
        if (q != g) others.push_back(q);
      }
      if (!failed.empty()) break;
      if (!from_host) features::enable_peer_access(g, others);
      PerGpu& m = per[g];
      const uint64_t rows = (s.rows + gpus - 1 - g) / gpus;  // ranks r with r mod P == g
      // From host memory the rows are read in order, as a rank's lists are:
      // random rows of a large table are bounded by address translation
      // (the scattered-read limit of PLATFORM.md), not by the link.
      std::vector<int64_t> ids(s.ids);
      for (size_t i = 0; i < ids.size(); ++i)
        ids[i] = from_host ? static_cast<int64_t>(i % s.rows) : (ids[i] + int64_t{7919} * g) % static_cast<int64_t>(s.rows);
      cuda_or_throw(cudaSetDevice(g));
      if (!from_host) {
        cuda_or_throw(cudaMalloc(&m.tier, rows * s.row_bytes + 1));
        cuda_or_throw(cudaMemcpy(m.tier, s.table.data(), rows * s.row_bytes, cudaMemcpyHostToDevice));
      }
      cuda_or_throw(cudaMalloc(&m.ids, s.count * sizeof(int64_t)));
      cuda_or_throw(cudaMemcpy(m.ids, ids.data(), s.count * sizeof(int64_t), cudaMemcpyHostToDevice));
      cuda_or_throw(cudaMalloc(&m.out, s.bytes()));
      cuda_or_throw(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking));
      cuda_or_throw(cudaEventCreate(&m.start));
      cuda_or_throw(cudaEventCreate(&m.stop));
      peer_table.peers[g] = m.tier;
    }
    if (!from_host)
      for (PerGpu& m : per) m.table = peer_table;
  } catch (const std::exception& e) {
    failed = e.what();
  }
  if (!failed.empty()) {
    release();
    state.SkipWithError(failed.c_str());
    return;
  }
  try {
    for (auto _ : state) {
      for (int g = 0; g < gpus; ++g) {
        cuda_or_throw(cudaSetDevice(g));
        cuda_or_throw(cudaEventRecord(per[g].start, per[g].stream));
        features::gather_tiered(per[g].table, {per[g].ids, nullptr, s.count, per[g].out}, 0, per[g].stream);
        cuda_or_throw(cudaEventRecord(per[g].stop, per[g].stream));
      }
      float slowest = 0;
      for (int g = 0; g < gpus; ++g) {
        float ms = 0;
        cuda_or_throw(cudaSetDevice(g));
        cuda_or_throw(cudaEventSynchronize(per[g].stop));
        cuda_or_throw(cudaEventElapsedTime(&ms, per[g].start, per[g].stop));
        slowest = std::max(slowest, ms);
      }
      state.SetIterationTime(slowest / 1000.0);
    }
  } catch (const std::exception& e) {
    failed = e.what();
  }
  release();
  if (!failed.empty()) {
    state.SkipWithError(failed.c_str());
    return;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * s.bytes() * gpus));
  state.counters["gpus"] = gpus;
  state.counters["row_bytes"] = static_cast<double>(s.row_bytes);
  state.counters["ids_per_gpu"] = static_cast<double>(s.count);
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
  const bool timed = time_by_events(state, s, [&]() -> cudaError_t {
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
      case Way::kCpuThenCopy:
        features::gather_rows_cpu(s.table.data(), s.row_bytes, s.row_bytes, s.ids, pinned);
        return cudaMemcpyAsync(out, pinned, s.bytes(), cudaMemcpyHostToDevice);
      case Way::kMemcpy: return cudaMemcpyAsync(out, pinned, s.bytes(), cudaMemcpyHostToDevice);
    }
    return cudaSuccess;
  });
  if (timed && (way == Way::kAlignedFewSms || way == Way::kSortedFewSms))
    state.counters["max_blocks"] = few_sms_blocks;
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
  benchmark::RegisterBenchmark("host_store_few_sms", [](benchmark::State& st) { HostStore(st, false); })
      ->UseManualTime();
  benchmark::RegisterBenchmark("host_store_few_sms_cpu_share", [](benchmark::State& st) { HostStore(st, true); })
      ->UseManualTime();
  benchmark::RegisterBenchmark("tiered_store", [](benchmark::State& st) { TieredStore(st, false); })->UseManualTime();
  benchmark::RegisterBenchmark("peer_resident", [](benchmark::State& st) { PeerTier(st, false); })->UseManualTime();
  benchmark::RegisterBenchmark("hot_local_and_peers", [](benchmark::State& st) { PeerTier(st, true); })
      ->UseManualTime();
  benchmark::RegisterBenchmark("tiered_store_peers", [](benchmark::State& st) { TieredStore(st, true); })
      ->UseManualTime();
  benchmark::RegisterBenchmark("all_gpus_hot", [](benchmark::State& st) { AllGpus(st, false); })->UseManualTime();
  benchmark::RegisterBenchmark("all_gpus_host", [](benchmark::State& st) { AllGpus(st, true); })->UseManualTime();
}

}  // namespace tg
