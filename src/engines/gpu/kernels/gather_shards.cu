// The gather over Garaph's shards (gather_shards.cuh), for 4- and 8-byte ids
// and every gather operator of the algorithm registry: the only translation
// unit that compiles it (the resident source sees step_args.h).
#include "engines/gpu/kernels/gather_shards.cuh"
#include "engines/gpu/kernels/instantiate.cuh"

namespace tg::gpu::kernels {

template <typename V, typename Op>
struct ShardStep {
  static constexpr const void* entry = nullptr;
};
template <typename V, typename Op>
  requires GatherOperator<Op, V>
struct ShardStep<V, Op> {
  static inline const void* const entry = reinterpret_cast<const void*>(&gather_shards_step<V, Op>);
};

}  // namespace tg::gpu::kernels

[[gnu::used]] static const void* const* tg_shard_steps_32 =
    ::tg::gpu::kernels::RegistryEntryTable<::tg::gpu::kernels::ShardStep, ::tg::vid32_t>::entries;
[[gnu::used]] static const void* const* tg_shard_steps_64 =
    ::tg::gpu::kernels::RegistryEntryTable<::tg::gpu::kernels::ShardStep, ::tg::vid64_t>::entries;
