// The exchange rules of docs/DISTRIBUTED.md's table for SSSP, CC and
// PageRank, checked on the host before they move to GPUs: each runs across
// InProcessCommunicator ranks over a degree-separated partition and must give
// the sequential reference's values. Like partition_bfs_test.cc, a proof of
// the rules (what crosses ranks and how it combines), not the product's code.
//   SSSP and CC: min-relaxation along out-edges. A normal destination owned
//     elsewhere gets (slot, value) pairs by alltoallv, min-combined at the
//     owner; delegates' candidates are min-allreduced, so every rank settles
//     them alike. CC runs on undirected graphs, where every edge's reverse is
//     stored too (on the rank Algorithm 1 names for it): out-edges suffice.
//   PageRank: push of score/out-degree; normal destinations' sums by
//     alltoallv, delegates' sums and the dangling mass by sum-allreduce; a
//     delegate's out-degree is the sum of its dn and dd degrees over ranks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "distributed/in_process_communicator.h"
#include "distributed/partition.h"
#include "support/reference.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

using dist::Communicator;
using dist::kNoLocalId;
using dist::Partition;
using dist::PartitionOptions;
using dist::RankGraph;
using dist::ReduceOp;

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
std::vector<T> gather(Communicator& c, const Partition& part, const std::vector<T>& normal, const std::vector<T>& delegate) {
  const RankGraph& g = part.ranks[c.rank()];
  struct VertexValue {
    uint64_t vertex;
    T value;
  };
  std::vector<VertexValue> mine;
  for (uint32_t l = 0; l < g.num_normals(); ++l) mine.push_back({g.normal_global[l], normal[l]});
  std::vector<T> all(part.num_vertices);
  for (const VertexValue& x : c.allgatherv(std::span<const VertexValue>(mine))) all[x.vertex] = x.value;
  for (uint32_t k = 0; k < g.num_delegates(); ++k) all[g.delegate_global[k]] = delegate[k];
  return all;
}

// Level-synchronous min-relaxation from the vertices whose initial value is
// finite: candidate(u, w) along each out-edge, the smaller value kept.
using Candidate = std::function<double(double value, weight_t w)>;
std::vector<double> min_relax(Communicator& c, const Partition& part, const std::function<double(uint64_t)>& initial,
                              const Candidate& candidate) {
  const RankGraph& g = part.ranks[c.rank()];
  const int p = c.size();
  const uint32_t d = g.num_delegates();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  auto weight = [](const auto& csr, eid_t e) { return csr.weights.empty() ? weight_t{1} : csr.weights[e]; };

  std::vector<double> normal(g.num_normals()), delegate(d);
  std::vector<char> normal_changed(g.num_normals(), 0), delegate_changed(d, 0);
  for (uint32_t l = 0; l < g.num_normals(); ++l) normal_changed[l] = std::isfinite(normal[l] = initial(g.normal_global[l]));
  for (uint32_t k = 0; k < d; ++k) delegate_changed[k] = std::isfinite(delegate[k] = initial(g.delegate_global[k]));

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
  return gather(c, part, normal, delegate);
}

std::vector<double> pagerank(Communicator& c, const Partition& part, double damping) {
  const RankGraph& g = part.ranks[c.rank()];
  const int p = c.size();
  const uint32_t d = g.num_delegates();
  const double n = static_cast<double>(part.num_vertices);

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
  return gather(c, part, normal, delegate);
}

template <typename F>
std::vector<double> across_ranks(const Partition& part, F program) {
  std::vector<std::vector<double>> per_rank(part.num_ranks());
  dist::run_ranks(part.num_ranks(), [&](Communicator& c) { per_rank[c.rank()] = program(c); });
  for (int r = 1; r < part.num_ranks(); ++r) EXPECT_EQ(per_rank[r], per_rank[0]) << "rank " << r;
  return per_rank[0];
}

const std::vector<std::optional<uint64_t>> kThresholds = {0, 1, std::nullopt, std::numeric_limits<uint64_t>::max()};

class PartitionProgramsTest : public ::testing::TestWithParam<std::string> {};

// Integer weights, so sums are exact and the distances must be equal.
TEST_P(PartitionProgramsTest, SsspEqualsDijkstra) {
  const Shape& shape = find_shape(GetParam());
  for (Orientation o : {Orientation::kDirectedNoCsc, Orientation::kUndirected}) {
    const AnyGraph graph = build_variant(with_weights(shape.edges, WeightKind::kInteger, 5), o, false);
    const std::vector<uint64_t> sources = test_sources(graph, 1, 7);
    size_t turn = 0;
    for (int p : {1, 2, 3})
      for (std::optional<uint64_t> th : kThresholds) {
        if (sources.empty()) continue;
        const uint64_t source = sources[turn++ % sources.size()];
        const Partition part = dist::partition_graph(graph, p, PartitionOptions{.threshold = th});
        const std::vector<double> dist = across_ranks(part, [&](Communicator& c) {
          return min_relax(
              c, part, [&](uint64_t v) { return v == source ? 0.0 : std::numeric_limits<double>::infinity(); },
              [](double du, weight_t w) { return du + static_cast<double>(w); });
        });
        ASSERT_EQ(dist, reference_sssp(graph, source))
            << orientation_name(o) << ", " << p << " ranks, TH " << part.threshold << ", source " << source;
      }
  }
}

// Labels are the smallest id of the component: min-propagation of ids.
TEST_P(PartitionProgramsTest, CcEqualsUnionFind) {
  const AnyGraph graph = build_variant(find_shape(GetParam()).edges, Orientation::kUndirected, false);
  std::vector<double> expected;
  for (uint64_t label : reference_cc(graph)) expected.push_back(static_cast<double>(label));
  for (int p : {1, 2, 4})
    for (std::optional<uint64_t> th : kThresholds) {
      const Partition part = dist::partition_graph(graph, p, PartitionOptions{.threshold = th});
      const std::vector<double> labels = across_ranks(part, [&](Communicator& c) {
        return min_relax(
            c, part, [](uint64_t v) { return static_cast<double>(v); }, [](double label, weight_t) { return label; });
      });
      ASSERT_EQ(labels, expected) << p << " ranks, TH " << part.threshold;
    }
}

TEST_P(PartitionProgramsTest, PageRankEqualsPowerIteration) {
  const Shape& shape = find_shape(GetParam());
  for (Orientation o : {Orientation::kDirectedNoCsc, Orientation::kUndirected}) {
    const AnyGraph graph = build_variant(shape.edges, o, false);
    if (num_vertices(graph) == 0) continue;
    const std::vector<double> expected = reference_pagerank(graph, AlgorithmOptions{});
    for (int p : {1, 3})
      for (std::optional<uint64_t> th : kThresholds) {
        const Partition part = dist::partition_graph(graph, p, PartitionOptions{.threshold = th});
        const std::vector<double> rank = across_ranks(part, [&](Communicator& c) { return pagerank(c, part, 0.85); });
        ASSERT_EQ(rank.size(), expected.size());
        for (size_t v = 0; v < rank.size(); ++v)
          ASSERT_NEAR(rank[v], expected[v], 1e-10) << orientation_name(o) << ", " << p << " ranks, TH "
                                                   << part.threshold << ", vertex " << v;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, PartitionProgramsTest, ::testing::ValuesIn(shape_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace tg::test
