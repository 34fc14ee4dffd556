// relabel_on_gpu (engines/gpu_relabel.h): per CSR, the new degrees gathered
// and scanned into offsets, a warp a list copying its entries with their new
// ids, CUB's segmented sort of every list, then the arrays back.
#include "engines/gpu_relabel.h"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "engines/gpu/cuda_util.h"
#include "engines/run.h"

namespace tg {
namespace {

using gpu::DeviceArray;

constexpr unsigned kThreads = 256;

unsigned grid_for_items(uint64_t items) {
  return static_cast<unsigned>(std::min<uint64_t>((items + kThreads - 1) / kThreads, uint64_t{1} << 20));
}

__global__ void new_ids(const uint64_t* old_of, uint64_t n, uint32_t* new_of) {
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < n; i += gridDim.x * uint64_t{blockDim.x})
    new_of[old_of[i]] = static_cast<uint32_t>(i);
}

// degree[i] = the degree of old_of[i]; degree[n] = 0 (the scan's total).
__global__ void new_degrees(const eid_t* offsets, const uint64_t* old_of, uint64_t n, eid_t* degree) {
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i <= n; i += gridDim.x * uint64_t{blockDim.x})
    degree[i] = i < n ? offsets[old_of[i] + 1] - offsets[old_of[i]] : 0;
}

// A warp a new list: the old list's entries with their new ids.
__global__ void copy_lists(const eid_t* offsets, const uint32_t* ids, const uint64_t* old_of, const eid_t* new_offsets,
                           const uint32_t* new_of, uint64_t n, uint32_t* out_ids) {
  const uint64_t warps = gridDim.x * uint64_t{blockDim.x} / 32;
  const unsigned lane = threadIdx.x & 31;
  for (uint64_t i = (blockIdx.x * uint64_t{blockDim.x} + threadIdx.x) / 32; i < n; i += warps) {
    const uint64_t v = old_of[i];
    const eid_t from = offsets[v], count = offsets[v + 1] - from, at = new_offsets[i];
    for (eid_t k = lane; k < count; k += 32) out_ids[at + k] = new_of[ids[from + k]];
  }
}

template <typename T>
DeviceArray<T> upload(const Array<T>& a) {
  DeviceArray<T> d = DeviceArray<T>::allocate(a.size());
  if (a.size() > 0) TG_CUDA(cudaMemcpy(d.data(), a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <typename T>
Array<T> download(const T* d, uint64_t n) {
  Array<T> a = Array<T>::allocate(n);
  if (n > 0) TG_CUDA(cudaMemcpy(a.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return a;
}

// What one CSR takes on the device at its peak: the old and new offsets,
// the order both ways, the lists three times over (before and after the
// sort, and as much again for CUB's own storage).
uint64_t peak_bytes(const Csr<uint32_t>& c, uint64_t n) {
  return 2 * (n + 1) * sizeof(eid_t) + n * 12 + 3 * c.num_edges() * sizeof(uint32_t);
}

Csr<uint32_t> relabel_csr(const Csr<uint32_t>& csr, const DeviceArray<uint64_t>& old_of,
                          const DeviceArray<uint32_t>& new_of, uint64_t n, gpu::ScratchPool& pool) {
  const uint64_t m = csr.num_edges();
  const DeviceArray<eid_t> offsets = upload(csr.offsets);
  const DeviceArray<uint32_t> ids = upload(csr.neighbors);
  DeviceArray<eid_t> new_offsets = DeviceArray<eid_t>::allocate(n + 1);
  new_degrees<<<grid_for_items(n + 1), kThreads>>>(offsets.data(), old_of.data(), n, new_offsets.data());
  TG_CUDA_CHECK_LAUNCH();
  eid_t* no = new_offsets.data();
  gpu::run_cub(pool, [&](void* tmp, size_t& b) { return cub::DeviceScan::ExclusiveSum(tmp, b, no, no, n + 1); });
  Csr<uint32_t> out;
  out.offsets = download(no, n + 1);
  DeviceArray<uint32_t> unsorted = DeviceArray<uint32_t>::allocate(m), sorted = DeviceArray<uint32_t>::allocate(m);
  copy_lists<<<grid_for_items(n * 32), kThreads>>>(offsets.data(), ids.data(), old_of.data(), no, new_of.data(), n,
                                                    unsorted.data());
  TG_CUDA_CHECK_LAUNCH();
  gpu::run_cub(pool, [&](void* tmp, size_t& b) {
    return cub::DeviceSegmentedSort::SortKeys(tmp, b, unsorted.data(), sorted.data(), static_cast<int64_t>(m),
                                              static_cast<int64_t>(n), no, no + 1);
  });
  out.neighbors = download(sorted.data(), m);
  return out;
}

}  // namespace

std::optional<AnyGraph> relabel_on_gpu(const AnyGraph& graph, std::span<const uint64_t> order, int device,
                                       std::string* why_not) {
  auto refuse = [&](const std::string& why) -> std::optional<AnyGraph> {
    if (why_not) *why_not = why;
    return std::nullopt;
  };
  const auto* g = std::get_if<Graph<uint32_t>>(&graph);
  if (g == nullptr) return refuse("8-byte ids");
  if (g->weighted()) return refuse("weighted lists");
  std::string reason;
  if (!gpu_available(&reason)) return refuse(reason);
  TG_CUDA(cudaSetDevice(device));
  const uint64_t n = g->num_vertices;
  if (order.size() != n) return refuse("the order is not one id a vertex");
  uint64_t peak = peak_bytes(g->out, n);
  if (g->directed && g->in.built()) peak = std::max(peak, peak_bytes(g->in, n));
  size_t free_bytes = 0, total_bytes = 0;
  TG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (peak + (uint64_t{1} << 30) > free_bytes) return refuse("the arrays do not fit in the GPU's free memory");
  gpu::ScratchPool pool;
  DeviceArray<uint64_t> old_of = DeviceArray<uint64_t>::allocate(n);
  if (n > 0) TG_CUDA(cudaMemcpy(old_of.data(), order.data(), n * sizeof(uint64_t), cudaMemcpyHostToDevice));
  DeviceArray<uint32_t> new_of = DeviceArray<uint32_t>::allocate(n);
  new_ids<<<grid_for_items(n), kThreads>>>(old_of.data(), n, new_of.data());
  TG_CUDA_CHECK_LAUNCH();
  Graph<uint32_t> r;
  r.num_vertices = n;
  r.directed = g->directed;
  r.id_base = 0;
  r.name = g->name + " (relabelled)";
  r.out = relabel_csr(g->out, old_of, new_of, n, pool);
  if (g->directed && g->in.built()) r.in = relabel_csr(g->in, old_of, new_of, n, pool);
  TG_CUDA(cudaDeviceSynchronize());
  return AnyGraph(std::move(r));
}

}  // namespace tg
