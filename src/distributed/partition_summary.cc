#include "distributed/partition_summary.h"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <variant>

#include "distributed/edge_rule.h"

namespace tg::dist {

namespace {

template <typename N>
uint64_t csr_bytes(const Csr<N>& csr) {
  return csr.offsets.bytes() + csr.neighbors.bytes() + csr.weights.bytes();
}

}  // namespace

uint64_t rank_bytes(uint64_t num_vertices, int num_ranks, int rank, uint64_t delegates, uint64_t normals,
                    const EdgeCounts& edges, bool weighted) {
  const uint64_t offsets = 2 * (normals + 1) * sizeof(eid_t) + 2 * (delegates + 1) * sizeof(eid_t);
  uint64_t all_edges = 0;
  for (uint64_t m : edges) all_edges += m;
  const uint64_t nn = edges[static_cast<int>(EdgeKind::kNN)];
  const uint64_t ids = nn * sizeof(uint64_t) + (all_edges - nn) * sizeof(uint32_t);
  const uint64_t weights = weighted ? all_edges * sizeof(weight_t) : 0;
  const uint64_t maps = delegates * sizeof(uint64_t) + normals * sizeof(uint64_t) +
                        DegreeSeparation::slots_on_rank(num_vertices, num_ranks, rank) * sizeof(uint32_t);
  return offsets + ids + weights + maps;
}

std::vector<uint64_t> bytes_per_rank(const PartitionSummary& summary) {
  std::vector<uint64_t> out;
  for (const RankSummary& r : summary.ranks) out.push_back(r.bytes);
  return out;
}

std::string PartitionSummary::to_string() const {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "degree separation over %zu ranks: TH %llu, %llu delegates of %llu vertices, %llu edges\n",
                ranks.size(), static_cast<unsigned long long>(threshold), static_cast<unsigned long long>(delegates),
                static_cast<unsigned long long>(num_vertices), static_cast<unsigned long long>(num_edges));
  out += line;
  std::snprintf(line, sizeof line, "%6s %12s %14s %14s %14s %14s %16s\n", "rank", "normal", "nn", "nd", "dn", "dd", "bytes");
  out += line;
  for (size_t r = 0; r < ranks.size(); ++r) {
    const RankSummary& s = ranks[r];
    std::snprintf(line, sizeof line, "%6zu %12llu %14llu %14llu %14llu %14llu %16llu\n", r,
                  static_cast<unsigned long long>(s.normals), static_cast<unsigned long long>(s.edges[0]),
                  static_cast<unsigned long long>(s.edges[1]), static_cast<unsigned long long>(s.edges[2]),
                  static_cast<unsigned long long>(s.edges[3]), static_cast<unsigned long long>(s.bytes));
    out += line;
  }
  return out;
}

template <typename V>
PartitionSummary plan_partition(const Graph<V>& graph, int num_ranks, const PartitionOptions& options) {
  const uint64_t threshold = choose_threshold(graph, num_ranks, options);
  const uint64_t n = graph.num_vertices;
  const DegreeSeparation separation = separate(graph, threshold, num_ranks);
  const EdgeRule sep(separation, n);
  const uint64_t p = static_cast<uint64_t>(num_ranks);

  // Per rank: normal vertices, then the four edge kinds; integer sums, so
  // the same totals for any thread count.
  std::vector<uint64_t> totals(p * (1 + kNumEdgeKinds), 0);
  uint64_t delegates = 0;
#pragma omp parallel if (n > 4096)
  {
    std::vector<uint64_t> mine(totals.size(), 0);
    uint64_t my_delegates = 0;
#pragma omp for schedule(dynamic, 1024) nowait
    for (uint64_t u = 0; u < n; ++u) {
      if (sep.is_delegate(u))
        ++my_delegates;
      else
        ++mine[static_cast<uint64_t>(sep.owner(u)) * (1 + kNumEdgeKinds)];
      for (eid_t e = graph.out.offsets[u]; e < graph.out.offsets[u + 1]; ++e) {
        const EdgePlace place = sep.place(u, graph.out.neighbors[e]);
        ++mine[static_cast<uint64_t>(place.rank) * (1 + kNumEdgeKinds) + 1 + static_cast<uint64_t>(place.kind)];
      }
    }
#pragma omp critical
    {
      for (size_t i = 0; i < totals.size(); ++i) totals[i] += mine[i];
      delegates += my_delegates;
    }
  }

  PartitionSummary summary;
  summary.num_vertices = n;
  summary.num_edges = graph.num_edges();
  summary.threshold = threshold;
  summary.delegates = delegates;
  summary.weighted = graph.weighted();
  uint64_t most_normals = 0;
  for (uint64_t r = 0; r < p; ++r) {
    RankSummary s;
    s.normals = totals[r * (1 + kNumEdgeKinds)];
    for (int k = 0; k < kNumEdgeKinds; ++k) s.edges[k] = totals[r * (1 + kNumEdgeKinds) + 1 + k];
    s.bytes = rank_bytes(n, num_ranks, static_cast<int>(r), delegates, s.normals, s.edges, summary.weighted);
    most_normals = std::max(most_normals, s.normals);
    summary.ranks.push_back(s);
  }
  check_id_widths(delegates, most_normals, threshold, num_ranks, options.id_limit);
  return summary;
}

PartitionSummary plan_partition(const AnyGraph& graph, int num_ranks, const PartitionOptions& options) {
  return std::visit([&](const auto& g) { return plan_partition(g, num_ranks, options); }, graph);
}

uint64_t rank_graph_bytes(const RankGraph& rank) {
  return csr_bytes(rank.nn) + csr_bytes(rank.nd) + csr_bytes(rank.dn) + csr_bytes(rank.dd) +
         rank.delegate_global.bytes() + rank.normal_global.bytes() + rank.local_of_slot.bytes();
}

PartitionSummary summarize(const Partition& partition) {
  PartitionSummary summary;
  summary.num_vertices = partition.num_vertices;
  summary.threshold = partition.threshold;
  summary.delegates = partition.num_delegates();
  summary.weighted = partition.weighted;
  for (const RankGraph& rank : partition.ranks) {
    RankSummary s;
    s.normals = rank.num_normals();
    s.edges = {rank.nn.num_edges(), rank.nd.num_edges(), rank.dn.num_edges(), rank.dd.num_edges()};
    s.bytes = rank_graph_bytes(rank);
    for (uint64_t m : s.edges) summary.num_edges += m;
    summary.ranks.push_back(s);
  }
  return summary;
}

template PartitionSummary plan_partition(const Graph<vid32_t>&, int, const PartitionOptions&);
template PartitionSummary plan_partition(const Graph<vid64_t>&, int, const PartitionOptions&);

}  // namespace tg::dist
