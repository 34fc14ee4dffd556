#include "distributed/gpu/device_rank_graph.h"

#include <algorithm>
#include <cstring>

#include "distributed/gpu/push_kernels.cuh"
#include "distributed/rank_memory.h"

namespace tg::dist::gpu {
namespace {

// Each array starts on a 256-byte boundary, as cudaMalloc's would
// (distributed/rank_memory.h counts them so).
uint64_t rounded(uint64_t bytes) { return (bytes + 255) / 256 * 256; }

__global__ void find_chunk_rows(const eid_t* offsets, uint32_t rows, eid_t edges, uint64_t entries, uint32_t* out) {
  for (uint64_t c = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; c < entries; c += uint64_t{gridDim.x} * blockDim.x) {
    const eid_t e = c * kPushChunk < edges ? c * kPushChunk : edges - 1;
    out[c] = row_of_edge(offsets, 0, rows - 1, e);
  }
}

}  // namespace

DeviceRankGraph::DeviceRankGraph(const RankGraph& g, bool with_weights, PartMemory where) : where_(where) {
  storage_ = tg::gpu::DeviceArray<uint8_t>::allocate(part_memory(shape_of(g), with_weights).part(where == PartMemory::kDevice));
  view_.rank = g.rank;
  view_.num_ranks = g.num_ranks;
  view_.rank_shift = rank_shift_of(g.num_ranks);
  view_.num_normals = g.num_normals();
  view_.num_delegates = g.num_delegates();
  view_.nn = place(g.nn, with_weights);
  view_.nd = place(g.nd, with_weights);
  view_.dn = place(g.dn, with_weights);
  view_.dd = place(g.dd, with_weights);
  view_.local_of_slot = upload(g.local_of_slot);
}

DeviceRankGraph::~DeviceRankGraph() {
  for (void* p : registered_) cudaHostUnregister(p);
  for (void* p : pinned_copies_) cudaFreeHost(p);
}

template <typename T>
const T* DeviceRankGraph::upload(const Array<T>& a) {
  if (a.empty()) return nullptr;
  T* at = reinterpret_cast<T*>(storage_.data() + used_);
  TG_CUDA(cudaMemcpy(at, a.data(), a.bytes(), cudaMemcpyHostToDevice));
  used_ += rounded(a.bytes());
  return at;
}

template <typename T>
const T* DeviceRankGraph::map(const Array<T>& a) {
  if (a.empty()) return nullptr;
  void* host = const_cast<T*>(a.data());
  // Portable: the ranks of one process register from their own devices, and
  // whichever thread destroys the part unregisters.
  constexpr unsigned kFlags = cudaHostRegisterMapped | cudaHostRegisterPortable;
  if (tg::gpu::register_mapped_read_only(host, a.bytes(), kFlags) == cudaSuccess) {
    registered_.push_back(host);
  } else {
    cudaGetLastError();
    TG_CUDA(cudaHostAlloc(&host, a.bytes(), cudaHostAllocMapped | cudaHostAllocPortable));
    pinned_copies_.push_back(host);
    std::memcpy(host, a.data(), a.bytes());
  }
  void* device = nullptr;
  TG_CUDA(cudaHostGetDevicePointer(&device, host, 0));
  return static_cast<const T*>(device);
}

const uint32_t* DeviceRankGraph::index_chunks(const eid_t* offsets, uint64_t rows, eid_t edges) {
  const uint64_t entries = chunk_rows_entries(edges);
  if (entries == 0) return nullptr;
  uint32_t* at = reinterpret_cast<uint32_t*>(storage_.data() + used_);
  const unsigned blocks = static_cast<unsigned>(std::min<uint64_t>(tg::gpu::div_up(entries, tg::gpu::kBlock), 4096));
  find_chunk_rows<<<blocks, tg::gpu::kBlock>>>(offsets, static_cast<uint32_t>(rows), edges, entries, at);
  TG_CUDA_CHECK_LAUNCH();
  TG_CUDA(cudaDeviceSynchronize());
  used_ += rounded(entries * sizeof(uint32_t));
  return at;
}

template <typename N>
CsrView<N> DeviceRankGraph::place(const Csr<N>& csr, bool with_weights) {
  CsrView<N> view;
  view.offsets = upload(csr.offsets);
  const bool mapped = where_ == PartMemory::kHost;
  view.neighbors = mapped ? map(csr.neighbors) : upload(csr.neighbors);
  if (with_weights) view.weights = mapped ? map(csr.weights) : upload(csr.weights);
  view.chunk_rows = index_chunks(view.offsets, csr.offsets.size() - 1, csr.num_edges());
  return view;
}

}  // namespace tg::dist::gpu
