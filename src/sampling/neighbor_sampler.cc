#include "sampling/neighbor_sampler.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include <omp.h>

#include "core/error.h"
#include "core/hash.h"
#include "core/host_memory.h"
#include "sampling/draws.h"

namespace tg {
namespace {

// Numbers a hop's sources as the GPU sampler does, in parallel: position p
// is destination p (p < n) or drawn edge p - n; a vertex's local id comes
// from its first position (a destination keeps its own; the k-th new vertex
// by first draw gets n + k). Vertices are split over the threads by hash,
// and each thread keeps, in its own map, the first position of the vertices
// it owns, so no two threads touch one entry and the result does not depend
// on the thread count. In two steps: each thread deals a slice of the
// positions to their vertices' owners, then each owner takes its positions
// slice by slice, in order. (Each thread scanning every position and
// hashing every vertex cost a team of T threads T hashes a position.) The
// edges then look their vertex up in the owner's map, in parallel.
void number_sources(const std::vector<uint64_t>& dst, const std::vector<uint64_t>& edge_node, SampledHop& h) {
  const uint64_t n = dst.size(), edges = edge_node.size(), positions = n + edges;
  auto node_at = [&](uint64_t p) { return p < n ? dst[p] : edge_node[p - n]; };
  const int most = std::max(1, omp_get_max_threads());
  std::vector<std::unordered_map<uint64_t, uint64_t>> first(most);
  // dealt[s * most + o]: the positions of slice s whose vertex thread o owns, in order.
  std::vector<std::vector<uint64_t>> dealt(static_cast<size_t>(most) * most);
  uint64_t owners = 1;  // the team that filled `first`: vertex u's map is first[mix64(u) % owners]
  std::vector<uint64_t> rank(edges + 1, 0);  // first: 1 where edge e is its vertex's first appearance and new
#pragma omp parallel num_threads(most)
  {
    const uint64_t part = static_cast<uint64_t>(omp_get_thread_num()), team = static_cast<uint64_t>(omp_get_num_threads());
    if (part == 0) owners = team;
    const uint64_t from = positions * part / team, to = positions * (part + 1) / team;
    std::vector<uint64_t>* mine_dealt = &dealt[part * most];
    for (uint64_t o = 0; o < team; ++o) mine_dealt[o].reserve((to - from) / team + 16);
    for (uint64_t p = from; p < to; ++p) mine_dealt[mix64(node_at(p)) % team].push_back(p);
#pragma omp barrier
    auto& mine = first[part];
    mine.reserve(positions / team + 16);
    for (uint64_t slice = 0; slice < team; ++slice)
      for (const uint64_t p : dealt[slice * most + part])
        if (mine.emplace(node_at(p), p).second && p >= n) rank[p - n] = 1;
  }
  uint64_t fresh = 0;
  for (uint64_t e = 0; e <= edges; ++e) {  // exclusive prefix sum: rank[e] = new vertices before edge e
    const uint64_t is_new = rank[e];
    rank[e] = fresh;
    fresh += is_new;
  }
  h.src_nodes.assign(dst.begin(), dst.end());
  h.src_nodes.resize(n + fresh);
  h.edge_src.resize(edges);
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < static_cast<int64_t>(edges); ++e) {
    const uint64_t u = edge_node[e], p = first[mix64(u) % owners].at(u);
    const uint64_t local = p < n ? p : n + rank[p - n];
    h.edge_src[e] = local;
    if (p == n + static_cast<uint64_t>(e)) h.src_nodes[local] = u;
  }
}

// A hop's arrays (the drawn ids, their destinations and local ids, the
// numbering's scratch) take about this many bytes a drawn edge.
constexpr uint64_t kHopBytesPerEdge = 48;

template <typename V>
std::vector<SampledHop> sample(const Graph<V>& graph, const std::vector<uint64_t>& seeds, const SampleOptions& o) {
  const Csr<V>& in = graph.in_edges();
  std::vector<SampledHop> hops;
  std::vector<uint64_t> frontier = seeds;
  for (int hop = 0; hop < static_cast<int>(o.fanouts.size()); ++hop) {
    SampledHop h;
    h.dst_nodes = frontier;
    const int64_t n = static_cast<int64_t>(frontier.size());
    // How many each destination draws, placed by a prefix sum, then drawn in parallel.
    std::vector<uint64_t> first_edge(n + 1, 0);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t v = frontier[i];
      first_edge[i + 1] = sampling::draws_for(in.offsets[v + 1] - in.offsets[v], o.fanouts[hop], o.replace);
    }
    for (int64_t i = 0; i < n; ++i) first_edge[i + 1] += first_edge[i];
    const uint64_t edges = first_edge[n];
    check_hop_fits_host("sample_neighbors", hop, edges,
                        edges > UINT64_MAX / kHopBytesPerEdge ? UINT64_MAX : edges * kHopBytesPerEdge);
    std::vector<uint64_t> edge_node(first_edge[n]);
    h.edge_dst.resize(first_edge[n]);
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t v = frontier[i];
      const eid_t begin = in.offsets[v], degree = in.offsets[v + 1] - begin;
      uint64_t* picked = edge_node.data() + first_edge[i];
      const uint64_t m = sampling::choose_positions(degree, o.fanouts[hop], o.replace, o.seed, hop, v, picked);
      for (uint64_t j = 0; j < m; ++j) {
        picked[j] = in.neighbors[begin + picked[j]];
        h.edge_dst[first_edge[i] + j] = static_cast<uint64_t>(i);
      }
    }
    number_sources(frontier, edge_node, h);
    frontier = h.src_nodes;
    hops.push_back(std::move(h));
  }
  return hops;
}

}  // namespace

void check_hop_fits_host(const std::string& who, int hop, uint64_t edges, uint64_t bytes) {
  const uint64_t have = available_memory();
  if (have > 0 && bytes > have)
    throw out_of_memory_error(who + ": hop " + std::to_string(hop) + " would draw " + std::to_string(edges) +
                              " edges, about " + std::to_string(bytes >> 20) +
                              " MiB in host memory, more than the host's available memory (" +
                              std::to_string(have >> 20) + " MiB): lower the fanouts or the seeds");
}

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
