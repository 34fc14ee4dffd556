// Garaph's shards of the device placement's in-edges (engines/shard_plan.h),
// for `--gather-layout shards`: the plan, its arrays in GPU memory and the
// IdxOff array (a 16-bit destination offset per in-edge), built at the first
// gather and shared by every run of a batch (copies of DeviceGraph share one
// of these). The gather itself is kernels/gather_shards.cuh.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engines/gpu/cuda_util.h"
#include "engines/gpu/kernels/step_args.h"
#include "engines/run_stats.h"
#include "engines/shard_plan.h"

namespace tg::gpu {

template <typename V>
struct ShardLayout {
  uint64_t acc_bytes = 0;  // the accumulator size the plan was made for
  uint64_t slots = 0;
  std::vector<uint64_t> starts;      // host copies, to clip a gather to a range of vertices
  std::vector<uint64_t> long_lists;
  DeviceArray<uint64_t> device_starts;
  DeviceArray<uint8_t> replicas;
  DeviceArray<uint16_t> idx_off;  // m entries
  DeviceArray<V> device_long_lists;
};

template <typename V>
class GatherShards {
 public:
  // room: GPU bytes the layout may take beside the placement (its budget less
  // the edges placed).
  explicit GatherShards(uint64_t room) : room_(room) {}

  // The layout of the in-CSR `in` (n vertices, m entries) for accumulators of
  // acc_bytes, its IdxOff written by a grid for `sms` SMs; built on the first
  // call (again if acc_bytes changes). Throws tg::Error where it does not fit.
  const ShardLayout<V>& layout(const CsrView<V>& in, uint64_t n, uint64_t m, uint64_t acc_bytes, int sms);
  bool built() const { return layout_ != nullptr; }
  ShardStats stats() const { return stats_; }

 private:
  uint64_t room_;
  std::unique_ptr<ShardLayout<V>> layout_;
  ShardStats stats_;
};

}  // namespace tg::gpu
