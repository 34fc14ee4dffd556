#include "distributed/gpu/device_rank_graph.h"

#include <cstring>

#include "distributed/rank_memory.h"

namespace tg::dist::gpu {
namespace {

// Each array starts on a 256-byte boundary, as cudaMalloc's would
// (distributed/rank_memory.h counts them so).
uint64_t rounded(uint64_t bytes) { return (bytes + 255) / 256 * 256; }

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
  cudaError_t e = cudaHostRegister(host, a.bytes(), kFlags | cudaHostRegisterReadOnly);
  if (e != cudaSuccess) {
    cudaGetLastError();
    e = cudaHostRegister(host, a.bytes(), kFlags);
  }
  if (e == cudaSuccess) {
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

template <typename N>
CsrView<N> DeviceRankGraph::place(const Csr<N>& csr, bool with_weights) {
  if (where_ == PartMemory::kHost)
    return {upload(csr.offsets), map(csr.neighbors), with_weights ? map(csr.weights) : nullptr};
  return {upload(csr.offsets), upload(csr.neighbors), with_weights ? upload(csr.weights) : nullptr};
}

}  // namespace tg::dist::gpu
