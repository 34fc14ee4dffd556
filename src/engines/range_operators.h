// Operators that restrict a step to a range of vertices, for engines that
// cut a step in ranges (the hybrid engine's split steps). Device code too:
// the GPU build compiles kernels for TargetsIn of every forest operator
// (engines/gpu/kernels/instantiate.cuh).
#pragma once

#include "core/types.h"
#include "engines/engine.h"

namespace tg {

// The operator, for targets in [begin, end) only: a pull then reads the
// in-edges of those targets alone.
template <typename Op, typename V>
struct TargetsIn {
  static constexpr bool needs_weights = Op::needs_weights;
  Op op;
  V begin, end;
  TG_HD bool cond(V v) const { return v >= begin && v < end && op.cond(v); }
  TG_HD bool update(V u, V v, weight_t w) const { return op.update(u, v, w); }
  TG_HD bool update_atomic(V u, V v, weight_t w) const { return op.update_atomic(u, v, w); }
};

// Vertices in [begin, end): a filter that makes a push's sources.
template <typename V>
struct VertexRange {
  V begin, end;
  TG_HD bool operator()(V v) const { return v >= begin && v < end; }
};

}  // namespace tg
