// Neighbour lists ordered by weight: each list ascending by weight, ties by
// neighbour id (the builder orders them by id). SSSP then reads only the
// light entries of a list in a bucket's rounds and its heavy ones once after
// (Meyer and Sanders' split; algorithms/sssp.h), where an engine walks a list
// by weight band (the GPU engine's resident placements). `--lists-by-weight`
// orders a graph as it loads, or once into a .tgb with `tiergraph convert`.
#pragma once

#include <string>

#include "graph/graph.h"

namespace tg {

// Every out-list's weights ascending (the in-lists are not looked at); false
// for an unweighted graph. Stops at the first list out of order, so an
// unordered graph costs a few lists, an ordered one a pass over its weights.
bool lists_ordered_by_weight(const AnyGraph& graph);

// Orders every list (out, and the CSC of a directed graph where built) by
// weight, then id, in place. The graph must be weighted and its arrays
// writable (not a mapped .tgb).
void order_lists_by_weight(AnyGraph& graph);

// The same, asked for by `what` (a file or a spec): a usage error (one line)
// where the graph has no weights.
void order_lists_by_weight(AnyGraph& graph, const std::string& what);

// Every list's entries of weight under `below`, in their order, as a CSR of
// the same vertices (SSSP's light edges: the subgraph placement copies these
// alone in a bucket's light rounds). The csr must be weighted.
template <typename V>
Csr<V> light_sublists(const Csr<V>& csr, uint64_t n, weight_t below);

}  // namespace tg
