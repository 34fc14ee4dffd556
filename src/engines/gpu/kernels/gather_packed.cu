// The gather over packed lists (gather_packed.cuh), for 4-byte ids and every
// gather operator of the algorithm registry that reads no weights: the only
// translation unit that compiles it (the streamed source sees step_args.h).
#include "engines/gpu/kernels/gather_packed.cuh"
#include "engines/gpu/kernels/instantiate.cuh"

namespace tg::gpu::kernels {

template <typename V, typename Op>
struct PackedStep {
  static constexpr const void* entry = nullptr;
};
template <typename V, typename Op>
  requires(GatherOperator<Op, V> && !Op::needs_weights)
struct PackedStep<V, Op> {
  static inline const void* const entry = reinterpret_cast<const void*>(&gather_packed_step<V, Op>);
};

}  // namespace tg::gpu::kernels

[[gnu::used]] static const void* const* tg_packed_steps_32 =
    ::tg::gpu::kernels::RegistryEntryTable<::tg::gpu::kernels::PackedStep, ::tg::vid32_t>::entries;
