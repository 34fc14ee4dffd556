// VmmHostBuffer (vmm_host.h): the driver's entry points looked up through the
// runtime, so nothing links libcuda.
#include "engines/gpu/vmm_host.h"

#include <cuda.h>
#include <cuda_runtime.h>

namespace tg::gpu {

namespace {

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

}  // namespace

std::unique_ptr<VmmHostBuffer> VmmHostBuffer::allocate(size_t bytes, bool numa_node_0, std::string* why) {
  const Driver& d = driver();
  if (!d.complete()) {
    *why = "the driver lacks the virtual memory entry points";
    return nullptr;
  }
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    *why = "no current GPU";
    return nullptr;
  }
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = numa_node_0 ? CU_MEM_LOCATION_TYPE_HOST_NUMA : CU_MEM_LOCATION_TYPE_HOST;
  prop.location.id = 0;
  size_t g = 0;
  if (d.granularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) != CUDA_SUCCESS || g == 0) {
    *why = "the driver gives no granularity for host allocations";
    return nullptr;
  }
  std::unique_ptr<VmmHostBuffer> b(new VmmHostBuffer);
  b->granularity_ = g;
  b->size_ = (bytes + g - 1) / g * g;
  CUmemGenericAllocationHandle handle{};
  if (CUresult r = d.create(&handle, b->size_, &prop, 0); r != CUDA_SUCCESS) {
    *why = "cuMemCreate on the host refused (" + std::to_string(static_cast<int>(r)) + ")";
    return nullptr;
  }
  b->handle_ = handle;
  CUdeviceptr va = 0;
  if (d.reserve(&va, b->size_, g, 0, 0) != CUDA_SUCCESS) {
    d.release(handle);
    *why = "cuMemAddressReserve refused";
    return nullptr;
  }
  if (d.map(va, b->size_, 0, handle, 0) != CUDA_SUCCESS) {
    d.free_va(va, b->size_);
    d.release(handle);
    *why = "cuMemMap refused";
    return nullptr;
  }
  b->data_ = reinterpret_cast<void*>(va);
  CUmemAccessDesc access[2]{};
  access[0].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access[0].location.id = device;
  access[0].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  access[1].location.type = numa_node_0 ? CU_MEM_LOCATION_TYPE_HOST_NUMA : CU_MEM_LOCATION_TYPE_HOST;
  access[1].location.id = 0;
  access[1].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  b->host_access_ = d.set_access(va, b->size_, access, 2) == CUDA_SUCCESS;
  if (!b->host_access_ && d.set_access(va, b->size_, access, 1) != CUDA_SUCCESS) {
    *why = "cuMemSetAccess refused the GPU";
    return nullptr;  // the destructor unmaps and releases
  }
  return b;
}

VmmHostBuffer::~VmmHostBuffer() {
  const Driver& d = driver();
  if (data_ == nullptr) {
    if (handle_) d.release(handle_);
    return;
  }
  const CUdeviceptr va = reinterpret_cast<CUdeviceptr>(data_);
  d.unmap(va, size_);
  d.release(handle_);
  d.free_va(va, size_);
}

}  // namespace tg::gpu
