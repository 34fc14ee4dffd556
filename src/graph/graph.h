// Graph storage: CSR of out-edges and, when an algorithm pulls, CSC of
// in-edges. Offsets are 64-bit; vertex ids are V (uint32_t or uint64_t).
// For an undirected graph the in-edges are the out-edges and `in` stays empty.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "core/array.h"
#include "core/types.h"

namespace tg {

template <typename V>
struct Csr {
  Array<eid_t> offsets;     // num_vertices + 1 entries
  Array<V> neighbors;       // offsets[num_vertices] entries
  Array<weight_t> weights;  // same length as neighbors, or empty

  bool built() const { return !offsets.empty(); }
  eid_t degree(uint64_t v) const { return offsets[v + 1] - offsets[v]; }
  eid_t num_edges() const { return offsets.empty() ? 0 : offsets[offsets.size() - 1]; }
};

template <typename V>
struct Graph {
  using vertex_t = V;

  uint64_t num_vertices = 0;
  bool directed = true;
  int id_base = 0;   // add to internal ids when writing results (1 for .mtx, .gr)
  std::string name;  // file name or generator spec

  Csr<V> out;
  Csr<V> in;  // built only for directed graphs, on demand (see ensure_in_edges)

  eid_t num_edges() const { return out.num_edges(); }  // directed edges stored
  bool weighted() const { return !out.weights.empty(); }
  bool has_in_edges() const { return !directed || in.built(); }
  const Csr<V>& in_edges() const { return directed ? in : out; }
};

using AnyGraph = std::variant<Graph<vid32_t>, Graph<vid64_t>>;

inline uint64_t num_vertices(const AnyGraph& g) {
  return std::visit([](const auto& x) { return x.num_vertices; }, g);
}
inline eid_t num_edges(const AnyGraph& g) {
  return std::visit([](const auto& x) { return x.num_edges(); }, g);
}
inline int vertex_id_bytes(const AnyGraph& g) { return g.index() == 0 ? 4 : 8; }

}  // namespace tg
