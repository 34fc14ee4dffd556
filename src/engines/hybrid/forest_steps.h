// What the hybrid engine's split forest steps (HasForest in engines/engine.h)
// run on the accelerator: device code as well.
#pragma once

#include "core/forest.h"

namespace tg::hybrid {

// Vertices in [begin, end): the accelerator's sources, as a filter.
template <typename V>
struct VertexRange {
  V begin, end;
  TG_HD bool operator()(V v) const { return v >= begin && v < end; }
};

// Links every vertex to its parent in the other side's forest: the union of
// the two sides' links.
template <typename V>
struct JoinForest {
  V* parent;
  const V* other;
  TG_HD void operator()(V v) const {
    const V p = other[v];
    if (p != v) forest_link(parent, v, p);
  }
};

}  // namespace tg::hybrid
