// A graph split over P ranks (GPUs) by degree separation: Pan, Pearce and
// Owens, "Scalable Breadth-First Search on a GPU Cluster", IPDPS 2018,
// Section III. Vertices of out-degree above TH are delegates, present on
// every rank under one global delegate id 0..d-1 (ascending global ids);
// every other vertex is normal and owned by exactly one rank, v mod P
// (degree_separation.h says why), under a dense 32-bit local id (ascending
// global ids). Each edge is stored exactly once, on the rank Algorithm 1
// names, in one of four CSRs per rank: nn, nd, dn, dd (Section III-B).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/array.h"
#include "distributed/degree_threshold.h"
#include "graph/graph.h"

namespace tg::dist {

// The local id of a vertex that is not a normal vertex owned here.
constexpr uint32_t kNoLocalId = 0xFFFFFFFFu;

struct PartitionOptions {
  // TH; unset: the rule's (degree_threshold.h).
  std::optional<uint64_t> threshold;
  ThresholdRule rule = ThresholdRule::kPaper;
  // How many 32-bit ids a rank may number; only tests lower it, to reach the
  // "too many delegates" error without 2^32 vertices.
  uint64_t id_limit = kLocalIdLimit;
};

// What one rank holds. Rows of nn and nd are the local normal vertices, rows
// of dn and dd the delegates (all d of them: Table I's d * 4 offsets per rank).
// Neighbour lists are sorted ascending (ties by weight), whatever the thread
// count. Weights are kept where the graph has them (SSSP will need them).
// How many of an nd or dd row's delegates lead it, highest out-degree first.
inline constexpr eid_t kHubsFirst = 16;

struct RankGraph {
  int rank = 0;
  int num_ranks = 1;
  uint64_t num_vertices = 0;  // of the whole graph
  uint64_t threshold = 0;
  bool weighted = false;  // the graph has weights (and so every list here, a rank without edges too)

  Array<uint64_t> delegate_global;  // delegate id -> global id; one array shared by every rank here
  Array<uint64_t> normal_global;    // local id -> global id of the normal vertices owned here
  Array<uint32_t> local_of_slot;    // for v with v mod P == rank: [v / P] -> local id, kNoLocalId for a delegate

  // nn's neighbours are global ids: a normal destination may live on any rank,
  // and Table I stores them in 8 bytes; the sender converts nothing, the owner
  // turns them into its local ids on arrival (Section V-B).
  Csr<uint64_t> nn;
  // Rows list ascending ids, but nd's and dd's lead with their kHubsFirst
  // highest-degree delegates (out-degree descending, then id; the rest in no
  // order of meaning): where a bottom-up BFS looks for a parent first.
  Csr<uint32_t> nd;  // neighbours: delegate ids
  Csr<uint32_t> dn;  // neighbours: local ids (the destination is owned here, Algorithm 1 line 5)
  Csr<uint32_t> dd;  // neighbours: delegate ids

  uint32_t num_delegates() const { return static_cast<uint32_t>(delegate_global.size()); }
  uint32_t num_normals() const { return static_cast<uint32_t>(normal_global.size()); }
  bool owns_slot_of(uint64_t v) const { return v % static_cast<uint64_t>(num_ranks) == static_cast<uint64_t>(rank); }
  // The local id of v, which must have this rank's residue: kNoLocalId when v is a delegate.
  uint32_t local_id(uint64_t v) const { return local_of_slot[v / static_cast<uint64_t>(num_ranks)]; }
};

struct Partition {
  uint64_t num_vertices = 0;
  bool directed = true;
  bool weighted = false;
  uint64_t threshold = 0;
  Array<uint64_t> delegate_global;  // the same array as every RankGraph's
  std::vector<RankGraph> ranks;

  int num_ranks() const { return static_cast<int>(ranks.size()); }
  uint32_t num_delegates() const { return static_cast<uint32_t>(delegate_global.size()); }
  // The delegate id of v, or kNoLocalId when v is normal (a binary search).
  uint32_t delegate_id(uint64_t v) const;
};

// The TH a partition of this graph over num_ranks ranks uses: the caller's,
// or its rule's (default_degree_threshold). Throws a usage error for num_ranks < 1.
template <typename V>
uint64_t choose_threshold(const Graph<V>& graph, int num_ranks, const PartitionOptions& options = {});

// Builds every rank's part in parallel (OpenMP): number the vertices, count
// each rank's rows per edge kind, prefix-sum them into offsets, fill. Throws a
// usage error (one line) for num_ranks < 1, or when TH leaves more delegates,
// or P leaves more normal vertices on one rank, than 32-bit ids can number.
template <typename V>
Partition partition_graph(const Graph<V>& graph, int num_ranks, const PartitionOptions& options = {});
Partition partition_graph(const AnyGraph& graph, int num_ranks, const PartitionOptions& options = {});

// One rank's part alone, equal to partition_graph(...).ranks[rank], for a
// process that drives one GPU (issue 10's mpirun form): it reads every
// vertex's degree, the lists of the normal vertices it owns and those of the
// delegates, no other list, so a graph mapped from a .tgb file is read only
// there. Throws a usage error for a rank outside [0, num_ranks).
template <typename V>
RankGraph partition_rank(const Graph<V>& graph, int num_ranks, int rank, const PartitionOptions& options = {});
RankGraph partition_rank(const AnyGraph& graph, int num_ranks, int rank, const PartitionOptions& options = {});

// The checks above, shared with plan_partition (partition_summary.h).
void check_num_ranks(int num_ranks);
void check_id_widths(uint64_t delegates, uint64_t most_normals_on_a_rank, uint64_t threshold, int num_ranks,
                     uint64_t id_limit);

}  // namespace tg::dist
