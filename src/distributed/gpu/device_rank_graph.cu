#include "distributed/gpu/device_rank_graph.h"

namespace tg::dist::gpu {
namespace {

// Each array starts on a 256-byte boundary, as cudaMalloc's would.
uint64_t rounded(uint64_t bytes) { return (bytes + 255) / 256 * 256; }

template <typename N>
uint64_t csr_bytes(const Csr<N>& c, bool with_weights) {
  return rounded(c.offsets.bytes()) + rounded(c.neighbors.bytes()) + (with_weights ? rounded(c.weights.bytes()) : 0);
}

}  // namespace

uint64_t DeviceRankGraph::bytes_needed(const RankGraph& g, bool with_weights) {
  return csr_bytes(g.nn, with_weights) + csr_bytes(g.nd, with_weights) + csr_bytes(g.dn, with_weights) +
         csr_bytes(g.dd, with_weights) + rounded(g.local_of_slot.bytes());
}

DeviceRankGraph::DeviceRankGraph(const RankGraph& g, bool with_weights) {
  bytes_ = bytes_needed(g, with_weights);
  storage_ = tg::gpu::DeviceArray<uint8_t>::allocate(bytes_);
  view_.rank = g.rank;
  view_.num_ranks = g.num_ranks;
  view_.num_normals = g.num_normals();
  view_.num_delegates = g.num_delegates();
  view_.nn = upload(g.nn, with_weights);
  view_.nd = upload(g.nd, with_weights);
  view_.dn = upload(g.dn, with_weights);
  view_.dd = upload(g.dd, with_weights);
  view_.local_of_slot = upload(g.local_of_slot);
}

template <typename T>
const T* DeviceRankGraph::upload(const Array<T>& a) {
  if (a.empty()) return nullptr;
  T* at = reinterpret_cast<T*>(storage_.data() + used_);
  TG_CUDA(cudaMemcpy(at, a.data(), a.bytes(), cudaMemcpyHostToDevice));
  used_ += rounded(a.bytes());
  return at;
}

template <typename N>
CsrView<N> DeviceRankGraph::upload(const Csr<N>& csr, bool with_weights) {
  return {upload(csr.offsets), upload(csr.neighbors), with_weights ? upload(csr.weights) : nullptr};
}

}  // namespace tg::dist::gpu
