// A graph with its vertices renumbered: new id i is old vertex order[i]. For
// data tiering (issue 11): rows ordered by a score put the hot vertices first,
// so "the top fraction" is an id range, in the graph and in the feature rows
// alike (the dissertation's adjacency matrix reordering, Section 4.2.2).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "graph/graph.h"

namespace tg {

// Throws a usage error (one line) unless order is a permutation of the
// graph's ids. Neighbour lists come out sorted by new id (weights follow),
// or by weight then new id where the graph's were ordered by weight
// (graph/weight_order.h); in-edges are renumbered too where they were built.
AnyGraph relabel(const AnyGraph& graph, std::span<const uint64_t> order);

// Vertex ids by descending out-degree, ties by ascending id: relabelled in
// this order, the hubs' values sit in a few cache lines at the start of every
// per-vertex array, so a gather or a push that reads them by neighbour hits
// the cache where randomly numbered ids miss it (kron's generator permutes
// its ids, so its hubs are spread over the whole range).
std::vector<uint64_t> degree_order(const AnyGraph& graph);

// Whether the ids already run by non-increasing out-degree (degree_order's
// numbering, as `--vertex-order degree` and `convert --vertex-order degree`
// leave a graph): every list, sorted by id, then starts with its hubs, where
// a bottom-up step finds a frontier parent first (engines/direction.h).
template <typename V>
bool numbered_by_degree(const Csr<V>& out, uint64_t n);

}  // namespace tg
