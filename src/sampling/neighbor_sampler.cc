#include "sampling/neighbor_sampler.h"

#include <algorithm>
#include <string>

#include "core/atomics.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/host_memory.h"
#include "core/recycled_vector.h"
#include "engines/cpu/parallel.h"
#include "sampling/draws.h"

namespace tg {
namespace {

// Each vertex's first position among a hop's positions, in one table the
// threads share: open addressing with linear probing over 1.5 to 3 slots a
// position (at most two thirds full; less where vertices repeat), a slot
// claimed by a compare-and-swap on its vertex and its position lowered by an
// atomic minimum, so the result does not depend on the threads' count or
// order. (A std::unordered_map per thread, each owning the vertices of its
// hash, took half a batch's time in allocations and lookups.)
class FirstPositions {
 public:
  explicit FirstPositions(uint64_t positions) {
    uint64_t size = 2;
    while (size < positions + positions / 2) size *= 2;
    mask_ = size - 1;
    slots_.resize(size);  // uninitialised: cleared below by the threads, which fault its pages in side by side
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(size); ++i) slots_[i] = Slot{kEmpty, ~uint64_t{0}};
  }

  void add(uint64_t vertex, uint64_t position) { atomic_min(&slot(vertex, true).first, position); }
  // The vertex's first position; the vertex was added.
  uint64_t first(uint64_t vertex) { return atomic_load(&slot(vertex, false).first); }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};  // no vertex: ids are below the vertex count
  struct Slot {  // plain, so that RecycledVector leaves it uninitialised
    uint64_t vertex;
    uint64_t first;
  };

  Slot& slot(uint64_t vertex, bool claim) {
    for (uint64_t i = mix64(vertex) & mask_;; i = (i + 1) & mask_) {
      uint64_t held = atomic_load(&slots_[i].vertex);
      if (held == kEmpty && claim && !compare_and_swap(&slots_[i].vertex, kEmpty, vertex))
        held = atomic_load(&slots_[i].vertex);  // another thread claimed it meanwhile
      else if (held == kEmpty)
        return slots_[i];  // claimed now (a lookup never gets here: every vertex looked up was added)
      if (held == vertex) return slots_[i];
    }
  }

  RecycledVector<Slot> slots_;
  uint64_t mask_ = 0;
};

// Numbers a hop's sources as the GPU sampler does: position p is destination
// p (p < n) or drawn edge p - n; a vertex's local id comes from its first
// position (a destination keeps its own; the k-th new vertex by first draw
// gets n + k).
void number_sources(const std::vector<uint64_t>& dst, const RecycledVector<uint64_t>& edge_node, SampledHop& h) {
  const int64_t n = static_cast<int64_t>(dst.size()), edges = static_cast<int64_t>(edge_node.size());
  FirstPositions table(n + edges);
#pragma omp parallel for schedule(static)
  for (int64_t p = 0; p < n + edges; ++p) table.add(p < n ? dst[p] : edge_node[p - n], p);
  // edge_src[e] holds the first position of edge e's vertex until it is
  // turned into the local id below; rank[e] = new vertices before edge e.
  h.edge_src.resize(edges);
  RecycledVector<uint64_t> rank(edges + 1);  // every entry written below
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < edges; ++e) {
    h.edge_src[e] = table.first(edge_node[e]);
    rank[e] = h.edge_src[e] == static_cast<uint64_t>(n + e) ? 1 : 0;
  }
  const uint64_t fresh = parallel_exclusive_scan(rank.data(), edges, rank.data());
  h.src_nodes.assign(dst.begin(), dst.end());
  h.src_nodes.resize(n + fresh);
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < edges; ++e) {
    const uint64_t p = h.edge_src[e], local = p < static_cast<uint64_t>(n) ? p : n + rank[p - n];
    h.edge_src[e] = local;
    if (p == static_cast<uint64_t>(n + e)) h.src_nodes[local] = edge_node[e];
  }
}

// A hop's arrays (the drawn ids, their destinations and local ids, the
// numbering's table and ranks) take at most this many bytes a drawn edge.
constexpr uint64_t kHopBytesPerEdge = 80;

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
    RecycledVector<uint64_t> first_edge(n + 1);  // every entry written below
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t v = frontier[i];
      first_edge[i] = sampling::draws_for(in.offsets[v + 1] - in.offsets[v], o.fanouts[hop], o.replace);
    }
    const uint64_t edges = parallel_exclusive_scan(first_edge.data(), n, first_edge.data());
    check_hop_fits_host("sample_neighbors", hop, edges,
                        edges > UINT64_MAX / kHopBytesPerEdge ? UINT64_MAX : edges * kHopBytesPerEdge);
    RecycledVector<uint64_t> edge_node(edges);  // every entry drawn below
    h.edge_dst.resize(edges);
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
