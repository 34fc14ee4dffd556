// How fast a GPU reads scattered 128-byte lines of host memory, by how the
// host memory was allocated and how large it is (issues 11 and 13: zero-copy
// edges and feature rows). PLATFORM.md found the rate falling from 51 GB/s at
// 128 MB to 5.6 GB/s at 8 GB, address translation rather than the link; this
// asks whether host memory the driver maps in large pages (cuMemCreate on the
// host, the virtual memory API) keeps the rate where pinned or registered
// 4 KiB pages do not.
//
//   tg_host_pages_probe [--gib 0.25,1,4,8] [--kinds alloc,register,vmm] [--lines-per-warp 256]
//
// Kinds: alloc (cudaHostAlloc, mapped), register (2 MiB-aligned malloc, huge
// pages asked for, cudaHostRegister: how the .tgb loader pins in place), vmm
// (cuMemCreate with a host location at the driver's recommended granularity,
// 2 MiB on the H100 machine; vmm-numa: on host NUMA node 0). One table row per kind and size: random
// lines (a warp a line, each lane 4 bytes) and an in-order read for the
// link's rate. Without a GPU it says so and exits 0.
//
// Measured on the H100 machine (docs/PERF.md, session 14): the same rate for
// every kind at every size (393 M lines/s at 256 MiB, 43 M at 8 GiB), so the
// bound is not the GPU's page size for host memory; the host side's
// translation of the device's reads (an IOMMU in the VM) is the suspect.
#include <cuda.h>
#include <cuda_runtime.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "probe_common.cuh"

namespace {

// A warp per line, four lines in flight per warp.
__global__ void random_lines(const uint32_t* base, uint64_t lines, int per_warp, uint64_t seed, unsigned* sink) {
  const uint64_t warp = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  uint32_t acc = 0;
  for (int i = 0; i < per_warp; i += 4) {
    uint32_t v[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const uint64_t line = mix(seed ^ (warp * 1315423911ull + i + j)) % lines;
      v[j] = base[line * 32 + lane];
    }
    acc ^= v[0] ^ v[1] ^ v[2] ^ v[3];
  }
  if (acc == 0x9e3779b9u) atomicAdd(sink, 1u);  // keeps the loads
}

// Every 16-byte word once, in order.
__global__ void in_order(const uint4* base, uint64_t words, unsigned* sink) {
  uint32_t acc = 0;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    const uint4 w = base[i];
    acc ^= w.x ^ w.y ^ w.z ^ w.w;
  }
  if (acc == 0x9e3779b9u) atomicAdd(sink, 1u);
}

template <typename F>
F entry(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status{};
  if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &status) != cudaSuccess ||
      status != cudaDriverEntryPointSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return reinterpret_cast<F>(fn);
}

struct Driver {
  CUresult (*create)(CUmemGenericAllocationHandle*, size_t, const CUmemAllocationProp*, unsigned long long) =
      entry<decltype(create)>("cuMemCreate");
  CUresult (*granularity)(size_t*, const CUmemAllocationProp*, CUmemAllocationGranularity_flags) =
      entry<decltype(granularity)>("cuMemGetAllocationGranularity");
  CUresult (*reserve)(CUdeviceptr*, size_t, size_t, CUdeviceptr, unsigned long long) =
      entry<decltype(reserve)>("cuMemAddressReserve");
  CUresult (*map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long) =
      entry<decltype(map)>("cuMemMap");
  CUresult (*set_access)(CUdeviceptr, size_t, const CUmemAccessDesc*, size_t) = entry<decltype(set_access)>("cuMemSetAccess");
  CUresult (*unmap)(CUdeviceptr, size_t) = entry<decltype(unmap)>("cuMemUnmap");
  CUresult (*release)(CUmemGenericAllocationHandle) = entry<decltype(release)>("cuMemRelease");
  CUresult (*free_va)(CUdeviceptr, size_t) = entry<decltype(free_va)>("cuMemAddressFree");
  bool complete() const { return create && granularity && reserve && map && set_access && unmap && release && free_va; }
};

const Driver& driver() {
  static const Driver d;
  return d;
}

struct HostBuffer {
  void* host = nullptr;    // what the CPU writes
  void* device = nullptr;  // what kernels read
  std::string note;
  std::function<void()> release;
};

HostBuffer make_alloc(size_t bytes) {
  HostBuffer b;
  CHECK(cudaHostAlloc(&b.host, bytes, cudaHostAllocMapped));
  CHECK(cudaHostGetDevicePointer(&b.device, b.host, 0));
  void* p = b.host;
  b.release = [p] { cudaFreeHost(p); };
  return b;
}

HostBuffer make_register(size_t bytes) {
  HostBuffer b;
  b.host = std::aligned_alloc(size_t{2} << 20, bytes);
  if (b.host == nullptr) {
    b.note = "aligned_alloc failed";
    return b;
  }
  madvise(b.host, bytes, MADV_HUGEPAGE);
  std::memset(b.host, 1, bytes);
  CHECK(cudaHostRegister(b.host, bytes, cudaHostRegisterMapped));
  CHECK(cudaHostGetDevicePointer(&b.device, b.host, 0));
  void* p = b.host;
  b.release = [p] {
    cudaHostUnregister(p);
    std::free(p);
  };
  return b;
}

// Host memory from the driver's virtual memory API: cuMemCreate with a host
// location at the recommended granularity, mapped for the GPU (and for the
// host where the driver grants it; else filled by the GPU).
HostBuffer make_vmm(size_t bytes, bool numa_node_0) {
  HostBuffer b;
  const Driver& d = driver();
  if (!d.complete()) {
    b.note = "the driver lacks the virtual memory entry points";
    return b;
  }
  int device = 0;
  CHECK(cudaGetDevice(&device));
  const CUmemLocationType host = numa_node_0 ? CU_MEM_LOCATION_TYPE_HOST_NUMA : CU_MEM_LOCATION_TYPE_HOST;
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = host;
  prop.location.id = 0;
  size_t g = 0;
  if (d.granularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) != CUDA_SUCCESS || g == 0) {
    b.note = "the driver gives no granularity for host allocations";
    return b;
  }
  const size_t size = (bytes + g - 1) / g * g;
  CUmemGenericAllocationHandle handle{};
  if (CUresult r = d.create(&handle, size, &prop, 0); r != CUDA_SUCCESS) {
    b.note = "cuMemCreate on the host refused (" + std::to_string(static_cast<int>(r)) + ")";
    return b;
  }
  CUdeviceptr va = 0;
  if (d.reserve(&va, size, g, 0, 0) != CUDA_SUCCESS) {
    d.release(handle);
    b.note = "cuMemAddressReserve refused";
    return b;
  }
  if (d.map(va, size, 0, handle, 0) != CUDA_SUCCESS) {
    d.free_va(va, size);
    d.release(handle);
    b.note = "cuMemMap refused";
    return b;
  }
  b.release = [&d, va, size, handle] {
    d.unmap(va, size);
    d.release(handle);
    d.free_va(va, size);
  };
  CUmemAccessDesc access[2]{};
  access[0].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access[0].location.id = device;
  access[0].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  access[1].location.type = host;
  access[1].location.id = 0;
  access[1].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  const bool host_access = d.set_access(va, size, access, 2) == CUDA_SUCCESS;
  if (!host_access && d.set_access(va, size, access, 1) != CUDA_SUCCESS) {
    b.release();
    b.release = nullptr;
    b.note = "cuMemSetAccess refused the GPU";
    return b;
  }
  b.device = reinterpret_cast<void*>(va);
  b.host = host_access ? b.device : nullptr;
  b.note = "granularity " + std::to_string(g >> 10) + " KiB" + (host_access ? ", host access" : ", GPU access only");
  return b;
}

// "0.25,1,4": sizes in GiB, each from 1 MiB to 1 TiB; empty on anything else.
std::vector<double> parse_list(const char* s) {
  std::vector<double> out;
  for (const char* p = s; *p;) {
    char* end = nullptr;
    const double g = std::strtod(p, &end);
    if (end == p || !(g >= 1.0 / 1024) || g > 1024) return {};
    out.push_back(g);
    p = end;
    if (*p == ',') ++p;
    else if (*p) return {};
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<double> gib = {0.25, 1, 4, 8};
  std::string kinds = "alloc,register,vmm";
  int per_warp = 256;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--gib" && i + 1 < argc) {
      gib = parse_list(argv[++i]);
      if (gib.empty()) {
        std::fprintf(stderr, "%s: --gib: expected sizes in GiB from 1 MiB (0.001) to 1 TiB, comma-separated (e.g. 0.25,1,4), got '%s'\n",
                     argv[0], argv[i]);
        return 2;
      }
    }
    else if (a == "--kinds" && i + 1 < argc) kinds = argv[++i];
    else if (a == "--lines-per-warp" && i + 1 < argc) per_warp = std::max(4, std::atoi(argv[++i]) / 4 * 4);
    else {
      std::fprintf(stderr, "usage: %s [--gib 0.25,1,4,8] [--kinds alloc,register,vmm,vmm-numa] [--lines-per-warp 256]\n", argv[0]);
      return 2;
    }
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no usable GPU: nothing measured\n");
    return 0;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  unsigned* sink = nullptr;
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  std::printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
  std::printf("%-9s %7s %14s %10s %12s  %s\n", "kind", "GiB", "M lines/s", "GB/s", "in order", "note");
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (size_t at = 0; at <= kinds.size();) {
    const size_t comma = kinds.find(',', at);
    const std::string kind = kinds.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    at = comma == std::string::npos ? kinds.size() + 1 : comma + 1;
    for (double g : gib) {
      const size_t bytes = static_cast<size_t>(g * (1ull << 30)) / 128 * 128;
      const auto t0 = std::chrono::steady_clock::now();
      HostBuffer b = kind == "alloc" ? make_alloc(bytes)
                     : kind == "register" ? make_register(bytes)
                     : kind == "vmm" ? make_vmm(bytes, false)
                     : kind == "vmm-numa" ? make_vmm(bytes, true)
                                          : HostBuffer{};
      if (b.device == nullptr) {
        std::printf("%-9s %7.2f %14s %10s %12s  %s\n", kind.c_str(), g, "-", "-", "-",
                    b.note.empty() ? "unknown kind" : b.note.c_str());
        continue;
      }
      if (b.host != nullptr && kind != "register") std::memset(b.host, 1, bytes);
      else if (b.host == nullptr) CHECK(cudaMemset(b.device, 1, bytes));
      const double setup_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const uint64_t lines = bytes / 128;
      const unsigned threads = 256;
      const unsigned blocks = static_cast<unsigned>(prop.multiProcessorCount) * 8;
      const uint64_t warps = static_cast<uint64_t>(blocks) * threads / 32;
      random_lines<<<blocks, threads>>>(static_cast<const uint32_t*>(b.device), lines, per_warp, 1, sink);  // warm-up
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(start));
      random_lines<<<blocks, threads>>>(static_cast<const uint32_t*>(b.device), lines, per_warp, 2, sink);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      const double read = static_cast<double>(warps) * per_warp;
      CHECK(cudaEventRecord(start));
      in_order<<<blocks, threads>>>(static_cast<const uint4*>(b.device), bytes / 16, sink);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float seq_ms = 0;
      CHECK(cudaEventElapsedTime(&seq_ms, start, stop));
      char note[256];
      std::snprintf(note, sizeof note, "setup %.1f s%s%s", setup_s, b.note.empty() ? "" : "; ", b.note.c_str());
      std::printf("%-9s %7.2f %14.1f %10.2f %9.2f GB/s  %s\n", kind.c_str(), g, read / ms / 1e3, read * 128 / ms / 1e6,
                  bytes / seq_ms / 1e6, note);
      std::fflush(stdout);
      b.release();
    }
  }
  return 0;
}
