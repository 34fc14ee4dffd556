// Can a thread block cluster's shared memory serve PageRank's most-read
// values faster than the L2 (issue 13: PageRank in GPU memory, which gathers
// its values at the L2's random-read rate; engines/gpu/staged_values.h)?
// A stream of source ids drawn as GAP's Kronecker generator draws edge ends
// (each of the scale bits set with p = 0.24), numbered hubs first (fewest set
// bits first, as `convert --vertex-order degree` numbers a kron graph), is
// gathered from a float array of 2^scale values: all from global memory, or
// the first hot ids from the shared memory of a cluster of C blocks (each
// holding its share, its partner's read as distributed shared memory), by one
// generic load or by a predicated pair (global for cold, cluster for hot),
// with one or four loads in flight a thread. Rates in G values a second.
//
//   tg_staged_values_probe [--scale 25] [--gathers 268435456]
//
// Measured on the H100 (docs/PERF.md, session 50): global at best 140.7 G/s;
// a cluster of two blocks of 128 KiB (65536 hot ids, 41% of the reads) 175.2
// with four loads in flight (136.4 with one); one block's 32 K values 152.3;
// clusters of four or more slower than global. Without a GPU it says so and
// exits 0.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "probe_common.cuh"

namespace cg = cooperative_groups;

namespace {

// Edge ends as GAP's generator draws them (A = 0.57, B = C = 0.19: a bit set
// with p = B + D = 0.24), renamed by `rank` (hubs first).
__global__ void draw_kron(uint32_t* ids, size_t m, const uint32_t* rank, int scale, uint64_t seed) {
  constexpr uint32_t kSet = 1030792151u;  // 0.24 x 2^32
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < m; i += size_t{gridDim.x} * blockDim.x) {
    uint32_t v = 0;
    for (int b = 0; b < scale; b += 2) {
      const uint64_t r = mix(seed ^ (i * 64 + b));
      if (static_cast<uint32_t>(r) < kSet) v |= 1u << b;
      if (b + 1 < scale && static_cast<uint32_t>(r >> 32) < kSet) v |= 1u << (b + 1);
    }
    ids[i] = rank[v];
  }
}

template <int kUnroll, typename Read>
__device__ inline float sum_stream(const uint32_t* ids, size_t m, const Read& read) {
  float s = 0;
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (kUnroll > 1)
    for (; i + 3 * stride < m; i += 4 * stride) {
      const uint32_t a = ids[i], b = ids[i + stride], c = ids[i + 2 * stride], d = ids[i + 3 * stride];
      s += read(a) + read(b) + read(c) + read(d);
    }
  for (; i < m; i += stride) s += read(ids[i]);
  return s;
}

template <int kUnroll>
__global__ void gather_global(const uint32_t* ids, size_t m, const float* __restrict__ values, float* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum_stream<kUnroll>(ids, m, [&](uint32_t u) { return __ldg(values + u); });
}

// kPair 0: one generic load from either memory; 1: a predicated pair.
template <int kPair, int kUnroll>
__global__ void gather_cluster(const uint32_t* ids, size_t m, const float* __restrict__ values, float* out,
                               uint32_t per) {
  extern __shared__ float share[];
  const cg::cluster_group cluster = cg::this_cluster();
  const uint32_t hot = per * cluster.num_blocks();
  for (uint32_t j = threadIdx.x; j < per; j += blockDim.x) share[j] = values[cluster.block_rank() * per + j];
  cluster.sync();
  const float s = sum_stream<kUnroll>(ids, m, [&](uint32_t u) {
    if (kPair == 0) return *(u < hot ? cluster.map_shared_rank(share + u % per, u / per) : values + u);
    float g = 0.f, h = 0.f;
    if (u >= hot) g = __ldg(values + u);
    if (u < hot) h = *cluster.map_shared_rank(share + u % per, u / per);
    return g + h;
  });
  cluster.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

constexpr const char* kUsage = "usage: tg_staged_values_probe [--scale 12..30] [--gathers 1024..2^32]\n";

int usage(const std::string& why) {
  std::fprintf(stderr, "tg_staged_values_probe: %s\n%s", why.c_str(), kUsage);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int scale = 25;
  size_t m = size_t{256} << 20;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::printf("Gathers a hubs-first Kronecker id stream's values from global memory or a cluster's shared memory.\n%s",
                  kUsage);
      return 0;
    }
    if (i + 1 >= argc) return usage("missing value after " + a);
    char* end = nullptr;
    const unsigned long long x = std::strtoull(argv[++i], &end, 10);
    if (*end != '\0' || argv[i][0] == '-') return usage(a + ": not a whole number: " + argv[i]);
    if (a == "--scale" && x >= 12 && x <= 30) scale = static_cast<int>(x);
    else if (a == "--gathers" && x >= 1024 && x <= (size_t{4} << 30)) m = x;
    else return usage(a + " " + argv[i] + ": out of range or unknown");
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("tg_staged_values_probe: no GPU; nothing measured\n");
    return 0;
  }
  int sms = 0, clusters_ok = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&clusters_ok, cudaDevAttrClusterLaunch, 0));
  const uint32_t n = 1u << scale;
  std::vector<uint32_t> rank(n), start(scale + 2, 0);  // hubs first: by set bits, then by id
  for (uint32_t v = 0; v < n; ++v) start[__builtin_popcount(v) + 1]++;
  for (int k = 1; k <= scale + 1; ++k) start[k] += start[k - 1];
  for (uint32_t v = 0; v < n; ++v) rank[v] = start[__builtin_popcount(v)]++;
  uint32_t *d_rank = nullptr, *d_ids = nullptr;
  float *d_values = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_rank, n * size_t{4}));
  CHECK(cudaMemcpy(d_rank, rank.data(), n * size_t{4}, cudaMemcpyHostToDevice));
  CHECK(cudaMalloc(&d_ids, m * 4));
  CHECK(cudaMalloc(&d_values, n * size_t{4}));
  CHECK(cudaMalloc(&d_out, size_t(sms) * 2048 * 4));
  CHECK(cudaMemset(d_values, 0, n * size_t{4}));
  draw_kron<<<sms * 8, 256>>>(d_ids, m, d_rank, scale, 12345);
  CHECK(cudaGetLastError());
  std::vector<uint32_t> sample(std::min<size_t>(m, 1 << 20));
  CHECK(cudaMemcpy(sample.data(), d_ids, sample.size() * 4, cudaMemcpyDeviceToHost));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  auto rate = [&](auto launch) {  // best of three after a warm-up, in G values a second
    launch();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    float best = 1e30f;
    for (int t = 0; t < 3; ++t) {
      CHECK(cudaEventRecord(e0));
      launch();
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      best = std::min(best, ms);
    }
    return m / (best * 1e6);
  };
  std::printf("%d SMs, kron scale %d hubs first, %zu gathers\n", sms, scale, m);
  for (int threads : {256, 1024}) {
    const unsigned blocks = sms * 2048 / threads;
    std::printf("global, %4d threads x %u blocks, 1 load in flight:  %.1f G/s\n", threads, blocks,
                rate([&] { gather_global<1><<<blocks, threads>>>(d_ids, m, d_values, d_out); }));
    std::printf("global, %4d threads x %u blocks, 4 loads in flight: %.1f G/s\n", threads, blocks,
                rate([&] { gather_global<4><<<blocks, threads>>>(d_ids, m, d_values, d_out); }));
  }
  if (!clusters_ok) {
    std::printf("this GPU runs no thread block clusters: nothing more to measure\n");
    return 0;
  }
  using Kernel = void (*)(const uint32_t*, size_t, const float*, float*, uint32_t);
  const Kernel kernels[2][2] = {{gather_cluster<0, 1>, gather_cluster<0, 4>}, {gather_cluster<1, 1>, gather_cluster<1, 4>}};
  for (const auto& row : kernels)
    for (Kernel k : row) CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  struct Shape { unsigned cluster; uint32_t per; };
  for (const Shape c : {Shape{1, 32768}, Shape{2, 16384}, Shape{2, 32768}, Shape{2, 49152}, Shape{4, 16384}}) {
    const uint32_t hot = c.cluster * c.per;
    if (hot > n) continue;
    const size_t hits = std::count_if(sample.begin(), sample.end(), [&](uint32_t u) { return u < hot; });
    for (int pair = 0; pair < 2; ++pair)
      for (int unroll = 0; unroll < 2; ++unroll) {
        cudaLaunchAttribute dims{};
        dims.id = cudaLaunchAttributeClusterDimension;
        dims.val.clusterDim = {c.cluster, 1, 1};
        cudaLaunchConfig_t config{};
        config.gridDim = dim3(c.cluster);
        config.blockDim = dim3(1024);
        config.dynamicSmemBytes = size_t{c.per} * 4;
        config.attrs = &dims;
        config.numAttrs = 1;
        int clusters = 0;
        CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernels[pair][unroll], &config));
        if (clusters == 0) continue;
        config.gridDim = dim3(clusters * c.cluster);
        const double r = rate([&] {
          CHECK(cudaLaunchKernelEx(&config, kernels[pair][unroll], static_cast<const uint32_t*>(d_ids), m,
                                static_cast<const float*>(d_values), d_out, c.per));
        });
        std::printf("cluster %u x %3u KiB (hot %6u: %4.1f%% of reads), %3d clusters, %s, %d in flight: %.1f G/s\n",
                    c.cluster, c.per / 256, hot, 100.0 * hits / sample.size(), clusters,
                    pair ? "predicated pair" : "generic load   ", unroll ? 4 : 1, r);
      }
  }
  return 0;
}
