// Host programs over one rank of a degree-separated partition and a
// Communicator: BFS, SSSP (and CC) as min-relaxation, PageRank. They state
// docs/DISTRIBUTED.md's exchange rules in plain loops, so the rules are
// checked before the GPU code follows them: across InProcessCommunicator
// threads (partition_bfs_test.cc, partition_programs_test.cc) and across
// processes of mpirun (tests/distributed_mpi/). Not the product's code.
//   BFS: delegate frontier and visited as bitmasks OR-reduced every level; nn
//     destinations sent to their owners by alltoallv (as global ids, made
//     local on arrival), dn visits local.
//   SSSP and CC: min-relaxation along out-edges. A normal destination owned
//     elsewhere gets (slot, value) pairs by alltoallv, min-combined at the
//     owner; delegates' candidates are min-allreduced, so every rank settles
//     them alike. CC runs on undirected graphs, where every edge's reverse is
//     stored too (on the rank Algorithm 1 names for it): out-edges suffice.
//   PageRank: push of score/out-degree; normal destinations' sums by
//     alltoallv, delegates' sums and the dangling mass by sum-allreduce; a
//     delegate's out-degree is the sum of its dn and dd degrees over ranks.
// Each returns every vertex's value, gathered on every rank by global id.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include "distributed/communicator.h"
#include "distributed/degree_separation.h"
#include "distributed/partition.h"

namespace tg::test {

using dist::Communicator;
using dist::kNoLocalId;
using dist::RankGraph;
using dist::ReduceOp;

// The delegate id of v on this rank's numbering, or kNoLocalId.
inline uint32_t delegate_id(const RankGraph& g, uint64_t v) {
  const auto it = std::lower_bound(g.delegate_global.begin(), g.delegate_global.end(), v);
  return it != g.delegate_global.end() && *it == v ? static_cast<uint32_t>(it - g.delegate_global.begin()) : kNoLocalId;
}

using Bitmask = std::vector<uint64_t>;
inline bool test_bit(const Bitmask& m, uint64_t i) { return (m[i / 64] >> (i % 64)) & 1; }
inline void set_bit(Bitmask& m, uint64_t i) { m[i / 64] |= uint64_t{1} << (i % 64); }

struct VertexDepth {
  uint64_t vertex;
  int32_t depth;
};

// One rank's BFS; returns every vertex's depth (gathered on every rank).
// Which levels go bottom-up (undirected graphs only), as the GPU program's
// pulls do (distributed/gpu/bfs_kernels.cu): every unvisited normal looks
// through nd for a frontier delegate and nn for a visited normal (every
// rank's visited normals allgathered as bits by [owner][slot]: an unvisited
// normal has no neighbour visited before this level, so those are the
// frontier's), every unvisited delegate through dd and dn (the reverses of
// the frontier normals' nd edges are on their owner); no normal crosses
// ranks. The pushing levels after a pull send no normal those bits show
// visited, as the GPU program's sent bits do.
enum class HostBfsDirection { kPush, kPull, kAlternate };

inline std::vector<int32_t> rank_bfs(Communicator& c, const RankGraph& g, uint64_t source,
                                     HostBfsDirection direction = HostBfsDirection::kPush) {
  const int p = c.size();
  const uint32_t d = g.num_delegates();
  const size_t words = (d + 63) / 64;
  const uint64_t slot_words = (dist::DegreeSeparation::slots_on_rank(g.num_vertices, p, 0) + 63) / 64;  // rank 0 has the most

  std::vector<int32_t> normal_depth(g.num_normals(), -1), delegate_depth(d, -1);
  Bitmask visited(words, 0), delegate_frontier(words, 0);
  std::vector<uint32_t> frontier;  // local ids
  Bitmask known_visited(slot_words * p, 0);  // [owner * slot_words ...]: the last pull's gathered bits
  auto slot_bit = [&](uint64_t v) { return (v % p) * slot_words * 64 + v / p; };
  if (const uint32_t k = delegate_id(g, source); k != kNoLocalId) {
    set_bit(visited, k);
    set_bit(delegate_frontier, k);
    delegate_depth[k] = 0;
  } else if (g.owns_slot_of(source)) {
    normal_depth[g.local_id(source)] = 0;
    frontier.push_back(g.local_id(source));
  }

  for (int32_t level = 0;; ++level) {
    std::vector<uint32_t> next;
    auto visit_local = [&](uint32_t l) {
      if (normal_depth[l] >= 0) return;
      normal_depth[l] = level + 1;
      next.push_back(l);
    };
    Bitmask reached(words, 0);  // delegates reached from here this level
    auto reach_delegate = [&](uint32_t k) {
      if (!test_bit(visited, k)) set_bit(reached, k);
    };
    std::vector<std::vector<uint64_t>> to_owner(p);
    const bool pull = direction == HostBfsDirection::kPull || (direction == HostBfsDirection::kAlternate && level % 2 == 1);

    if (pull) {
      Bitmask mine(slot_words, 0);
      for (uint32_t u = 0; u < g.num_normals(); ++u)
        if (normal_depth[u] >= 0) set_bit(mine, g.normal_global[u] / p);
      known_visited = c.allgatherv(std::span<const uint64_t>(mine));  // [owner * slot_words ...]
      EXPECT_EQ(known_visited.size(), slot_words * p);
      auto visited_on_its_owner = [&](uint64_t v) { return test_bit(known_visited, slot_bit(v)); };
      for (uint32_t v = 0; v < g.num_normals(); ++v) {
        if (normal_depth[v] >= 0) continue;
        bool found = false;
        for (eid_t e = g.nd.offsets[v]; e < g.nd.offsets[v + 1] && !found; ++e) found = test_bit(delegate_frontier, g.nd.neighbors[e]);
        for (eid_t e = g.nn.offsets[v]; e < g.nn.offsets[v + 1] && !found; ++e) found = visited_on_its_owner(g.nn.neighbors[e]);
        if (found) visit_local(v);
      }
      for (uint32_t k = 0; k < d; ++k) {
        if (test_bit(visited, k)) continue;
        bool found = false;
        for (eid_t e = g.dd.offsets[k]; e < g.dd.offsets[k + 1] && !found; ++e) found = test_bit(delegate_frontier, g.dd.neighbors[e]);
        for (eid_t e = g.dn.offsets[k]; e < g.dn.offsets[k + 1] && !found; ++e) found = normal_depth[g.dn.neighbors[e]] == level;
        if (found) set_bit(reached, k);
      }
    } else {
      for (uint32_t u : frontier) {
        for (eid_t e = g.nn.offsets[u]; e < g.nn.offsets[u + 1]; ++e)
          if (!test_bit(known_visited, slot_bit(g.nn.neighbors[e])))
            to_owner[g.nn.neighbors[e] % p].push_back(g.nn.neighbors[e]);
        for (eid_t e = g.nd.offsets[u]; e < g.nd.offsets[u + 1]; ++e) reach_delegate(g.nd.neighbors[e]);
      }
      for (uint32_t k = 0; k < d; ++k) {
        if (!test_bit(delegate_frontier, k)) continue;
        for (eid_t e = g.dn.offsets[k]; e < g.dn.offsets[k + 1]; ++e) visit_local(g.dn.neighbors[e]);
        for (eid_t e = g.dd.offsets[k]; e < g.dd.offsets[k + 1]; ++e) reach_delegate(g.dd.neighbors[e]);
      }
    }

    // Normal vertices to their owners (Section V-B).
    std::vector<uint64_t> send, send_counts;
    for (const std::vector<uint64_t>& list : to_owner) {
      send.insert(send.end(), list.begin(), list.end());
      send_counts.push_back(list.size());
    }
    const std::vector<uint64_t> received = c.alltoallv(std::span<const uint64_t>(send), send_counts);
    for (uint64_t v : received) {
      EXPECT_TRUE(g.owns_slot_of(v)) << v << " sent to rank " << c.rank();
      const uint32_t l = g.local_id(v);
      EXPECT_NE(l, kNoLocalId) << "nn destination " << v << " is a delegate";
      if (l != kNoLocalId) visit_local(l);
    }

    // Delegates by a global OR (Section V-A): the same masks on every rank.
    // One more word says whether any rank has normal vertices to visit next,
    // so a level costs two collectives, not three.
    reached.push_back(next.empty() ? 0 : 1);
    c.bitwise_or(std::span<uint64_t>(reached));
    const bool normals_next = reached.back() != 0;
    reached.pop_back();
    bool delegates_next = false;
    for (size_t i = 0; i < words; ++i) {
      delegate_frontier[i] = reached[i] & ~visited[i];
      visited[i] |= reached[i];
      delegates_next |= delegate_frontier[i] != 0;
    }
    for (uint32_t k = 0; k < d; ++k)
      if (test_bit(delegate_frontier, k)) delegate_depth[k] = level + 1;
    frontier = std::move(next);
    if (!normals_next && !delegates_next) break;
  }

  // Every rank's delegate depths are rank 0's.
  std::vector<int32_t> rank0 = delegate_depth;
  c.broadcast(std::span<int32_t>(rank0), 0);
  EXPECT_EQ(delegate_depth, rank0) << "rank " << c.rank();

  std::vector<VertexDepth> mine;
  for (uint32_t l = 0; l < g.num_normals(); ++l) mine.push_back({g.normal_global[l], normal_depth[l]});
  std::vector<int32_t> depth(g.num_vertices, std::numeric_limits<int32_t>::min());
  for (const VertexDepth& x : c.allgatherv(std::span<const VertexDepth>(mine))) depth[x.vertex] = x.depth;
  for (uint32_t k = 0; k < d; ++k) depth[g.delegate_global[k]] = delegate_depth[k];
  return depth;
}

template <typename T>
struct SlotValue {
  uint32_t slot;
  T value;
};

// Sends each rank's (slot, value) pairs to their owners; returns what came here.
template <typename T>
std::vector<SlotValue<T>> to_owners(Communicator& c, const std::vector<std::vector<SlotValue<T>>>& out) {
  std::vector<SlotValue<T>> send;
  std::vector<uint64_t> counts;
  for (const auto& list : out) {
    send.insert(send.end(), list.begin(), list.end());
    counts.push_back(list.size());
  }
  return c.alltoallv(std::span<const SlotValue<T>>(send), counts);
}

// Every vertex's value, gathered on every rank by global id.
template <typename T>
std::vector<T> gather(Communicator& c, const RankGraph& g, const std::vector<T>& normal, const std::vector<T>& delegate) {
  struct VertexValue {
    uint64_t vertex;
    T value;
  };
  std::vector<VertexValue> mine;
  for (uint32_t l = 0; l < g.num_normals(); ++l) mine.push_back({g.normal_global[l], normal[l]});
  std::vector<T> all(g.num_vertices);
  for (const VertexValue& x : c.allgatherv(std::span<const VertexValue>(mine))) all[x.vertex] = x.value;
  for (uint32_t k = 0; k < g.num_delegates(); ++k) all[g.delegate_global[k]] = delegate[k];
  return all;
}

// Level-synchronous min-relaxation from the vertices whose initial value is
// finite (and not `idle`: they keep it and push nothing): candidate(u, w)
// along each out-edge, the smaller value kept.
using Candidate = std::function<double(double value, weight_t w)>;
inline std::vector<double> min_relax(Communicator& c, const RankGraph& g, const std::function<double(uint64_t)>& initial,
                                     const Candidate& candidate, const std::function<bool(uint64_t)>& idle = nullptr) {
  const int p = c.size();
  const uint32_t d = g.num_delegates();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  auto weight = [](const auto& csr, eid_t e) { return csr.weights.empty() ? weight_t{1} : csr.weights[e]; };

  std::vector<double> normal(g.num_normals()), delegate(d);
  std::vector<char> normal_changed(g.num_normals(), 0), delegate_changed(d, 0);
  auto starts = [&](uint64_t v, double x) { return std::isfinite(x) && !(idle && idle(v)); };
  for (uint32_t l = 0; l < g.num_normals(); ++l)
    normal_changed[l] = starts(g.normal_global[l], normal[l] = initial(g.normal_global[l]));
  for (uint32_t k = 0; k < d; ++k) delegate_changed[k] = starts(g.delegate_global[k], delegate[k] = initial(g.delegate_global[k]));

  for (int round = 0;; ++round) {
    EXPECT_LT(round, 100000) << "no fixed point";
    std::vector<double> next_normal = normal, delegate_candidate(d, kInf);
    std::vector<std::vector<SlotValue<double>>> out(p);
    auto relax_local = [&](uint32_t l, double x) { next_normal[l] = std::min(next_normal[l], x); };
    for (uint32_t u = 0; u < g.num_normals(); ++u) {
      if (!normal_changed[u]) continue;
      for (eid_t e = g.nn.offsets[u]; e < g.nn.offsets[u + 1]; ++e) {
        const uint64_t v = g.nn.neighbors[e];
        const double x = candidate(normal[u], weight(g.nn, e));
        if (g.owns_slot_of(v)) relax_local(g.local_id(v), x);
        else out[v % p].push_back({static_cast<uint32_t>(v / p), x});
      }
      for (eid_t e = g.nd.offsets[u]; e < g.nd.offsets[u + 1]; ++e) {
        double& to = delegate_candidate[g.nd.neighbors[e]];
        to = std::min(to, candidate(normal[u], weight(g.nd, e)));
      }
    }
    for (uint32_t k = 0; k < d; ++k) {
      if (!delegate_changed[k]) continue;
      for (eid_t e = g.dn.offsets[k]; e < g.dn.offsets[k + 1]; ++e)
        relax_local(g.dn.neighbors[e], candidate(delegate[k], weight(g.dn, e)));
      for (eid_t e = g.dd.offsets[k]; e < g.dd.offsets[k + 1]; ++e) {
        double& to = delegate_candidate[g.dd.neighbors[e]];
        to = std::min(to, candidate(delegate[k], weight(g.dd, e)));
      }
    }
    for (const SlotValue<double>& x : to_owners(c, out)) {
      const uint32_t l = g.local_of_slot[x.slot];
      EXPECT_NE(l, kNoLocalId) << "a delegate's slot was sent to its owner";
      if (l != kNoLocalId) relax_local(l, x.value);
    }
    c.allreduce(std::span<double>(delegate_candidate), ReduceOp::kMin);

    uint32_t any = 0;
    for (uint32_t l = 0; l < g.num_normals(); ++l) {
      normal_changed[l] = next_normal[l] < normal[l];
      any |= normal_changed[l];
      normal[l] = next_normal[l];
    }
    for (uint32_t k = 0; k < d; ++k) {
      delegate_changed[k] = delegate_candidate[k] < delegate[k];
      any |= delegate_changed[k];
      if (delegate_changed[k]) delegate[k] = delegate_candidate[k];
    }
    if (c.allreduce(any, ReduceOp::kMax) == 0) break;
  }
  return gather(c, g, normal, delegate);
}

inline std::vector<double> pagerank(Communicator& c, const RankGraph& g, double damping) {
  const int p = c.size();
  const uint32_t d = g.num_delegates();
  const double n = static_cast<double>(g.num_vertices);

  // Out-degrees: a normal vertex's edges are all here; a delegate's are spread.
  std::vector<double> normal_degree(g.num_normals()), delegate_degree(d);
  for (uint32_t u = 0; u < g.num_normals(); ++u) normal_degree[u] = static_cast<double>(g.nn.degree(u) + g.nd.degree(u));
  for (uint32_t k = 0; k < d; ++k) delegate_degree[k] = static_cast<double>(g.dn.degree(k) + g.dd.degree(k));
  c.allreduce(std::span<double>(delegate_degree), ReduceOp::kSum);

  std::vector<double> normal(g.num_normals(), 1.0 / n), delegate(d, 1.0 / n);
  for (int iteration = 0; iteration < 1000; ++iteration) {
    std::vector<double> normal_sum(g.num_normals(), 0.0), delegate_sum(d + 1, 0.0);  // last: the dangling mass
    std::vector<std::vector<SlotValue<double>>> out(p);
    for (uint32_t u = 0; u < g.num_normals(); ++u) {
      if (normal_degree[u] == 0) {
        delegate_sum[d] += normal[u];
        continue;
      }
      const double share = normal[u] / normal_degree[u];
      for (eid_t e = g.nn.offsets[u]; e < g.nn.offsets[u + 1]; ++e) {
        const uint64_t v = g.nn.neighbors[e];
        if (g.owns_slot_of(v)) normal_sum[g.local_id(v)] += share;
        else out[v % p].push_back({static_cast<uint32_t>(v / p), share});
      }
      for (eid_t e = g.nd.offsets[u]; e < g.nd.offsets[u + 1]; ++e) delegate_sum[g.nd.neighbors[e]] += share;
    }
    for (uint32_t k = 0; k < d; ++k) {  // delegates have out-degree > TH >= 0: never dangling
      const double share = delegate[k] / delegate_degree[k];
      for (eid_t e = g.dn.offsets[k]; e < g.dn.offsets[k + 1]; ++e) normal_sum[g.dn.neighbors[e]] += share;
      for (eid_t e = g.dd.offsets[k]; e < g.dd.offsets[k + 1]; ++e) delegate_sum[g.dd.neighbors[e]] += share;
    }
    for (const SlotValue<double>& x : to_owners(c, out)) normal_sum[g.local_of_slot[x.slot]] += x.value;
    c.allreduce(std::span<double>(delegate_sum), ReduceOp::kSum);

    const double base = (1.0 - damping) / n + damping * delegate_sum[d] / n;
    double change = 0;
    for (uint32_t l = 0; l < g.num_normals(); ++l) {
      const double x = base + damping * normal_sum[l];
      change += std::abs(x - normal[l]);
      normal[l] = x;
    }
    double delegate_change = 0;  // the same on every rank: counted once
    for (uint32_t k = 0; k < d; ++k) {
      const double x = base + damping * delegate_sum[k];
      delegate_change += std::abs(x - delegate[k]);
      delegate[k] = x;
    }
    if (c.allreduce(change, ReduceOp::kSum) + delegate_change < 1e-13) break;
  }
  return gather(c, g, normal, delegate);
}

// CC seeded by a BFS, as RankRelax<CcRule> where there are delegates: the BFS
// from a hub (rank 0's delegate with the most edges stored there, broadcast)
// finds the hub's component; its vertices take its least id at once and push
// nothing (no edge leaves a component); min-propagation of ids labels the rest.
inline std::vector<double> seeded_cc(Communicator& c, const RankGraph& g) {
  auto identity = [](double label, weight_t) { return label; };
  auto own_id = [](uint64_t v) { return static_cast<double>(v); };
  if (g.num_delegates() == 0) return min_relax(c, g, own_id, identity);
  std::vector<uint32_t> hub(1, 0);
  eid_t most = 0;
  for (uint32_t k = 0; k < g.num_delegates(); ++k) {
    const eid_t edges = (g.dn.offsets[k + 1] - g.dn.offsets[k]) + (g.dd.offsets[k + 1] - g.dd.offsets[k]);
    if (edges > most) {
      most = edges;
      hub[0] = k;
    }
  }
  c.broadcast(std::span<uint32_t>(hub), 0);
  const std::vector<int32_t> depth = rank_bfs(c, g, g.delegate_global[hub[0]]);
  uint64_t least = std::numeric_limits<uint64_t>::max();
  for (uint64_t v = 0; v < depth.size(); ++v)
    if (depth[v] >= 0) least = std::min(least, v);
  auto seeded = [&](uint64_t v) { return depth[v] >= 0; };
  return min_relax(
      c, g, [&](uint64_t v) { return seeded(v) ? static_cast<double>(least) : static_cast<double>(v); }, identity, seeded);
}

}  // namespace tg::test
