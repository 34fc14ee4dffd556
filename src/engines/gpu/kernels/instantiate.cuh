// Compiles the traversal kernels of one access pattern for every operator of
// the algorithm registry (each descriptor's `operators` list), for 4- and
// 8-byte vertex ids. Included by the access_*.cu files, one per Access, so
// that the five patterns compile in parallel and no other translation unit
// compiles a kernel: the engine and the edge sources see step_args.h only.
//
// An explicit instantiation cannot loop over a type list, so the step
// functions are referenced from a table instead: a table held by a used
// variable keeps every function it points to in the object file.
#pragma once

#include <cstdint>

#include "algorithms/registry.h"
#include "engines/engine.h"
#include "engines/gpu/kernels/gather.cuh"
#include "engines/gpu/kernels/pull.cuh"
#include "engines/gpu/kernels/push.cuh"

namespace tg::gpu::kernels {

// Every algorithm's operators, in one list (repeats are harmless).
template <typename... L>
struct Concat;
template <>
struct Concat<> {
  using type = OperatorList<>;
};
template <typename... A>
struct Concat<OperatorList<A...>> {
  using type = OperatorList<A...>;
};
template <typename... A, typename... B, typename... Rest>
struct Concat<OperatorList<A...>, OperatorList<B...>, Rest...> {
  using type = typename Concat<OperatorList<A..., B...>, Rest...>::type;
};

template <typename V, typename Registry>
struct RegistryOperators;
template <typename V, typename... Alg>
struct RegistryOperators<V, AlgorithmList<Alg...>> {
  using type = typename Concat<typename Alg::template operators<V>...>::type;
};

template <Access A, typename V, typename Op>
struct OperatorSteps;
template <Access A, typename V, typename Op>
  requires EdgeOperator<Op, V>
struct OperatorSteps<A, V, Op> {
  static inline const void* const entries[] = {reinterpret_cast<const void*>(&push_step<A, V, Op>),
                                               reinterpret_cast<const void*>(&pull_step<A, V, Op>)};
};
template <Access A, typename V, typename Op>
  requires GatherOperator<Op, V>
struct OperatorSteps<A, V, Op> {
  static inline const void* const entries[] = {reinterpret_cast<const void*>(&gather_step<A, V, Op>)};
};

template <Access A, typename V, typename List>
struct StepTable;
template <Access A, typename V, typename... Ops>
struct StepTable<A, V, OperatorList<Ops...>> {
  static inline const void* const* const entries[] = {OperatorSteps<A, V, Ops>::entries...};
};

template <Access A, typename V>
using RegistryStepTable = StepTable<A, V, typename RegistryOperators<V, Algorithms>::type>;

// One step function a registry operator, for the files that compile a step
// of their own (gather_packed.cu, push_packed.cu): Entry<V, Op>::entry, null
// where the operator takes no such step.
template <template <typename, typename> class Entry, typename V, typename List>
struct EntryTable;
template <template <typename, typename> class Entry, typename V, typename... Ops>
struct EntryTable<Entry, V, OperatorList<Ops...>> {
  static inline const void* const entries[] = {Entry<V, Ops>::entry...};
};

template <template <typename, typename> class Entry, typename V>
using RegistryEntryTable = EntryTable<Entry, V, typename RegistryOperators<V, Algorithms>::type>;

}  // namespace tg::gpu::kernels

// In an access_*.cu file: every registry operator's steps for that access.
#define TG_GPU_COMPILE_STEPS(ACCESS)                                                                  \
  [[gnu::used]] static const void* const* const* tg_steps_32 =                                       \
      ::tg::gpu::kernels::RegistryStepTable<::tg::gpu::Access::ACCESS, ::tg::vid32_t>::entries;      \
  [[gnu::used]] static const void* const* const* tg_steps_64 =                                       \
      ::tg::gpu::kernels::RegistryStepTable<::tg::gpu::Access::ACCESS, ::tg::vid64_t>::entries;
