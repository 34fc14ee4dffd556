// The edge distributor: Algorithm 1 of Pan, Pearce and Owens (IPDPS 2018)
// run over a whole CSR in parallel. Every row of every rank's four CSRs
// belongs to one source vertex u (nn, nd: u's local row on its owner; dn, dd:
// u's delegate row on each rank), so one thread writes it, in u's neighbour
// order, and the result is the same for any thread count without atomics.
#include "distributed/partition.h"

#include <omp.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "distributed/degree_separation.h"
#include "distributed/edge_rule.h"
#include "engines/cpu/parallel.h"

namespace tg::dist {

namespace {

// Each vertex's id in its role: delegate id, or local id on its owner.
struct VertexNumbering {
  Array<uint32_t> id;
  uint64_t delegates = 0;
  std::vector<uint64_t> normals;  // per rank
};

// Ids are ranks in ascending global order, so a parallel block scan: count
// per block (delegates, and normal vertices per owner), prefix over blocks,
// then number within each block. The ids are counts, not thread-dependent.
VertexNumbering number_vertices(const DegreeSeparation& sep, uint64_t n) {
  const int p = sep.num_ranks();
  const uint64_t columns = static_cast<uint64_t>(p) + 1;  // 0: delegates, 1 + r: normal vertices of rank r
  const int blocks = n < (uint64_t{1} << 16) ? 1 : omp_get_max_threads();
  std::vector<uint64_t> start(static_cast<uint64_t>(blocks + 1) * columns, 0);
  auto block_begin = [&](int b) { return n * static_cast<uint64_t>(b) / static_cast<uint64_t>(blocks); };

#pragma omp parallel for schedule(static, 1) if (blocks > 1)
  for (int b = 0; b < blocks; ++b) {
    uint64_t* count = &start[static_cast<uint64_t>(b + 1) * columns];
    for (uint64_t v = block_begin(b); v < block_begin(b + 1); ++v)
      ++count[sep.is_delegate(v) ? 0 : 1 + static_cast<uint64_t>(sep.owner(v))];
  }
  for (int b = 1; b <= blocks; ++b)
    for (uint64_t c = 0; c < columns; ++c) start[b * columns + c] += start[(b - 1) * columns + c];

  VertexNumbering out;
  out.id = Array<uint32_t>::allocate(n);
  uint32_t* id = out.id.data();
#pragma omp parallel for schedule(static, 1) if (blocks > 1)
  for (int b = 0; b < blocks; ++b) {
    std::vector<uint64_t> next(&start[static_cast<uint64_t>(b) * columns], &start[static_cast<uint64_t>(b + 1) * columns]);
    for (uint64_t v = block_begin(b); v < block_begin(b + 1); ++v)
      id[v] = static_cast<uint32_t>(next[sep.is_delegate(v) ? 0 : 1 + static_cast<uint64_t>(sep.owner(v))]++);
  }
  const uint64_t* total = &start[static_cast<uint64_t>(blocks) * columns];
  out.delegates = total[0];
  out.normals.assign(total + 1, total + columns);
  return out;
}

// Which ranks' parts a build makes: every rank's, or one (partition_rank).
// The others' rows are neither counted nor filled, and their sources' lists
// never read.
struct RankFilter {
  int only = -1;  // -1: every rank
  bool operator()(int r) const { return only < 0 || r == only; }
};

// The id maps of the wanted ranks: delegate_global (shared), normal_global, local_of_slot.
void fill_id_maps(const DegreeSeparation& sep, uint64_t n, const VertexNumbering& numbering, const RankFilter& wanted,
                  Partition& part) {
  const int p = sep.num_ranks();
  part.delegate_global = Array<uint64_t>::allocate(numbering.delegates);
  std::vector<uint64_t*> normal_global(p, nullptr);
  std::vector<uint32_t*> local_of_slot(p, nullptr);
  for (int r = 0; r < p; ++r) {
    RankGraph& rank = part.ranks[r];
    rank.delegate_global = part.delegate_global;
    if (!wanted(r)) continue;
    rank.normal_global = Array<uint64_t>::allocate(numbering.normals[r]);
    rank.local_of_slot = Array<uint32_t>::allocate(DegreeSeparation::slots_on_rank(n, p, r));
    normal_global[r] = rank.normal_global.data();
    local_of_slot[r] = rank.local_of_slot.data();
  }
  uint64_t* delegate_global = part.delegate_global.data();
  const uint32_t* id = numbering.id.data();
#pragma omp parallel for schedule(static) if (n > (uint64_t{1} << 16))
  for (uint64_t v = 0; v < n; ++v) {
    const int r = sep.owner(v);
    const bool delegate = sep.is_delegate(v);
    if (delegate) delegate_global[id[v]] = v;
    if (!wanted(r)) continue;
    if (delegate) {
      local_of_slot[r][sep.slot(v)] = kNoLocalId;
    } else {
      normal_global[r][id[v]] = v;
      local_of_slot[r][sep.slot(v)] = id[v];
    }
  }
}

// Raw pointers to one edge kind's CSR on every rank, for the passes below.
template <typename N>
struct KindTargets {
  std::vector<eid_t*> offsets;
  std::vector<N*> neighbors;
  std::vector<weight_t*> weights;
};

// rows[r] rows on rank r; the counting pass fills all but the last entry.
template <typename N>
KindTargets<N> allocate_offsets(const std::vector<Csr<N>*>& csrs, const std::vector<uint64_t>& rows) {
  KindTargets<N> t;
  for (size_t r = 0; r < csrs.size(); ++r) {
    if (csrs[r] == nullptr) {  // a rank this build leaves out
      t.offsets.push_back(nullptr);
      continue;
    }
    csrs[r]->offsets = Array<eid_t>::allocate(rows[r] + 1);
    csrs[r]->offsets[rows[r]] = 0;
    t.offsets.push_back(csrs[r]->offsets.data());
  }
  return t;
}

// Row degrees to offsets (in place), then the edge arrays of that size.
template <typename N>
void allocate_edges(const std::vector<Csr<N>*>& csrs, bool weighted, KindTargets<N>& t) {
  for (size_t r = 0; r < csrs.size(); ++r) {
    if (csrs[r] == nullptr) {
      t.neighbors.push_back(nullptr);
      t.weights.push_back(nullptr);
      continue;
    }
    Csr<N>& csr = *csrs[r];
    const uint64_t rows = csr.offsets.size() - 1;
    const eid_t m = parallel_exclusive_scan(csr.offsets.data(), rows, csr.offsets.data());
    csr.neighbors = Array<N>::allocate(m);
    if (weighted) csr.weights = Array<weight_t>::allocate(m);
    t.neighbors.push_back(csr.neighbors.data());
    t.weights.push_back(weighted ? csr.weights.data() : nullptr);
  }
}

// A graph's lists are sorted when the builder made it, and then so is every
// row here (ids ascend with global ids); other sources are sorted now.
template <typename N>
void sort_rows(Csr<N>& csr) {
  const uint64_t rows = csr.offsets.size() - 1;
  const bool weighted = !csr.weights.empty();
#pragma omp parallel for schedule(dynamic, 1024) if (rows > 4096)
  for (uint64_t row = 0; row < rows; ++row) {
    N* nbr = csr.neighbors.data() + csr.offsets[row];
    const eid_t len = csr.offsets[row + 1] - csr.offsets[row];
    if (!weighted) {
      if (!std::is_sorted(nbr, nbr + len)) std::sort(nbr, nbr + len);
      continue;
    }
    weight_t* w = csr.weights.data() + csr.offsets[row];
    std::vector<std::pair<N, weight_t>> pairs(len);
    for (eid_t i = 0; i < len; ++i) pairs[i] = {nbr[i], w[i]};
    if (std::is_sorted(pairs.begin(), pairs.end())) continue;
    std::sort(pairs.begin(), pairs.end());
    for (eid_t i = 0; i < len; ++i) std::tie(nbr[i], w[i]) = pairs[i];
  }
}

// nd and dd rows (a list of delegates) hub first: the row's kHubsFirst
// highest-degree delegates lead it, by out-degree descending, then id (the
// rest follow in an order of no meaning). A bottom-up BFS level stops at a
// vertex's first neighbour in the frontier, and an unvisited vertex's
// neighbour nearest the source is most often its highest-degree one: in id
// order (random on kron) each rank scanned its share of a list as far as one
// GPU scans the whole, since the ranks cannot stop each other within a level.
// A partial sort: a whole one cost 70% more partition time at kron:22. The
// degrees as 4 bytes (saturated: no order among degrees past 2^32 - 1),
// half the footprint of the random reads each entry makes.
void sort_rows_hubs_first(Csr<uint32_t>& csr, const std::vector<uint32_t>& delegate_degree) {
  const uint64_t rows = csr.offsets.size() - 1;
  const bool weighted = !csr.weights.empty();
  const auto before = [&](uint32_t a, uint32_t b) {
    return delegate_degree[a] != delegate_degree[b] ? delegate_degree[a] > delegate_degree[b] : a < b;
  };
#pragma omp parallel for schedule(dynamic, 1024) if (rows > 4096)
  for (uint64_t row = 0; row < rows; ++row) {
    uint32_t* nbr = csr.neighbors.data() + csr.offsets[row];
    const eid_t len = csr.offsets[row + 1] - csr.offsets[row];
    const eid_t lead = std::min(len, kHubsFirst);
    if (!weighted) {
      std::partial_sort(nbr, nbr + lead, nbr + len, before);
      continue;
    }
    weight_t* w = csr.weights.data() + csr.offsets[row];
    std::vector<std::pair<uint32_t, weight_t>> pairs(len);
    for (eid_t i = 0; i < len; ++i) pairs[i] = {nbr[i], w[i]};
    std::partial_sort(pairs.begin(), pairs.begin() + lead, pairs.end(), [&](const auto& x, const auto& y) {
      return x.first != y.first ? before(x.first, y.first) : x.second < y.second;
    });
    for (eid_t i = 0; i < len; ++i) std::tie(nbr[i], w[i]) = pairs[i];
  }
}

template <typename V>
struct Distributor {
  const Graph<V>& graph;
  const EdgeRule& sep;
  const uint32_t* id;
  int p;
  RankFilter wanted;
  KindTargets<uint64_t> nn;
  KindTargets<uint32_t> nd, dn, dd;

  // Pass 1: each source's row lengths. A delegate's edges scatter over ranks
  // (Algorithm 1 lines 5-10); per-thread counters, one per rank, gather them.
  void count_rows() {
    const uint64_t n = graph.num_vertices;
#pragma omp parallel
    {
      std::vector<eid_t> to_dn(p), to_dd(p);
#pragma omp for schedule(dynamic, 1024)
      for (uint64_t u = 0; u < n; ++u) {
        const eid_t begin = graph.out.offsets[u], end = graph.out.offsets[u + 1];
        const uint32_t row = id[u];
        if (!sep.is_delegate(u)) {
          if (!wanted(sep.owner(u))) continue;
          eid_t to_delegates = 0;
          for (eid_t e = begin; e < end; ++e) to_delegates += sep.is_delegate(graph.out.neighbors[e]);
          nn.offsets[sep.owner(u)][row] = end - begin - to_delegates;
          nd.offsets[sep.owner(u)][row] = to_delegates;
          continue;
        }
        std::fill(to_dn.begin(), to_dn.end(), 0);
        std::fill(to_dd.begin(), to_dd.end(), 0);
        for (eid_t e = begin; e < end; ++e) {
          const EdgePlace place = sep.place(u, graph.out.neighbors[e]);
          ++(place.kind == EdgeKind::kDN ? to_dn : to_dd)[place.rank];
        }
        for (int r = 0; r < p; ++r) {
          if (!wanted(r)) continue;
          dn.offsets[r][row] = to_dn[r];
          dd.offsets[r][row] = to_dd[r];
        }
      }
    }
  }

  // Pass 2, after the offsets: the same walk, writing each edge at its row's cursor.
  void fill_rows() {
    const uint64_t n = graph.num_vertices;
    const bool weighted = graph.weighted();
#pragma omp parallel
    {
      std::vector<eid_t> dn_at(p), dd_at(p);
#pragma omp for schedule(dynamic, 1024)
      for (uint64_t u = 0; u < n; ++u) {
        const eid_t begin = graph.out.offsets[u], end = graph.out.offsets[u + 1];
        const uint32_t row = id[u];
        if (!sep.is_delegate(u)) {
          const int r = sep.owner(u);
          if (!wanted(r)) continue;
          eid_t nn_at = nn.offsets[r][row], nd_at = nd.offsets[r][row];
          for (eid_t e = begin; e < end; ++e) {
            const uint64_t v = graph.out.neighbors[e];
            const weight_t w = weighted ? graph.out.weights[e] : weight_t{};
            if (sep.is_delegate(v)) {
              if (weighted) nd.weights[r][nd_at] = w;
              nd.neighbors[r][nd_at++] = sep.delegate_id(v);
            } else {
              if (weighted) nn.weights[r][nn_at] = w;
              nn.neighbors[r][nn_at++] = v;
            }
          }
          continue;
        }
        for (int r = 0; r < p; ++r) {
          if (!wanted(r)) continue;
          dn_at[r] = dn.offsets[r][row];
          dd_at[r] = dd.offsets[r][row];
        }
        for (eid_t e = begin; e < end; ++e) {
          const uint64_t v = graph.out.neighbors[e];
          const EdgePlace place = sep.place(u, v);
          if (!wanted(place.rank)) continue;
          KindTargets<uint32_t>& kind = place.kind == EdgeKind::kDN ? dn : dd;
          eid_t& at = (place.kind == EdgeKind::kDN ? dn_at : dd_at)[place.rank];
          if (weighted) kind.weights[place.rank][at] = graph.out.weights[e];
          kind.neighbors[place.rank][at++] = place.kind == EdgeKind::kDD ? sep.delegate_id(v) : id[v];
        }
      }
    }
  }
};

template <typename N>
std::vector<Csr<N>*> csrs_of(Partition& part, Csr<N> RankGraph::*member, const RankFilter& wanted) {
  std::vector<Csr<N>*> out;
  for (RankGraph& rank : part.ranks) out.push_back(wanted(rank.rank) ? &(rank.*member) : nullptr);
  return out;
}

}  // namespace

void check_num_ranks(int num_ranks) {
  if (num_ranks < 1) throw usage_error("the number of ranks must be at least 1, not " + std::to_string(num_ranks));
}

void check_id_widths(uint64_t delegates, uint64_t most_normals_on_a_rank, uint64_t threshold, int num_ranks,
                     uint64_t id_limit) {
  if (delegates > id_limit)
    throw usage_error("degree threshold " + std::to_string(threshold) + " makes " + std::to_string(delegates) +
                      " delegates, more than the " + std::to_string(id_limit) +
                      " that 32-bit delegate ids can number: raise the threshold");
  if (most_normals_on_a_rank > id_limit)
    throw usage_error(std::to_string(num_ranks) + " ranks leave " + std::to_string(most_normals_on_a_rank) +
                      " normal vertices on one rank, more than the " + std::to_string(id_limit) +
                      " that 32-bit local ids can number: use more ranks");
}

uint32_t Partition::delegate_id(uint64_t v) const {
  const uint64_t* at = std::lower_bound(delegate_global.begin(), delegate_global.end(), v);
  return at != delegate_global.end() && *at == v ? static_cast<uint32_t>(at - delegate_global.begin()) : kNoLocalId;
}

template <typename V>
uint64_t choose_threshold(const Graph<V>& graph, int num_ranks, const PartitionOptions& options) {
  check_num_ranks(num_ranks);
  if (options.threshold) return *options.threshold;
  // With no vertices the offsets may be absent, and are not read.
  return default_degree_threshold(graph.out.offsets.data(), graph.num_vertices, num_ranks, options.rule, options.id_limit);
}

namespace {

// The parts of the wanted ranks; the others are left empty.
template <typename V>
Partition build_partition(const Graph<V>& graph, int num_ranks, const PartitionOptions& options,
                          const RankFilter& wanted) {
  const uint64_t threshold = choose_threshold(graph, num_ranks, options);
  const uint64_t n = graph.num_vertices;
  const DegreeSeparation sep = separate(graph, threshold, num_ranks);

  const VertexNumbering numbering = number_vertices(sep, n);
  check_id_widths(numbering.delegates, *std::max_element(numbering.normals.begin(), numbering.normals.end()),
                  threshold, num_ranks, options.id_limit);

  Partition part;
  part.num_vertices = n;
  part.directed = graph.directed;
  part.weighted = graph.weighted();
  part.threshold = threshold;
  part.ranks.resize(num_ranks);
  for (int r = 0; r < num_ranks; ++r) {
    part.ranks[r].rank = r;
    part.ranks[r].num_ranks = num_ranks;
    part.ranks[r].num_vertices = n;
    part.ranks[r].threshold = threshold;
    part.ranks[r].weighted = part.weighted;
  }
  fill_id_maps(sep, n, numbering, wanted, part);

  const EdgeRule rule(sep, n);
  Distributor<V> distributor{graph, rule, numbering.id.data(), num_ranks, wanted, {}, {}, {}, {}};
  const auto nn = csrs_of(part, &RankGraph::nn, wanted);
  const auto nd = csrs_of(part, &RankGraph::nd, wanted);
  const auto dn = csrs_of(part, &RankGraph::dn, wanted);
  const auto dd = csrs_of(part, &RankGraph::dd, wanted);
  // nn and nd have a row per local normal vertex, dn and dd one per delegate.
  const std::vector<uint64_t> delegate_rows(num_ranks, numbering.delegates);
  distributor.nn = allocate_offsets(nn, numbering.normals);
  distributor.nd = allocate_offsets(nd, numbering.normals);
  distributor.dn = allocate_offsets(dn, delegate_rows);
  distributor.dd = allocate_offsets(dd, delegate_rows);

  distributor.count_rows();
  allocate_edges(nn, part.weighted, distributor.nn);
  allocate_edges(nd, part.weighted, distributor.nd);
  allocate_edges(dn, part.weighted, distributor.dn);
  allocate_edges(dd, part.weighted, distributor.dd);
  distributor.fill_rows();

  // nd and dd hub first (docs/DISTRIBUTED.md: measured against id order on
  // 2 H100 and 4 H200).
  std::vector<uint32_t> delegate_degree(numbering.delegates);
#pragma omp parallel for schedule(static)
  for (uint64_t k = 0; k < delegate_degree.size(); ++k)
    delegate_degree[k] = static_cast<uint32_t>(std::min<eid_t>(sep.out_degree(part.delegate_global[k]), UINT32_MAX));
  for (RankGraph& rank : part.ranks) {
    if (!wanted(rank.rank)) continue;
    sort_rows(rank.nn);
    sort_rows(rank.dn);
    sort_rows_hubs_first(rank.nd, delegate_degree);
    sort_rows_hubs_first(rank.dd, delegate_degree);
  }
  return part;
}

}  // namespace

template <typename V>
Partition partition_graph(const Graph<V>& graph, int num_ranks, const PartitionOptions& options) {
  return build_partition(graph, num_ranks, options, RankFilter{});
}

template <typename V>
RankGraph partition_rank(const Graph<V>& graph, int num_ranks, int rank, const PartitionOptions& options) {
  check_num_ranks(num_ranks);
  if (rank < 0 || rank >= num_ranks)
    throw usage_error("rank " + std::to_string(rank) + " is not one of the " + std::to_string(num_ranks) + " ranks");
  Partition part = build_partition(graph, num_ranks, options, RankFilter{rank});
  return std::move(part.ranks[rank]);
}

Partition partition_graph(const AnyGraph& graph, int num_ranks, const PartitionOptions& options) {
  return std::visit([&](const auto& g) { return partition_graph(g, num_ranks, options); }, graph);
}

RankGraph partition_rank(const AnyGraph& graph, int num_ranks, int rank, const PartitionOptions& options) {
  return std::visit([&](const auto& g) { return partition_rank(g, num_ranks, rank, options); }, graph);
}

template uint64_t choose_threshold(const Graph<vid32_t>&, int, const PartitionOptions&);
template uint64_t choose_threshold(const Graph<vid64_t>&, int, const PartitionOptions&);
template Partition partition_graph(const Graph<vid32_t>&, int, const PartitionOptions&);
template Partition partition_graph(const Graph<vid64_t>&, int, const PartitionOptions&);
template RankGraph partition_rank(const Graph<vid32_t>&, int, int, const PartitionOptions&);
template RankGraph partition_rank(const Graph<vid64_t>&, int, int, const PartitionOptions&);

}  // namespace tg::dist
