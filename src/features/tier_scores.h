// Which feature rows a GNN's neighbour sampling will read most, to keep the
// hottest in GPU memory (issue 11, part 2; the dissertation's Section 4.2.1):
//   degree: a node's out-degree (how many nodes may sample it, one hop);
//   reverse PageRank: PageRank on the reversed edges, each node's score
//     divided by its in-degree and pulled by the nodes pointing to it, to a
//     fixed point: reaching many nodes through out-edges scores high;
//   weighted reverse PageRank (their Algorithm 2): the same from scores with
//     the training nodes' weighted by n / (number of training nodes), for a
//     few iterations only, so the start (where sampling begins) still counts.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "graph/graph.h"

namespace tg {

enum class TierScore { kDegree, kReversePageRank, kWeightedReversePageRank };
std::optional<TierScore> parse_tier_score(std::string_view name);  // "degree", "reverse-pagerank", ...

struct TierScoreOptions {
  TierScore score = TierScore::kDegree;
  std::vector<uint64_t> train_ids;  // weighted: the labelled nodes (none: every node, weight 1)
  int iterations = 5;               // weighted: the paper's five
  double damping = 0.85;
};

// One score per vertex. Reverse PageRank runs the CPU engine's own PageRank on
// the reversed graph (tolerance 1e-9). The graph must have its in-edges.
// Throws a usage error for a train id that is not a vertex, iterations < 1,
// or damping outside (0, 1).
std::vector<double> tier_scores(const AnyGraph& graph, const TierScoreOptions& options);

// Vertex ids by descending score, ties by ascending id: the order to relabel
// the graph and the feature rows in (graph/relabel.h) so the hottest come first.
std::vector<uint64_t> order_by_score(std::span<const double> scores);

}  // namespace tg
