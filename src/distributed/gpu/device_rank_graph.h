// One rank's part of a degree-separated partition (distributed/partition.h)
// copied into its GPU's memory, and the plain view kernels take.
#pragma once

#include <cstdint>

#include "core/types.h"
#include "distributed/partition.h"
#include "engines/gpu/cuda_util.h"

namespace tg::dist::gpu {

template <typename N>
struct CsrView {
  const eid_t* offsets = nullptr;
  const N* neighbors = nullptr;
  const weight_t* weights = nullptr;  // where placed with weights and the graph has them
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
};

class DeviceRankGraph {
 public:
  // Copies on the current device, the weights too where asked (SSSP) and
  // the graph has them; bytes() says how much it took.
  explicit DeviceRankGraph(const RankGraph& g, bool with_weights = false);
  // What the copy will take, to check against free memory first.
  static uint64_t bytes_needed(const RankGraph& g, bool with_weights = false);

  const RankView& view() const { return view_; }
  uint64_t bytes() const { return bytes_; }

 private:
  template <typename N>
  CsrView<N> upload(const Csr<N>& csr, bool with_weights);
  template <typename T>
  const T* upload(const Array<T>& a);

  tg::gpu::DeviceArray<uint8_t> storage_;  // one allocation for every array
  uint64_t bytes_ = 0;
  uint64_t used_ = 0;
  RankView view_;
};

}  // namespace tg::dist::gpu
