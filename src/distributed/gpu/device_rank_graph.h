// One rank's part of a degree-separated partition (distributed/partition.h)
// copied into its GPU's memory, and the plain view kernels take.
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.h"
#include "distributed/degree_separation.h"
#include "distributed/partition.h"
#include "engines/gpu/cuda_util.h"

namespace tg::dist::gpu {

template <typename N>
struct CsrView {
  const eid_t* offsets = nullptr;
  const N* neighbors = nullptr;
  const weight_t* weights = nullptr;  // where placed with weights and the graph has them
  // The row of every kPushChunkEdges-th edge, and the last edge's row after
  // them (rank_memory.h): where push_kernels.cuh's chunks start, found once
  // at placement instead of by a search per chunk every round.
  const uint32_t* chunk_rows = nullptr;
};

struct RankView {
  int rank = 0;
  int num_ranks = 1;
  uint32_t num_normals = 0;
  uint32_t num_delegates = 0;
  CsrView<uint64_t> nn;  // normal -> normal, neighbours global ids
  CsrView<uint32_t> nd;  // normal -> delegate ids
  CsrView<uint32_t> dn;  // delegate -> local ids
  CsrView<uint32_t> dd;  // delegate -> delegate ids
  const uint32_t* local_of_slot = nullptr;
  int rank_shift = -1;  // degree_separation.h's rank_shift_of(num_ranks)
};

TG_HD RankOf rank_of(const RankView& g, uint64_t v) { return dist::rank_of(v, g.num_ranks, g.rank_shift); }

// The edges stored on this rank of local normal l (its nn and nd lists) or of
// delegate k (its dn and dd lists): on the GPU from a view, on the host from
// the rank's part.
TG_HD eid_t normal_edges_here(const RankView& g, uint64_t l) {
  return (g.nn.offsets[l + 1] - g.nn.offsets[l]) + (g.nd.offsets[l + 1] - g.nd.offsets[l]);
}
TG_HD eid_t delegate_edges_here(const RankView& g, uint64_t k) {
  return (g.dn.offsets[k + 1] - g.dn.offsets[k]) + (g.dd.offsets[k + 1] - g.dd.offsets[k]);
}
inline eid_t delegate_edges_here(const RankGraph& g, uint64_t k) {
  return (g.dn.offsets[k + 1] - g.dn.offsets[k]) + (g.dd.offsets[k + 1] - g.dd.offsets[k]);
}

// Where a rank's neighbour lists (and weights) live: copied into its GPU's
// memory, or left in host memory and read by zero-copy (issue 10's "beyond
// GPU memory": registered in place, so no second copy in host memory; every
// rank's GPU reads its own part over its own link at once). Offsets and
// local_of_slot are copied to the GPU either way.
enum class PartMemory { kDevice, kHost };

class DeviceRankGraph {
 public:
  // Places the part on the current device, the weights too where asked
  // (SSSP) and the graph has them: distributed/rank_memory.h's part_memory
  // counts what it takes.
  DeviceRankGraph(const RankGraph& g, bool with_weights = false, PartMemory where = PartMemory::kDevice);
  ~DeviceRankGraph();
  DeviceRankGraph(const DeviceRankGraph&) = delete;
  DeviceRankGraph& operator=(const DeviceRankGraph&) = delete;

  const RankView& view() const { return view_; }

 private:
  template <typename N>
  CsrView<N> place(const Csr<N>& csr, bool with_weights);
  template <typename T>
  const T* upload(const Array<T>& a);
  const uint32_t* index_chunks(const eid_t* offsets, uint64_t rows, eid_t edges);
  // The array's pages registered for the GPU to read in place (a pinned copy
  // where the OS refuses, as for a memory-mapped file); its device address.
  template <typename T>
  const T* map(const Array<T>& a);

  PartMemory where_;
  tg::gpu::DeviceArray<uint8_t> storage_;  // one allocation for every array copied
  uint64_t used_ = 0;
  std::vector<void*> registered_, pinned_copies_;
  RankView view_;
};

}  // namespace tg::dist::gpu
