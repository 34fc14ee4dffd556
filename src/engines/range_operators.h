// A vertex range as a filter predicate, for engines that cut a step in
// ranges (the hybrid engine's split steps). Device code too.
#pragma once

#include "core/types.h"
#include "engines/engine.h"

namespace tg {

// Vertices in [begin, end): a filter that makes a push's sources.
template <typename V>
struct VertexRange {
  V begin, end;
  TG_HD bool operator()(V v) const { return v >= begin && v < end; }
};

}  // namespace tg
