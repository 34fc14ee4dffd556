// How a degree-separated partition spreads the graph: delegates, edges per
// kind per rank, and the bytes each rank holds (Pan, Pearce, Owens, IPDPS
// 2018, Table I, with our widths). plan_partition counts without building,
// so a caller can check each rank's bytes against a GPU's budget first.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "distributed/degree_separation.h"
#include "distributed/partition.h"
#include "graph/graph.h"

namespace tg::dist {

using EdgeCounts = std::array<uint64_t, kNumEdgeKinds>;  // indexed by EdgeKind

struct RankSummary {
  uint64_t normals = 0;  // normal vertices owned
  EdgeCounts edges{};
  uint64_t bytes = 0;  // rank_bytes of the above
};

struct PartitionSummary {
  uint64_t num_vertices = 0;
  uint64_t num_edges = 0;  // stored (directed) edges of the input
  uint64_t threshold = 0;
  uint64_t delegates = 0;
  bool weighted = false;
  std::vector<RankSummary> ranks;

  // A line for TH and d, then a table: rank, normal vertices, edges per kind, bytes.
  std::string to_string() const;
};

// The bytes of one rank's arrays: Table I's CSRs with 64-bit offsets
// (a rank may hold more than 2^32 edges) and 4-byte ids, 8-byte nn
// destinations (global ids), 4-byte weights where the graph has them, and
// the id maps: 8 per delegate (delegate_global, on every rank), 8 per owned
// normal vertex (normal_global), 4 per slot (local_of_slot).
uint64_t rank_bytes(uint64_t num_vertices, int num_ranks, int rank, uint64_t delegates, uint64_t normals,
                    const EdgeCounts& edges, bool weighted);
// The bytes each rank needs, in rank order.
std::vector<uint64_t> bytes_per_rank(const PartitionSummary& summary);

// The counts of partition_graph(graph, num_ranks, options) without building
// it: one parallel pass over the edges, no arrays. Throws as partition_graph.
template <typename V>
PartitionSummary plan_partition(const Graph<V>& graph, int num_ranks, const PartitionOptions& options = {});
PartitionSummary plan_partition(const AnyGraph& graph, int num_ranks, const PartitionOptions& options = {});

// The counts of a built partition; bytes are its arrays' own sizes.
PartitionSummary summarize(const Partition& partition);
// The bytes of a built rank's arrays (delegate_global counted, as if not shared).
uint64_t rank_graph_bytes(const RankGraph& rank);

}  // namespace tg::dist
