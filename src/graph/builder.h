// Turns an EdgeList into a Graph: picks the vertex id width, symmetrizes,
// simplifies, adds weights, builds CSR (and CSC on request), in parallel.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "graph/edge_list.h"
#include "graph/graph.h"

namespace tg {

// Random integer weights drawn uniformly from [low, high], seeded (the papers
// use 8..72). Parsed from "LOW:HIGH" or "LOW..HIGH" by parse_weight_range.
struct WeightRange {
  uint32_t low = 8;
  uint32_t high = 72;
};
WeightRange parse_weight_range(const std::string& text);

struct BuildOptions {
  bool undirected = false;      // add the reverse of every edge (--undirected)
  bool simplify = false;        // drop self loops and duplicate edges (--simplify)
  bool in_edges = false;        // also build the CSC of a directed graph
  bool force_64bit_ids = false; // 64-bit vertex ids even when |V| < 2^31
  std::optional<WeightRange> random_weights;  // --weights: replaces/creates weights
  uint64_t weight_seed = 27491095;
};

// Consumes the edge list (its vectors are released as soon as they are copied
// into CSR, to keep peak memory near one copy of the graph).
// - ids: 32-bit unless |V| >= 2^31 or force_64bit_ids.
// - undirected (option or !edges.directed): each edge stored in both
//   directions, a self loop once; Graph::directed = false, no CSC.
// - simplify: drops self loops and repeated (u, v); of weighted repeats the
//   smallest weight is kept.
// - random_weights: weight of {u, v} hashed from (min, max, weight_seed), so
//   both directions agree and any thread count gives the same graph.
// - neighbor lists sorted ascending (then by weight).
// Throws an input error (ErrorKind::kInput) when an id is >= edges.num_vertices
// or a weight is NaN.
AnyGraph build_graph(EdgeList&& edges, const BuildOptions& options);
// The same graph from edges made on demand (a generator's), read twice and
// never held: the peak memory is the graph's own, not its edge list's beside
// it (kron:23, a 1.10 GB .tgb: 3.36 GB with the list, 1.26 GB without;
// docs/PERF-graph.md).
AnyGraph build_graph(const EdgeBlocks& edges, const BuildOptions& options);

// The reverse of build_graph, for rebuilding a loaded graph with other
// options: every stored edge, or for an undirected graph each edge once (as
// u <= v) with directed = false.
template <typename V>
EdgeList to_edge_list(const Graph<V>& graph);
EdgeList to_edge_list(const AnyGraph& graph);

// Sorts every list of `csr` (n vertices) in place as build_graph leaves
// them: ascending by neighbor, then by weight (a radix sort for long lists).
template <typename V>
void sort_neighbor_lists(Csr<V>& csr, uint64_t n);

// Builds the CSC (in-edges) of a directed graph in place, if not built yet.
template <typename V>
void ensure_in_edges(Graph<V>& graph);
void ensure_in_edges(AnyGraph& graph);

struct DegreeStats {
  uint64_t num_vertices = 0;
  uint64_t num_edges = 0;
  uint64_t isolated = 0;  // no edge in either direction
  uint64_t zero_out_degree = 0;
  uint64_t max_out_degree = 0;
  double mean_out_degree = 0;
  uint64_t median_out_degree = 0;  // the lower middle one when |V| is even
  // Both counted over stored edges: an undirected repeat counts once in each direction.
  uint64_t self_loops = 0;
  uint64_t duplicate_edges = 0;  // extra copies of an (u, v) pair
  // log2 histogram: bucket k counts vertices with out-degree in [2^k, 2^(k+1)),
  // so bucket 0 holds degree 1; degree 0 is in zero_out_degree only. Ends at the
  // bucket of the max degree (empty when there are no edges).
  std::vector<uint64_t> log2_histogram;
};
template <typename V>
DegreeStats degree_stats(const Graph<V>& graph);
DegreeStats degree_stats(const AnyGraph& graph);

}  // namespace tg
