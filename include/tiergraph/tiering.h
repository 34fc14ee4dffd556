// Data tiering for GNN feature stores (issue 11): which rows sampling will
// read most, and a graph renumbered so those come first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tiergraph/error.h"
#include "tiergraph/graph.h"

namespace tiergraph {

// One score per vertex (0-based ids). score: "degree" (out-degree),
// "reverse-pagerank" (PageRank on the reversed edges, to a fixed point) or
// "weighted-reverse-pagerank" (the dissertation's Algorithm 2: train_ids'
// start scores weighted by n / |train_ids|, `iterations` rounds). Throws
// Error kUsage for another name, a train id out of range, iterations < 1 or
// damping outside (0, 1).
TIERGRAPH_API std::vector<double> tier_scores(const Graph& graph, const std::string& score,
                                              const std::vector<uint64_t>& train_ids = {}, int iterations = 5,
                                              double damping = 0.85);

// Ids by descending score, ties by ascending id. Throws Error kUsage for a
// NaN score (it has no rank).
TIERGRAPH_API std::vector<uint64_t> order_by_score(const std::vector<double>& scores);

// The graph renumbered: new id i is old vertex order[i] (a permutation, else
// Error kUsage). Reorder feature rows the same way: row i <- row order[i].
TIERGRAPH_API Graph relabel(const Graph& graph, const uint64_t* order, size_t n);

}  // namespace tiergraph
