// A graph with its vertices renumbered: new id i is old vertex order[i]. For
// data tiering (issue 11): rows ordered by a score put the hot vertices first,
// so "the top fraction" is an id range, in the graph and in the feature rows
// alike (the dissertation's adjacency matrix reordering, Section 4.2.2).
#pragma once

#include <cstdint>
#include <span>

#include "graph/graph.h"

namespace tg {

// Throws a usage error (one line) unless order is a permutation of the
// graph's ids. Neighbour lists come out sorted by new id (weights follow);
// in-edges are renumbered too where they were built.
AnyGraph relabel(const AnyGraph& graph, std::span<const uint64_t> order);

}  // namespace tg
