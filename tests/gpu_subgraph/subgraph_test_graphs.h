// Small CSRs for the subgraph tests: shapes that hit the edges of every range
// (vertices without edges, one list larger than any buffer, runs of short
// lists), built directly so the tests depend on nothing but the CSR layout.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <tuple>
#include <vector>

#include "core/types.h"

namespace tg::subgraph::testing {

template <typename V>
struct TestCsr {
  uint64_t n = 0;
  std::vector<eid_t> offsets;  // n + 1
  std::vector<V> neighbors;
  std::vector<weight_t> weights;  // same length as neighbors

  eid_t degree(uint64_t v) const { return offsets[v + 1] - offsets[v]; }
  eid_t edges() const { return offsets.back(); }
};

// A CSR with the given degrees; neighbour ids and weights are random but
// deterministic, and each edge's weight encodes its position so that a
// misplaced weight is caught.
template <typename V>
TestCsr<V> csr_with_degrees(const std::vector<eid_t>& degrees, uint64_t seed = 1) {
  TestCsr<V> g;
  g.n = degrees.size();
  g.offsets.assign(g.n + 1, 0);
  for (uint64_t v = 0; v < g.n; ++v) g.offsets[v + 1] = g.offsets[v] + degrees[v];
  std::mt19937_64 rng(seed);
  g.neighbors.resize(g.edges());
  g.weights.resize(g.edges());
  for (eid_t k = 0; k < g.edges(); ++k) {
    g.neighbors[k] = g.n ? static_cast<V>(rng() % g.n) : V{0};
    g.weights[k] = static_cast<weight_t>(k % 1000003) + 0.5f;
  }
  return g;
}

// Skewed degrees: mostly short lists, some empty, a few long ones and one
// list of `huge` edges at vertex `huge_at`.
inline std::vector<eid_t> skewed_degrees(uint64_t n, uint64_t seed, eid_t huge = 0, uint64_t huge_at = 0) {
  std::mt19937_64 rng(seed);
  std::vector<eid_t> d(n);
  for (uint64_t v = 0; v < n; ++v) {
    uint64_t r = rng() % 100;
    d[v] = r < 15 ? 0 : r < 85 ? 1 + rng() % 8 : r < 98 ? 10 + rng() % 60 : 100 + rng() % 400;
  }
  if (huge > 0 && huge_at < n) d[huge_at] = huge;
  return d;
}

// A sorted random subset of 0..n-1 with about `fraction` of the vertices.
template <typename V>
std::vector<V> random_active(uint64_t n, double fraction, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution pick(fraction);
  std::vector<V> out;
  for (uint64_t v = 0; v < n; ++v)
    if (pick(rng)) out.push_back(static_cast<V>(v));
  return out;
}

// Brute force SubCSR edge array (Subway figure 3): the active lists, concatenated in order.
template <typename V>
void brute_subcsr(const TestCsr<V>& g, std::span<const V> active, std::vector<V>* neighbors,
                  std::vector<weight_t>* weights) {
  neighbors->clear();
  weights->clear();
  for (V u : active)
    for (eid_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      neighbors->push_back(g.neighbors[k]);
      weights->push_back(g.weights[k]);
    }
}

// Every (source, neighbour, weight) of the active vertices, sorted.
template <typename V>
// (source, neighbour, weight) of every entry of the active lists (of each
// list's first `limit` entries), sorted.
std::vector<std::tuple<uint64_t, uint64_t, float>> active_edge_triples(const TestCsr<V>& g, std::span<const V> active,
                                                                       eid_t limit = ~eid_t{0}) {
  std::vector<std::tuple<uint64_t, uint64_t, float>> out;
  for (V u : active)
    for (eid_t k = g.offsets[u]; k < g.offsets[u + 1] && k - g.offsets[u] < limit; ++k)
      out.emplace_back(u, g.neighbors[k], g.weights[k]);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tg::subgraph::testing
