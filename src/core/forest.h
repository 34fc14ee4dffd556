// Linking in a disjoint-set forest stored as one parent per vertex, where a
// root is its own parent and every parent is a smaller id than its child
// (CC's labels, algorithms/cc.h). Lock-free: concurrent links from many
// threads, or from a GPU's threads, leave the union of all of them.
#pragma once

#include "core/atomics.h"

namespace tg {

// Unites the trees of u and v as Afforest links: the larger root is set to
// point at the smaller, retried until the two share a root. Returns true
// where this call joined two trees.
template <typename V>
TG_HD bool forest_link(V* parent, V u, V v) {
  V p1 = atomic_load(&parent[u]);
  V p2 = atomic_load(&parent[v]);
  while (p1 != p2) {
    const V high = p1 > p2 ? p1 : p2;
    const V low = p1 > p2 ? p2 : p1;
    const V p_high = atomic_load(&parent[high]);
    if (p_high == low) return false;  // linked already
    if (p_high == high && compare_and_swap(&parent[high], high, low)) return true;
    p1 = atomic_load(&parent[p_high]);
    p2 = atomic_load(&parent[low]);
  }
  return false;
}

}  // namespace tg
