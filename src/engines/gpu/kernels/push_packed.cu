// The push over packed lists in GPU memory (push_packed.cuh), for 4-byte ids
// and every push operator of the algorithm registry with a weight band (the
// ones the subgraph placement's light lists serve): the only translation
// unit that compiles it (the streamed source sees step_args.h).
#include "engines/gpu/kernels/instantiate.cuh"
#include "engines/gpu/kernels/push_packed.cuh"

namespace tg::gpu::kernels {

template <typename V, typename Op>
struct PackedPush {
  static constexpr const void* entry = nullptr;
};
template <typename V, typename Op>
  requires(EdgeOperator<Op, V> && Op::needs_weights && HasWeightBand<Op>)
struct PackedPush<V, Op> {
  static inline const void* const entry = reinterpret_cast<const void*>(&push_packed_step<V, Op>);
};

}  // namespace tg::gpu::kernels

[[gnu::used]] static const void* const* tg_packed_push_steps_32 =
    ::tg::gpu::kernels::RegistryEntryTable<::tg::gpu::kernels::PackedPush, ::tg::vid32_t>::entries;
