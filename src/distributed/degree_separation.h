// The degree separation of Pan, Pearce and Owens, "Scalable Breadth-First
// Search on a GPU Cluster" (IPDPS 2018), Section III: which vertices are
// delegates, which rank owns a normal vertex, and on which rank each edge is
// stored (their Algorithm 1, the edge distributor). Everything here is a
// function of the out-degrees, so any rank can compute any edge's place
// locally, "without table lookup or remote query" (Section III-B).
#pragma once

#include <cstdint>

#include "core/types.h"
#include "graph/graph.h"

namespace tg::dist {

// The four subgraphs of Section III-B, named by the kinds of an edge's source
// and destination: normal or delegate.
enum class EdgeKind : uint8_t { kNN, kND, kDN, kDD };
constexpr int kNumEdgeKinds = 4;
inline const char* edge_kind_name(EdgeKind kind) {
  constexpr const char* kNames[kNumEdgeKinds] = {"nn", "nd", "dn", "dd"};
  return kNames[static_cast<int>(kind)];
}

struct EdgePlace {
  int rank;
  EdgeKind kind;
};

// Where global id v lives, v = slot * P + owner (DegreeSeparation::owner and
// slot), for the GPU kernels, once or twice per nn edge: a shift and a mask
// where P is a power of two (rank_shift = log2 P: 1, 2, 4, 8 GPUs), else a
// 64-bit division, which a GPU runs as a routine of dozens of instructions.
struct RankOf {
  uint32_t owner;
  uint64_t slot;
};
// log2(num_ranks) where it is a power of two, else -1.
inline int rank_shift_of(int num_ranks) {
  const auto p = static_cast<unsigned>(num_ranks);
  if (p == 0 || (p & (p - 1)) != 0) return -1;
  int shift = 0;
  while ((1u << shift) < p) ++shift;
  return shift;
}
TG_HD RankOf rank_of(uint64_t v, int num_ranks, int rank_shift) {
  if (rank_shift >= 0) return {static_cast<uint32_t>(v & ((uint64_t{1} << rank_shift) - 1)), v >> rank_shift};
  const auto p = static_cast<uint64_t>(num_ranks);
  return {static_cast<uint32_t>(v % p), v / p};
}

// Reads a graph's out-CSR offsets; holds no arrays of its own.
class DegreeSeparation {
 public:
  DegreeSeparation(const eid_t* out_offsets, uint64_t threshold, int num_ranks)
      : offsets_(out_offsets), threshold_(threshold), num_ranks_(static_cast<uint64_t>(num_ranks)) {}

  uint64_t threshold() const { return threshold_; }
  int num_ranks() const { return static_cast<int>(num_ranks_); }
  eid_t out_degree(uint64_t v) const { return offsets_[v + 1] - offsets_[v]; }

  // Section II-A: "delegates: vertices with out-degree larger than TH".
  bool is_delegate(uint64_t v) const { return out_degree(v) > threshold_; }

  // Algorithm 1's P(v) = v mod p. With one GPU a rank (our ranks are GPUs)
  // the paper's two-level P(v), G(v) = (v / p_rank) mod p_gpu is this same
  // residue split in two. Kronecker's ids are permuted (Graph500, and
  // generators.h's kron_permute), so residues spread the high-degree
  // vertices and the edges evenly; a range split would not (low ids are
  // denser in an unpermuted RMAT graph, and files often list hubs first).
  int owner(uint64_t v) const { return static_cast<int>(v % num_ranks_); }
  // The owner's slot for v: owned vertices are v = slot * p + rank.
  uint64_t slot(uint64_t v) const { return v / num_ranks_; }
  // How many of [0, n) a rank owns: its slots.
  static uint64_t slots_on_rank(uint64_t n, int num_ranks, int rank) {
    const uint64_t r = static_cast<uint64_t>(rank), p = static_cast<uint64_t>(num_ranks);
    return n > r ? (n - r + p - 1) / p : 0;
  }

  // Algorithm 1. An edge from a normal vertex lives with its source (nn, nd);
  // one from a delegate to a normal vertex with its destination (dn), so a dn
  // visit updates a local vertex (Section V-B). A dd edge: on a rank drawn
  // from a hash of its two ends (dd_rank), where the paper keeps it with the
  // end of lower out-degree. Both put an undirected pair on one rank (the
  // hash of u xor v is the same both ways: "Symmetric", Section III-B) and
  // scatter a hub's list over the ranks; the paper's rule reads the other
  // end's degree for every dd edge, a random read that was most of the
  // partition's time on kron (docs/DISTRIBUTED.md).
  EdgePlace place(uint64_t u, uint64_t v) const {
    return place_edge(u, v, num_ranks(), [this](uint64_t x) { return is_delegate(x); },
                      [this](uint64_t x) { return owner(x); });
  }
  static int dd_rank(uint64_t u, uint64_t v, int num_ranks) {
    return static_cast<int>((((u ^ v) * 0x9E3779B97F4A7C15ull) >> 32) % static_cast<uint64_t>(num_ranks));
  }
  // The rule itself, over whatever answers "delegate?" and "owner?" (edge_rule.h
  // answers from a bit a vertex).
  template <typename IsDelegate, typename Owner>
  static EdgePlace place_edge(uint64_t u, uint64_t v, int num_ranks, const IsDelegate& is_delegate, const Owner& owner) {
    const bool u_delegate = is_delegate(u), v_delegate = is_delegate(v);
    if (!u_delegate) return {owner(u), v_delegate ? EdgeKind::kND : EdgeKind::kNN};
    if (!v_delegate) return {owner(v), EdgeKind::kDN};
    return {dd_rank(u, v, num_ranks), EdgeKind::kDD};
  }

 private:
  const eid_t* offsets_;
  uint64_t threshold_;
  uint64_t num_ranks_;
};

// The separation of a graph's out-edges (a graph of no vertices may have no offsets).
template <typename V>
DegreeSeparation separate(const Graph<V>& graph, uint64_t threshold, int num_ranks) {
  static constexpr eid_t kNoOffsets[1] = {0};
  return DegreeSeparation(graph.out.offsets.empty() ? kNoOffsets : graph.out.offsets.data(), threshold, num_ranks);
}

}  // namespace tg::dist
