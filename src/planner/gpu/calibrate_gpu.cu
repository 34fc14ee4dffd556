// calibrate's GPU micro-benchmarks (planner/calibrate.h): copies over the
// link, pinning in place, zero-copy lines in address order and at random by
// footprint, device memory read in order and at random by footprint, and the
// fixed cost of a step, and forest links (CC's) by footprint. Each is the
// best of a few runs, timed with CUDA events after a warm-up.
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/array.h"
#include "core/forest.h"
#include "engines/gpu/cuda_util.h"
#include "planner/calibrate.h"

namespace tg::planner {

namespace {

__device__ __forceinline__ uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

// A warp per 128-byte line, lanes reading its 32 words; lines in address order.
__global__ void read_lines(const uint32_t* data, uint64_t lines, uint32_t* sink) {
  const uint64_t warps = uint64_t(gridDim.x) * blockDim.x / 32;
  uint32_t acc = 0;
  for (uint64_t l = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; l < lines; l += warps)
    acc += data[l * 32 + threadIdx.x % 32];
  if (acc == 0x12345678u) *sink = acc;
}

// A warp per random 128-byte line among `lines`, `per_warp` of them.
__global__ void read_random_lines(const uint32_t* data, uint64_t lines, int per_warp, uint32_t* sink) {
  const uint64_t warp = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  uint32_t acc = 0;
  for (int i = 0; i < per_warp; ++i) acc += data[(mix(warp * 1024 + i) % lines) * 32 + threadIdx.x % 32];
  if (acc == 0x12345678u) *sink = acc;
}

// Each thread reads `per_thread` random 4-byte words among `words`.
__global__ void read_random_words(const uint32_t* data, uint64_t words, int per_thread, uint32_t* sink) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  uint32_t acc = 0;
  for (int i = 0; i < per_thread; ++i) acc += data[mix(t * 64 + i) % words];
  if (acc == 0x12345678u) *sink = acc;
}

// A forest of `n` single-vertex trees.
__global__ void make_roots(uint32_t* parent, uint32_t n) {
  for (uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) parent[v] = v;
}

// CC's linking of every edge (core/forest.h's forest_link) over the lists of
// a random graph of `per_vertex` entries a list, read as the engine reads a
// CSR: consecutive threads take consecutive entries, so a list's links share
// its source and find its root in cache, and the trees grow into one whose
// root the later links chase and contend for.
__global__ void link_random_lists(uint32_t* parent, uint32_t n, uint32_t per_vertex) {
  const uint64_t links = uint64_t(n) * per_vertex, stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < links; i += stride)
    forest_link(parent, uint32_t(i / per_vertex), uint32_t(mix(i + 1) % n));
}

__global__ void empty_kernel() {}

struct Events {
  cudaEvent_t a, b;
  Events() {
    TG_CUDA(cudaEventCreate(&a));
    TG_CUDA(cudaEventCreate(&b));
  }
  ~Events() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  // The least time of `rounds` runs after a warm-up; `prepare`, untimed,
  // before each (a run that changes what the next one reads resets it).
  template <typename F>
  double best_seconds(int rounds, F run) {
    return best_seconds(rounds, run, [] {});
  }
  template <typename F, typename P>
  double best_seconds(int rounds, F run, P prepare) {
    prepare();
    run();  // warm-up
    TG_CUDA(cudaDeviceSynchronize());
    float best = 1e30f;
    for (int r = 0; r < rounds; ++r) {
      prepare();
      TG_CUDA(cudaEventRecord(a));
      run();
      TG_CUDA(cudaEventRecord(b));
      TG_CUDA(cudaEventSynchronize(b));
      float ms = 0;
      TG_CUDA(cudaEventElapsedTime(&ms, a, b));
      best = std::min(best, ms);
    }
    return best / 1e3;
  }
};

// "what: 51.1 GB/s" (unit with a G: rate / 1e9) or "what: 43.7 M lines/s" (with an M: rate / 1e6).
std::string rate_text(const char* what, double rate, const char* unit) {
  char t[160];
  std::snprintf(t, sizeof t, "%s: %.1f %s", what, unit[0] == 'M' ? rate / 1e6 : rate / 1e9, unit);
  return t;
}

// A device's UUID as nvidia-smi prints it: "GPU-" and 32 hex digits in five groups.
std::string uuid_text(const cudaUUID_t& id) {
  const auto* b = reinterpret_cast<const unsigned char*>(id.bytes);
  std::string uuid = "GPU-";
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) uuid += '-';
    std::snprintf(hex, sizeof hex, "%02x", b[i]);
    uuid += hex;
  }
  return uuid;
}

}  // namespace

GpuIdentity gpu_identity(int device) {
  int count = 0;
  cudaDeviceProp prop{};
  if (cudaGetDeviceCount(&count) != cudaSuccess || device < 0 || device >= count ||
      cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();  // a failed query is no error of the run's
    return {};
  }
  return {prop.name, uuid_text(prop.uuid)};
}

void calibrate_gpu(MachineProfile& profile, const CalibrateOptions& options) {
  auto say = [&](const std::string& s) {
    if (options.progress) options.progress(s);
  };
  TG_CUDA(cudaSetDevice(options.device));
  cudaDeviceProp prop{};
  TG_CUDA(cudaGetDeviceProperties(&prop, options.device));
  size_t free_bytes = 0, total_bytes = 0;
  TG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const size_t bytes = (options.quick ? size_t{256} : size_t{1024}) << 20;
  if (free_bytes < bytes + (size_t{512} << 20))
    throw Error("calibrate needs " + std::to_string((bytes >> 20) + 512) + " MiB of free GPU memory, " + prop.name +
                " has " + std::to_string(free_bytes >> 20) + " MiB free");
  profile.gpu = prop.name;
  profile.gpu_uuid = uuid_text(prop.uuid);
  profile.gpu_memory_bytes = total_bytes;
  const int sms = prop.multiProcessorCount;
  Events ev;
  uint32_t* sink = nullptr;
  TG_CUDA(cudaMalloc(&sink, sizeof(uint32_t)));
  uint32_t* dev = nullptr;
  TG_CUDA(cudaMalloc(&dev, bytes));
  TG_CUDA(cudaMemset(dev, 1, bytes));
  void* pinned = nullptr;
  TG_CUDA(cudaHostAlloc(&pinned, bytes, cudaHostAllocMapped));
  std::memset(pinned, 1, bytes);

  profile.link_copy = bytes / ev.best_seconds(3, [&] { TG_CUDA(cudaMemcpy(dev, pinned, bytes, cudaMemcpyHostToDevice)); });
  say(rate_text("copy, pinned host -> GPU", profile.link_copy, "GB/s"));
  {
    std::vector<char> pageable(bytes, 1);
    profile.pageable_copy =
        bytes / ev.best_seconds(2, [&] { TG_CUDA(cudaMemcpy(dev, pageable.data(), bytes, cudaMemcpyHostToDevice)); });
  }
  say(rate_text("copy, ordinary host memory -> GPU", profile.pageable_copy, "GB/s"));
  {
    // Pinning in place, as the zero-copy placements do with the graph's arrays.
    void* anon = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (anon == MAP_FAILED) throw Error("calibrate: cannot allocate host memory");
    ::madvise(anon, bytes, MADV_HUGEPAGE);
    std::memset(anon, 1, bytes);
    double best = 1e30;
    for (int r = 0; r < 2; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      TG_CUDA(cudaHostRegister(anon, bytes, cudaHostRegisterMapped));
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      TG_CUDA(cudaHostUnregister(anon));
    }
    ::munmap(anon, bytes);
    profile.host_register = bytes / best;
  }
  say(rate_text("pinning ordinary memory in place", profile.host_register, "GB/s"));

  uint32_t* mapped = nullptr;
  TG_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped), pinned, 0));
  const uint64_t lines = bytes / 128;
  profile.zero_copy_lines = bytes / ev.best_seconds(3, [&] {
    read_lines<<<sms * 8, 256>>>(mapped, lines, sink);
    TG_CUDA_CHECK_LAUNCH();
  });
  say(rate_text("zero-copy, 128-byte lines in address order", profile.zero_copy_lines, "GB/s"));
  // Random 128-byte lines over the first `footprint` bytes of `data`, a warp
  // each, into `rates` (the profile's zero_copy_random unless named).
  auto random_lines = [&](const uint32_t* data, uint64_t footprint, FootprintRates* rates = nullptr,
                          const char* what = "zero-copy, random lines over ") {
    const int per_warp = 16;
    const uint64_t warps = uint64_t(sms) * 64;
    const double s = ev.best_seconds(3, [&] {
      read_random_lines<<<warps * 32 / 256, 256>>>(data, footprint / 128, per_warp, sink);
      TG_CUDA_CHECK_LAUNCH();
    });
    (rates ? rates : &profile.zero_copy_random)->points.emplace_back(double(footprint), double(warps * per_warp) / s);
    say(rate_text((what + std::to_string(footprint >> 20) + " MiB").c_str(), double(warps * per_warp) / s,
                  "M lines/s"));
  };
  profile.zero_copy_random.points.clear();
  for (uint64_t footprint : {uint64_t{16} << 20, uint64_t{128} << 20, uint64_t{1} << 30})
    if (footprint <= bytes) random_lines(mapped, footprint);
  if (!options.quick) {
    // Graphs' edge arrays span gigabytes, where translation misses dominate.
    const uint64_t big = uint64_t{4} << 30;
    void* wide = nullptr;
    if (cudaHostAlloc(&wide, big, cudaHostAllocMapped) == cudaSuccess) {
      std::memset(wide, 1, big);
      uint32_t* wide_mapped = nullptr;
      TG_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&wide_mapped), wide, 0));
      random_lines(wide_mapped, big);
      TG_CUDA(cudaFreeHost(wide));
    } else {
      cudaGetLastError();
      say("zero-copy over 4 GiB: no pinned memory for it, left out");
    }
    // The same reads over memory pinned as the engine pins a graph's arrays
    // (gpu/placed_graph.cu: tg::Array storage registered in place,
    // read-only), whose pages the host may back otherwise than
    // cudaHostAlloc's.
    profile.zero_copy_random_in_place.points.clear();
    Array<uint32_t> in_place = Array<uint32_t>::allocate(big / sizeof(uint32_t));
    std::memset(in_place.data(), 1, big);
    if (gpu::register_mapped_read_only(in_place.data(), big) == cudaSuccess) {
      uint32_t* in_place_mapped = nullptr;
      TG_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&in_place_mapped), in_place.data(), 0));
      for (uint64_t footprint : {uint64_t{1} << 30, big})
        random_lines(in_place_mapped, footprint, &profile.zero_copy_random_in_place,
                     "zero-copy pinned in place as a graph, random lines over ");
      TG_CUDA(cudaHostUnregister(in_place.data()));
    } else {
      cudaGetLastError();
      say("zero-copy pinned in place: cudaHostRegister refused, left out");
    }
  }

  profile.device_read = bytes / ev.best_seconds(5, [&] {
    read_lines<<<sms * 16, 256>>>(dev, lines, sink);
    TG_CUDA_CHECK_LAUNCH();
  });
  say(rate_text("GPU memory, in order", profile.device_read, "GB/s"));
  // 16 MiB lies within the L2 (50 MiB on the H100 and H200), 64 MiB just
  // past it, where the L2 still serves much: the H200 read 140, 75, 47 and
  // 42 G a second at 16, 64, 256 and 1024 MiB (docs/gpu-check/2026-12-02f).
  profile.device_random.points.clear();
  for (uint64_t footprint : {uint64_t{16} << 20, uint64_t{64} << 20, uint64_t{256} << 20, uint64_t{1} << 30}) {
    if (footprint > bytes) continue;
    const int per_thread = 32;
    const uint64_t threads = uint64_t(sms) * 2048;
    const double s = ev.best_seconds(3, [&] {
      read_random_words<<<threads / 256, 256>>>(dev, footprint / 4, per_thread, sink);
      TG_CUDA_CHECK_LAUNCH();
    });
    profile.device_random.points.emplace_back(double(footprint), double(threads * per_thread) / s);
    say(rate_text(("GPU memory, random 4-byte reads over " + std::to_string(footprint >> 20) + " MiB").c_str(),
                  double(threads * per_thread) / s, "G reads/s"));
  }

  // Forest links (CC's linking of every edge, core/forest.h) over parent
  // arrays of a few footprints, lists of 16 random entries (a graph of
  // average degree 16): a link reads both labels, chases them to their roots
  // and swaps one.
  profile.device_links.points.clear();
  for (uint64_t footprint : {uint64_t{16} << 20, uint64_t{256} << 20, uint64_t{1} << 30}) {
    if (footprint > bytes) continue;
    const uint32_t n = uint32_t(footprint / 4), per_vertex = 16;
    const uint64_t links = uint64_t{per_vertex} * n;
    const double s = ev.best_seconds(
        2,
        [&] {
          link_random_lists<<<sms * 8, 256>>>(dev, n, per_vertex);
          TG_CUDA_CHECK_LAUNCH();
        },
        [&] {  // every run links a fresh forest
          make_roots<<<sms * 8, 256>>>(dev, n);
          TG_CUDA_CHECK_LAUNCH();
        });
    const double rate = double(links) / s;
    profile.device_links.points.emplace_back(double(footprint), rate);
    say(rate_text(("GPU memory, forest links over " + std::to_string(footprint >> 20) + " MiB").c_str(), rate,
                  "G links/s"));
  }

  // A step: a launch and a 4-byte count back to the host (the engine's frontier size).
  uint32_t host_count = 0;
  const int launches = 200;
  const double s = ev.best_seconds(3, [&] {
    for (int i = 0; i < launches; ++i) {
      empty_kernel<<<1, 32>>>();
      TG_CUDA_CHECK_LAUNCH();
      TG_CUDA(cudaMemcpy(&host_count, sink, sizeof host_count, cudaMemcpyDeviceToHost));
    }
  });
  profile.step_overhead_s = s / launches;
  say("a step (launch and a count back): " + std::to_string(profile.step_overhead_s * 1e6) + " us");

  TG_CUDA(cudaFreeHost(pinned));
  TG_CUDA(cudaFree(dev));
  TG_CUDA(cudaFree(sink));
}

}  // namespace tg::planner
