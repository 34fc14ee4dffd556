// A graph loaded from a file or made by a generator.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "tiergraph/error.h"

namespace tiergraph {

struct LoadOptions {
  bool undirected = false;      // add the reverse of every edge
  bool simplify = false;        // drop self loops and duplicate edges (generated graphs always are)
  std::string random_weights;   // "LOW:HIGH", e.g. "8:72": seeded random integer weights; empty: the file's own
  uint64_t weight_seed = 27491095;
  bool ids64 = false;           // 64-bit vertex ids even below 2^31 vertices
  // Every neighbour list ordered by weight (needs weights): sssp on the GPU
  // then reads a list's light edges apart from its heavy ones.
  bool lists_by_weight = false;
  int edge_factor = 16;         // generators: edges per vertex
  uint64_t seed = 27491095;     // generators
};

// A handle: copies share one graph, which stays alive while any copy does.
// Runs may share a graph across threads. A default-constructed Graph is
// empty (no vertices) and cannot be run.
class TIERGRAPH_API Graph {
 public:
  Graph();

  uint64_t num_vertices() const;
  uint64_t num_edges() const;  // stored directed edges: an undirected edge counts twice
  bool directed() const;
  bool weighted() const;
  int id_base() const;         // the file's first vertex id (1 for .mtx and .gr); add it to an index of Result::values
  int vertex_id_bytes() const;  // 4 or 8
  std::string name() const;    // file name or generator spec
  bool empty() const { return impl_ == nullptr; }

  struct Impl;

 private:
  friend struct GraphAccess;
  std::shared_ptr<Impl> impl_;
};

// PATH (.el .txt .wel .mtx .gr, also .gz .zst .xz; .sg .wsg .tgb), or a
// generator spec: kron:SCALE (Graph500 Kronecker) or urand:SCALE, 2^SCALE
// vertices. Throws Error: kInput for a missing, malformed or corrupt file,
// kUsage for a bad spec or option.
TIERGRAPH_API Graph load(const std::string& path_or_generator_spec, const LoadOptions& options = {});

// A graph from edges in memory (a GNN's edge index, say): edge i runs
// src[i] -> dst[i], weighted by weights[i] where weights is not null (then
// LoadOptions::random_weights must be empty). num_vertices 0: the largest id
// + 1. The arrays are copied; ids are 0-based. Throws Error: kInput for an id
// >= num_vertices or a NaN weight, kUsage for both weights and random_weights.
TIERGRAPH_API Graph from_edges(const uint64_t* src, const uint64_t* dst, size_t num_edges,
                               const float* weights = nullptr, uint64_t num_vertices = 0,
                               const LoadOptions& options = {}, const std::string& name = "edges");

}  // namespace tiergraph
