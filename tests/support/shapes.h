// A catalogue of small test graphs ("shapes") as edge lists, and the ways
// the tests turn them into graphs: directed (with or without the CSC),
// undirected, 32- or 64-bit ids, with several kinds of edge weights.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/builder.h"
#include "graph/edge_list.h"
#include "graph/graph.h"

namespace tg::test {

struct Shape {
  std::string name;  // a GoogleTest-safe identifier: letters, digits, '_'
  EdgeList edges;    // directed and unweighted; the variants below add the rest
};

// Empty (0 vertices; 5 vertices and no edges), a single vertex, a self loop,
// one edge, path, cycle, out-star, in-star, complete graph, binary tree, grid,
// disconnected pieces, isolated vertices, self loops with duplicate edges, a
// DAG, layers of tied shortest paths (many paths per vertex), a chain of
// diamonds (2^64 paths), a star of 6000 leaves, an in-star of 3999 leaves,
// a path of 1500 vertices, random graphs
// (with self loops and duplicates) at several seeds, and Kronecker (power
// law) and uniform random graphs from the generators at several seeds.
// The names are cheap; a shape is made on first use (find_shape), all of
// them by all_shapes().
const std::vector<std::string>& shape_names();
const Shape& find_shape(const std::string& name);
const std::vector<Shape>& all_shapes();

enum class Orientation {
  kDirected,       // out-CSR and CSC
  kDirectedNoCsc,  // out-CSR only: engines must push, verifiers scan out-edges
  kUndirected,     // every edge in both directions
};
const char* orientation_name(Orientation o);
std::vector<Orientation> all_orientations();

enum class WeightKind {
  kInteger,    // uniform in 1..9 (ties common)
  kReal,       // uniform real in (0, 10): distinct distances
  kEqual,      // all 1: many tied shortest paths
  kWithZeros,  // integers 0..2, a third of them 0 (zero-weight cycles)
  kWithInf,    // integers 1..9, a fifth of them inf (edges SSSP never takes)
};
const char* weight_kind_name(WeightKind k);
std::vector<WeightKind> all_weight_kinds();

// The edges with weights of the given kind, seeded (the same for any thread count).
EdgeList with_weights(EdgeList edges, WeightKind kind, uint64_t seed);

// Builds a variant of the edges. The edge list is copied, the shape kept.
AnyGraph build_variant(const EdgeList& edges, Orientation orientation, bool ids64);

// Sources worth testing on a graph, in this order: vertex 0, the vertex of
// largest out-degree, the first vertex without out-edges, the first isolated
// vertex (no edges at all), and `random` others picked with the seed; no
// repeats.
// Empty when the graph has no vertices.
std::vector<uint64_t> test_sources(const AnyGraph& graph, int random, uint64_t seed);

}  // namespace tg::test
