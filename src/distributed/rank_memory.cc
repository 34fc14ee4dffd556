#include "distributed/rank_memory.h"

#include <algorithm>

#include "core/error.h"

namespace tg::dist {
namespace {

uint64_t rounded(uint64_t bytes) { return (bytes + 255) / 256 * 256; }

// The owners' dense segments of values of `value` bytes (owner_segments.h):
// P to send and one received, and the pair queues' counts; none with one rank.
uint64_t segments(const RankShape& s, uint64_t value) {
  const uint64_t p = static_cast<uint64_t>(s.num_ranks);
  return p == 1 ? 0 : (p + 1) * segment_slots(s.num_vertices, s.num_ranks) * value + (p + p * p) * 4;
}

uint64_t bfs_state(const RankShape& s) {
  const uint64_t n = s.normals, d = s.delegates, p = static_cast<uint64_t>(s.num_ranks);
  const uint64_t normal_words = (DegreeSeparation::slots_on_rank(s.num_vertices, s.num_ranks, 0) + 31) / 32;
  uint64_t peers = 0;  // the slots of every other rank: one send buffer entry each at most
  for (int q = 0; q < s.num_ranks; ++q)
    if (q != s.rank) peers += DegreeSeparation::slots_on_rank(s.num_vertices, s.num_ranks, q);
  return n * 4 * 3                           // depths, two queues
         + d * 4 * 3 + (d + 1 + 31) / 32 * 32  // depths, two frontiers, the mask (padded to 32-byte groups)
         + (d + 31) / 32 * 4                 // the frontier's bits
         + std::max(n, d) * sizeof(eid_t)    // the degree scan
         + d * 4                             // the delegates' edges here (the settle's sum)
         + p * normal_words * 4              // sent bits, in the normal frontier's layout
         + peers * 4 + (p - 1) * n * 4       // send and receive buffers
         + (p + 1) * (p + 1) * 4 + p * 8     // the counts' rows (P lengths and the reached flag), this rank's, the send starts
         + p * 24 + 48                       // a quiet level's announcements, the level's totals (bfs_kernels.cuh)
         + p * (((d + 1 + 31) / 32 + 1) / 2 * 2 + 4 + (p + 2) / 2 * 2) * 4  // every rank's mask as bits, announcement, counts
         + p * normal_words * 4;  // every rank's visited normals as bits
}

}  // namespace

RankShape shape_of(const RankGraph& g) {
  RankShape s;
  s.num_vertices = g.num_vertices;
  s.num_ranks = g.num_ranks;
  s.rank = g.rank;
  s.normals = g.num_normals();
  s.delegates = g.num_delegates();
  s.edges = {g.nn.num_edges(), g.nd.num_edges(), g.dn.num_edges(), g.dd.num_edges()};
  s.weighted = g.weighted || !g.nn.weights.empty() || !g.nd.weights.empty() || !g.dn.weights.empty() ||
               !g.dd.weights.empty();
  return s;
}

RankShape shape_of(const PartitionSummary& summary, int rank) {
  RankShape s;
  s.num_vertices = summary.num_vertices;
  s.num_ranks = static_cast<int>(summary.ranks.size());
  s.rank = rank;
  s.normals = summary.ranks[rank].normals;
  s.delegates = summary.delegates;
  s.edges = summary.ranks[rank].edges;
  s.weighted = summary.weighted;
  return s;
}

RankMemory part_memory(const RankShape& s, bool with_weights) {
  RankMemory m;
  m.offsets = 2 * rounded((s.normals + 1) * sizeof(eid_t)) + 2 * rounded((s.delegates + 1) * sizeof(eid_t)) +
              rounded(DegreeSeparation::slots_on_rank(s.num_vertices, s.num_ranks, s.rank) * sizeof(uint32_t));
  for (int k = 0; k < kNumEdgeKinds; ++k) {
    const uint64_t id = k == static_cast<int>(EdgeKind::kNN) ? sizeof(uint64_t) : sizeof(uint32_t);
    m.offsets += rounded(chunk_rows_entries(s.edges[k]) * sizeof(uint32_t));
    m.lists += rounded(s.edges[k] * id) + (with_weights && s.weighted ? rounded(s.edges[k] * sizeof(weight_t)) : 0);
  }
  return m;
}

RankMemory rank_memory(const std::string& algorithm, const RankShape& s) {
  RankMemory m = part_memory(s, algorithm == "sssp");
  const uint64_t n = s.normals, d = s.delegates;
  if (algorithm == "bfs") {
    m.state = bfs_state(s);
  } else if (algorithm == "pagerank") {
    m.state = n * 8 * 3 + d * 8 * 4 + segments(s, 8) + 64;  // y, y / degree, sums; and the delegates' with degrees
  } else if (algorithm == "cc" || algorithm == "sssp") {
    const uint64_t v = algorithm == "cc" ? 4 : 8;  // 32-bit labels, double distances
    m.state = n * (2 * v + 1) + d * (8 + 2 * v + 1) + segments(s, v) + 64;  // values, next, active; delegates' with ids
    const uint64_t qn = active_queue_capacity(n), qd = active_queue_capacity(d);
    m.state += 4 * (qn + qd) + 8 * std::max(qn, qd) + 16;  // the queues of active rows, their degree scan
    if (algorithm == "cc") m.state += bfs_state(s);  // room for the seeding BFS (rank_relax.h)
  } else {
    throw Error(algorithm + " has no program over several GPUs");
  }
  return m;
}

}  // namespace tg::dist
