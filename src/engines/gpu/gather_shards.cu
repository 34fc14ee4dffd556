// Building Garaph's shards in GPU memory (gather_shards.h): the in-offsets
// come down once, the plan is made on the host (engines/shard_plan.h), and a
// warp per vertex writes its in-edges' IdxOff.
#include "engines/gpu/gather_shards.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <string>

#include "core/env_count.h"
#include "core/error.h"
#include "engines/gpu_footprint.h"
#include "engines/shard_plan.h"

namespace tg::gpu {
namespace {

// Block per shard, a warp per vertex of it: idx_off[e] = v - the shard's
// first vertex for each of v's in-edges e. Long lists (R = 0) are left: the
// shard kernel never reads theirs.
__global__ void idx_off_kernel(const eid_t* offsets, const uint64_t* starts, const uint8_t* replicas,
                               uint64_t shards, uint16_t* idx_off) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  for (uint64_t s = blockIdx.x; s < shards; s += gridDim.x) {
    if (replicas[s] == 0) continue;
    const uint64_t s0 = starts[s], s1 = starts[s + 1];
    for (uint64_t v = s0 + warp; v < s1; v += warps) {
      const uint16_t off = static_cast<uint16_t>(v - s0);
      for (eid_t e = offsets[v] + lane; e < offsets[v + 1]; e += 32) idx_off[e] = off;
    }
  }
}

}  // namespace

template <typename V>
const ShardLayout<V>& GatherShards<V>::layout(const CsrView<V>& in, uint64_t n, uint64_t m, uint64_t acc_bytes,
                                              int sms) {
  if (layout_ && layout_->acc_bytes == acc_bytes) return *layout_;
  layout_.reset();
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<eid_t> offsets(n + 1);
  TG_CUDA(cudaMemcpy(offsets.data(), in.offsets, (n + 1) * sizeof(eid_t), cudaMemcpyDeviceToHost));
  // TG_SHARD_REPLICATION=R: every shard R copies (for measuring the rule
  // against none or a fixed R, as the paper did).
  // TG_SHARD_SHARED_KIB=K: K KiB of accumulators a block (1 to 48, default
  // 24), for measuring the occupancy against the shards' sizes.
  const uint64_t shared = std::clamp<uint64_t>(env_count("TG_SHARD_SHARED_KIB", kShardSharedBytes >> 10), 1, 48) << 10;
  const ShardPlan plan = plan_shards(offsets.data(), n, std::max<uint64_t>(shared / acc_bytes, 32), kShardEdges,
                                     static_cast<int>(env_count("TG_SHARD_REPLICATION", 0)));
  const uint64_t shards = plan.shards();
  const uint64_t bytes = m * sizeof(uint16_t) + (shards + 1) * sizeof(uint64_t) + shards +
                         plan.long_lists.size() * sizeof(V);
  size_t free_bytes = 0, total_bytes = 0;
  TG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (bytes > room_ || bytes + kGpuMemoryMargin > free_bytes)
    throw Error("--gather-layout shards: the shards take " + std::to_string(bytes >> 20) +
                " MiB of GPU memory beside the edges (a 2-byte destination offset an edge), the budget leaves " +
                std::to_string(std::min<uint64_t>(room_, free_bytes > kGpuMemoryMargin ? free_bytes - kGpuMemoryMargin : 0) >> 20) +
                " MiB; raise --gpu-mem or use --gather-layout lists");
  auto l = std::make_unique<ShardLayout<V>>();
  l->acc_bytes = acc_bytes;
  l->slots = plan.slots;
  l->starts = plan.starts;
  l->long_lists = plan.long_lists;
  l->device_starts = DeviceArray<uint64_t>::allocate(shards + 1);
  l->replicas = DeviceArray<uint8_t>::allocate(shards);
  l->idx_off = DeviceArray<uint16_t>::allocate(m);
  std::vector<V> long_ids(plan.long_lists.begin(), plan.long_lists.end());
  l->device_long_lists = DeviceArray<V>::allocate(long_ids.size());
  TG_CUDA(cudaMemcpy(l->device_starts.data(), plan.starts.data(), (shards + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice));
  if (shards > 0)
    TG_CUDA(cudaMemcpy(l->replicas.data(), plan.replicas.data(), shards, cudaMemcpyHostToDevice));
  if (!long_ids.empty())
    TG_CUDA(cudaMemcpy(l->device_long_lists.data(), long_ids.data(), long_ids.size() * sizeof(V), cudaMemcpyHostToDevice));
  if (shards > 0) {
    idx_off_kernel<<<static_cast<unsigned>(sms) * 8, 256>>>(in.offsets, l->device_starts.data(), l->replicas.data(),
                                                            shards, l->idx_off.data());
    TG_CUDA_CHECK_LAUNCH();
    TG_CUDA(cudaDeviceSynchronize());
  }
  stats_ = ShardStats{};
  stats_.shards = shards;
  stats_.long_lists = plan.long_lists.size();
  for (uint64_t v : plan.long_lists) stats_.long_list_edges += offsets[v + 1] - offsets[v];
  stats_.slots = plan.slots;
  stats_.max_edges = plan.max_edges;
  for (size_t i = 0; i < shards; ++i) {
    const unsigned r = plan.replicas[i];
    if (r == 0) continue;
    const int k = std::countr_zero(r);  // R = 2^k
    stats_.shards_by_replication[k]++;
    stats_.edges_by_replication[k] += offsets[plan.starts[i + 1]] - offsets[plan.starts[i]];
  }
  stats_.bytes = bytes;
  stats_.build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  layout_ = std::move(l);
  return *layout_;
}

template class GatherShards<uint32_t>;
template class GatherShards<uint64_t>;

}  // namespace tg::gpu
