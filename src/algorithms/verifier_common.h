// Small helpers shared by the *_verifier.cc files, and only by them: edge and
// vertex scans that find the first violation (the lowest index, whatever the
// number of threads, so a failure message is reproducible), sums over
// in-edges, a plain serial traversal, and message formatting. Nothing here
// comes from the engines or the algorithm drivers.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/verifier.h"
#include "graph/graph.h"

namespace tg::verifier {

constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();

// A vertex as the user knows it: with the file's id base (1 for .mtx, .gr).
template <typename V>
std::string id_of(const Graph<V>& g, uint64_t v) {
  return std::to_string(v + static_cast<uint64_t>(g.id_base));
}
template <typename V>
std::string vertex_name(const Graph<V>& g, uint64_t v) {
  return "vertex " + id_of(g, v);
}

inline std::string num(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

inline Verification fail(std::string message) { return {false, std::move(message)}; }

template <typename V>
Verification pass(const Graph<V>& g) {
  return {true, "checked " + std::to_string(g.num_vertices) + " vertices, " + std::to_string(g.num_edges()) + " edges"};
}

// Weight of out-edge e; an unweighted graph counts every edge as 1.
template <typename V>
double weight_of(const Graph<V>& g, eid_t e) {
  return g.out.weights.empty() ? 1.0 : static_cast<double>(g.out.weights[e]);
}

// A failure when the result does not have one value per vertex, or when the
// source is out of range (source = kNone: the algorithm has none).
template <typename V>
std::optional<Verification> check_shape(const Graph<V>& g, size_t values, uint64_t source = kNone) {
  if (values != g.num_vertices)
    return fail("the result has " + std::to_string(values) + " values but the graph has " +
                std::to_string(g.num_vertices) + " vertices");
  if (source != kNone && source >= g.num_vertices)
    return fail("source " + id_of(g, source) + " is out of range (" +
                std::to_string(g.num_vertices) + " vertices)");
  return std::nullopt;
}

// The lowest v in [0, n) with bad(v), or kNone.
template <typename Bad>
uint64_t first_bad_vertex(uint64_t n, Bad bad) {
  uint64_t first = kNone;
#pragma omp parallel for schedule(static) reduction(min : first)
  for (uint64_t v = 0; v < n; ++v)
    if (v < first && bad(v)) first = v;
  return first;
}

// The lowest out-edge index e, with (u, v) its ends, for which bad(u, v, e)
// holds, or kNone. bad may also record things (with relaxed atomics); after a
// failure those records are incomplete.
template <typename V, typename Bad>
eid_t first_bad_edge(const Graph<V>& g, Bad bad) {
  const eid_t* off = g.out.offsets.data();
  const V* nbr = g.out.neighbors.data();
  eid_t first = kNone;
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : first)
  for (uint64_t u = 0; u < g.num_vertices; ++u) {
    if (off[u] >= first) continue;
    for (eid_t e = off[u]; e < off[u + 1]; ++e)
      if (bad(u, static_cast<uint64_t>(nbr[e]), e)) {
        first = std::min(first, e);
        break;
      }
  }
  return first;
}

// The tail of out-edge e.
template <typename V>
uint64_t edge_tail(const Graph<V>& g, eid_t e) {
  const eid_t* off = g.out.offsets.data();
  return static_cast<uint64_t>(std::upper_bound(off, off + g.num_vertices + 1, e) - off - 1);
}

template <typename V>
std::string edge_name(const Graph<V>& g, eid_t e) {
  uint64_t u = edge_tail(g, e), v = g.out.neighbors[e];
  std::string s = "edge " + id_of(g, u) + " -> " + id_of(g, v);
  if (g.weighted()) s += " (weight " + num(g.out.weights[e]) + ")";
  return s;
}

inline void set_flag(uint8_t& flag) { std::atomic_ref<uint8_t>(flag).store(1, std::memory_order_relaxed); }

// sum[v] = the sum of term(u, v) over the edges (u, v), duplicates included.
// Pulls over the in-edges where the graph has them (undirected graphs always
// do); otherwise pushes along the out-edges with atomic adds.
template <typename V, typename Term>
std::vector<double> sum_over_in_edges(const Graph<V>& g, Term term) {
  const uint64_t n = g.num_vertices;
  std::vector<double> sum(n, 0.0);
  if (g.has_in_edges()) {
    const Csr<V>& in = g.in_edges();
#pragma omp parallel for schedule(dynamic, 1024)
    for (uint64_t v = 0; v < n; ++v) {
      double s = 0;
      for (eid_t e = in.offsets[v]; e < in.offsets[v + 1]; ++e) s += term(static_cast<uint64_t>(in.neighbors[e]), v);
      sum[v] = s;
    }
  } else {
#pragma omp parallel for schedule(dynamic, 1024)
    for (uint64_t u = 0; u < n; ++u)
      for (eid_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e) {
        uint64_t v = g.out.neighbors[e];
        double t = term(u, v);
        if (t != 0) std::atomic_ref<double>(sum[v]).fetch_add(t, std::memory_order_relaxed);
      }
  }
  return sum;
}

// Serial breadth-first walk from source over the out-edges (u, v, e) that
// follow(u, v, e) admits; returns the hop depth of every vertex (-1: not reached).
template <typename V, typename Follow>
std::vector<int64_t> walk_from(const Graph<V>& g, uint64_t source, Follow follow) {
  std::vector<int64_t> depth(g.num_vertices, -1);
  std::vector<uint64_t> queue;
  queue.reserve(1024);
  depth[source] = 0;
  queue.push_back(source);
  for (size_t head = 0; head < queue.size(); ++head) {
    uint64_t u = queue[head];
    for (eid_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e) {
      uint64_t v = g.out.neighbors[e];
      if (depth[v] < 0 && follow(u, v, e)) {
        depth[v] = depth[u] + 1;
        queue.push_back(v);
      }
    }
  }
  return depth;
}

}  // namespace tg::verifier
