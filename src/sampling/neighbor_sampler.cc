#include "sampling/neighbor_sampler.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "core/error.h"
#include "sampling/draws.h"

namespace tg {
namespace {

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
#pragma omp for schedule(dynamic, 64)
      for (int64_t i = 0; i < n; ++i) {
        const uint64_t v = frontier[i];
        const eid_t begin = in.offsets[v], degree = in.offsets[v + 1] - begin;
        drawn[i].resize(sampling::draws_for(degree, o.fanouts[hop], o.replace));
        sampling::choose_positions(degree, o.fanouts[hop], o.replace, o.seed, hop, v, drawn[i].data());
        for (uint64_t& p : drawn[i]) p = in.neighbors[begin + p];
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

void check_sample_request(uint64_t n, const std::vector<uint64_t>& seeds, const SampleOptions& options) {
  if (options.fanouts.empty()) throw usage_error("sample_neighbors: give at least one fanout (for example 25,15)");
  for (size_t i = 0; i < options.fanouts.size(); ++i)
    if (options.fanouts[i] == 0 || options.fanouts[i] < -1)
      throw usage_error("sample_neighbors: fanout " + std::to_string(options.fanouts[i]) + " at hop " +
                        std::to_string(i) + ": at least 1, or -1 for every in-neighbour");
  for (uint64_t s : seeds)
    if (s >= n)
      throw usage_error("sample_neighbors: seed " + std::to_string(s) + " is not a vertex (the graph has " +
                        std::to_string(n) + ")");
  std::vector<uint64_t> sorted = seeds;
  std::sort(sorted.begin(), sorted.end());
  if (auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
    throw usage_error("sample_neighbors: seed " + std::to_string(*twice) + " is given twice");
}

std::vector<SampledHop> sample_neighbors(const AnyGraph& graph, const std::vector<uint64_t>& seeds,
                                         const SampleOptions& options) {
  check_sample_request(num_vertices(graph), seeds, options);
  return std::visit(
      [&](const auto& g) {
        if (!g.has_in_edges()) throw Error("sample_neighbors: the directed graph's in-edges were not built");
        return sample(g, seeds, options);
      },
      graph);
}

}  // namespace tg
