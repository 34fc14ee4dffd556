#include "sampling/neighbor_sampler.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "core/error.h"
#include "core/hash.h"

namespace tg {
namespace {

// The k-th draw for (seed, hop, node): uniform in [0, n) by a multiply-shift
// of a 64-bit hash (bias below 2^-32 for any degree here).
uint64_t draw(uint64_t seed, int hop, uint64_t node, uint64_t k, uint64_t n) {
  const uint64_t h = mix64(mix64(mix64(seed ^ 0x9e3779b97f4a7c15ULL) + static_cast<uint64_t>(hop)) + node) + k;
  return static_cast<uint64_t>((static_cast<unsigned __int128>(mix64(h)) * n) >> 64);
}

// Positions (0..degree-1) of one node's in-edges to take. Without
// replacement, Floyd's algorithm: fanout distinct positions in fanout draws,
// without touching the other positions (hubs have millions).
void choose(uint64_t degree, int fanout, bool replace, uint64_t seed, int hop, uint64_t node,
            std::vector<uint64_t>& picked) {
  picked.clear();
  if (degree == 0) return;
  if (fanout < 0 || (!replace && static_cast<uint64_t>(fanout) >= degree)) {
    for (uint64_t i = 0; i < degree; ++i) picked.push_back(i);
    return;
  }
  const uint64_t k = static_cast<uint64_t>(fanout);
  if (replace) {
    for (uint64_t i = 0; i < k; ++i) picked.push_back(draw(seed, hop, node, i, degree));
    return;
  }
  for (uint64_t j = degree - k; j < degree; ++j) {
    const uint64_t t = draw(seed, hop, node, j, j + 1);
    picked.push_back(std::find(picked.begin(), picked.end(), t) == picked.end() ? t : j);
  }
  std::sort(picked.begin(), picked.end());  // the order of the node's list, not of the draws
}

template <typename V>
std::vector<SampledHop> sample(const Graph<V>& graph, const std::vector<uint64_t>& seeds, const SampleOptions& o) {
  const Csr<V>& in = graph.in_edges();
  std::vector<SampledHop> hops;
  std::vector<uint64_t> frontier = seeds;
  for (int hop = 0; hop < static_cast<int>(o.fanouts.size()); ++hop) {
    SampledHop h;
    h.dst_nodes = frontier;
    const int64_t n = static_cast<int64_t>(frontier.size());
    // Draws per destination in parallel, then concatenated in order.
    std::vector<std::vector<uint64_t>> drawn(n);
#pragma omp parallel
    {
      std::vector<uint64_t> picked;
#pragma omp for schedule(dynamic, 64)
      for (int64_t i = 0; i < n; ++i) {
        const uint64_t v = frontier[i];
        const eid_t begin = in.offsets[v], degree = in.offsets[v + 1] - begin;
        choose(degree, o.fanouts[hop], o.replace, o.seed, hop, v, picked);
        drawn[i].reserve(picked.size());
        for (uint64_t p : picked) drawn[i].push_back(in.neighbors[begin + p]);
      }
    }
    // Local numbering: destinations first, then new sources by first draw.
    std::unordered_map<uint64_t, uint64_t> local;
    local.reserve(frontier.size() * 2);
    for (uint64_t v : frontier)
      if (local.emplace(v, h.src_nodes.size()).second) h.src_nodes.push_back(v);
    for (int64_t i = 0; i < n; ++i)
      for (uint64_t u : drawn[i]) {
        auto [it, added] = local.emplace(u, h.src_nodes.size());
        if (added) h.src_nodes.push_back(u);
        h.edge_src.push_back(it->second);
        h.edge_dst.push_back(static_cast<uint64_t>(i));
      }
    frontier = h.src_nodes;
    hops.push_back(std::move(h));
  }
  return hops;
}

}  // namespace

std::vector<SampledHop> sample_neighbors(const AnyGraph& graph, const std::vector<uint64_t>& seeds,
                                         const SampleOptions& options) {
  if (options.fanouts.empty()) throw usage_error("sample_neighbors: give at least one fanout (for example 25,15)");
  for (size_t i = 0; i < options.fanouts.size(); ++i)
    if (options.fanouts[i] == 0 || options.fanouts[i] < -1)
      throw usage_error("sample_neighbors: fanout " + std::to_string(options.fanouts[i]) + " at hop " +
                        std::to_string(i) + ": at least 1, or -1 for every in-neighbour");
  const uint64_t n = num_vertices(graph);
  for (uint64_t s : seeds)
    if (s >= n)
      throw usage_error("sample_neighbors: seed " + std::to_string(s) + " is not a vertex (the graph has " +
                        std::to_string(n) + ")");
  std::vector<uint64_t> sorted = seeds;
  std::sort(sorted.begin(), sorted.end());
  if (auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
    throw usage_error("sample_neighbors: seed " + std::to_string(*twice) + " is given twice");
  return std::visit(
      [&](const auto& g) {
        if (!g.has_in_edges()) throw Error("sample_neighbors: the directed graph's in-edges were not built");
        return sample(g, seeds, options);
      },
      graph);
}

}  // namespace tg
