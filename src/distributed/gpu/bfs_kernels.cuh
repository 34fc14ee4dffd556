// The kernels of one BFS level on one rank of a degree-separated partition
// (Pan, Pearce, Owens, IPDPS 2018, Sections IV-A and V): expand the normal
// frontier over nn and nd, the delegate frontier over dn and dd; visit local
// normal vertices at once, queue remote ones for their owners, mark reached
// delegates in a byte mask that the ranks then exchange as bits.
#pragma once

#include <cstdint>

#include "core/types.h"
#include "distributed/gpu/device_rank_graph.h"

namespace tg::dist::gpu {

constexpr int32_t kNoDepth = -1;

// What a rank announces of its next normal frontier with its reached mask
// (its vertices and their nn and nd edges), and what the ranks' announcements
// sum to: the inputs of every rank's same choice of the normals' direction.
struct NormalFrontierSize {
  uint64_t vertices = 0;
  uint64_t edges = 0;
};

// Everything a level's kernels write. counters: [0] normals queued for the
// next level, [1] delegates in the next frontier, [2] the reduced "some rank
// has normals next" flag.
constexpr int kLevelCounters = 3;

// What a level totals, read back by the host in one copy at its end (the
// tail levels' few microseconds of work wait on each operation the host
// enqueues): the counters, the next delegate frontier's dn and dd edges here
// (settle_delegates' sum), and the normal frontier every rank announced.
struct LevelTotals {
  uint32_t counters[kLevelCounters] = {};
  // A small level's exchange (visit_small_level, below): the normals it
  // received, and whether a queue outgrew the fixed size (never, by the
  // bound the host chose it by; checked all the same).
  uint32_t small_received = 0;
  eid_t next_delegate_edges = 0;
  uint32_t small_overflow = 0;
  // A small or tail level: whether some rank's row of lengths says it
  // reached a delegate (a tail level then exchanges its mask after all).
  uint32_t small_any_reached = 0;
  NormalFrontierSize announced;
};
struct BfsLevel {
  RankView g;
  int32_t level = 0;
  int32_t* normal_depth = nullptr;    // num_normals
  int32_t* delegate_depth = nullptr;  // num_delegates, the same on every rank
  uint8_t* reached = nullptr;         // num_delegates + 1: delegates reached here this level, then the flag
  uint32_t* frontier_bits = nullptr;  // (num_delegates + 31) / 32 words: this level's delegate frontier (bottom-up)
  uint32_t* next_normals = nullptr;
  uint32_t* next_delegates = nullptr;
  uint32_t* counters = nullptr;
  eid_t* next_delegate_edges = nullptr;  // settle_delegates' sum of the next frontier's dn and dd edges here
  // Each delegate's dn and dd edges here, 4 bytes where the offsets' two
  // pairs are 32 (RankBfs::place_delegate_degrees; null: the settle reads the offsets).
  const uint32_t* delegate_degree = nullptr;
  // A bit per normal of every rank, [owner * sent_words + slot / 32] (the
  // normal frontier's layout): queued for its owner this run, or known to
  // be visited there (absorb_visited), so not to be sent.
  uint32_t* sent_bits = nullptr;
  uint64_t sent_words = 0;
  uint32_t* send = nullptr;        // per-peer segments of owner slots (v / P)
  const uint64_t* send_start = nullptr;  // where each peer's segment starts
  uint32_t* send_count = nullptr;  // per peer
  // A level that pulls (launch_pull): whether the delegate frontier has any
  // delegate (else nd and dd are not read), and the normals every rank has
  // visited as bits, [owner * visited_normal_words + slot / 32] (null: the
  // normals push this level, launch_expand_normals). Visited, not only this
  // level's frontier: an unvisited normal of an undirected graph has no
  // neighbour visited before this level (that one's level would have reached
  // it), so the pull finds the same parents, and the pushing levels after it
  // send no normal these bits show visited (launch_absorb_visited).
  bool delegate_frontier_empty = false;
  const uint32_t* visited_normals = nullptr;
  uint64_t visited_normal_words = 0;
};

// Launchers; each checks its launch. `rows` has `count` rows.
void launch_expand_normals(const BfsLevel& s, const uint32_t* rows, uint32_t count, eid_t* degree_scan,
                           tg::gpu::ScratchPool& pool, int sms, cudaStream_t stream);
// The delegate frontier top-down, in two steps so the caller can choose the
// direction from the frontier's edge count (degree_scan[count - 1]) first.
void launch_scan_delegate_degrees(const BfsLevel& s, const uint32_t* rows, uint32_t count, eid_t* degree_scan,
                                  tg::gpu::ScratchPool& pool, int sms, cudaStream_t stream);
void launch_push_delegates(const BfsLevel& s, const uint32_t* rows, uint32_t count, const eid_t* degree_scan,
                           int sms, cudaStream_t stream);
// The same level bottom-up (Section IV-B), for undirected graphs, where an
// edge's reverse lives on the same rank: every unvisited local normal looks
// through its nd list (the reverse of the dn edges into it) and every
// unvisited delegate through its dd list for a delegate of this level's
// frontier (delegate_depth == level), stopping at the first. Where
// s.visited_normals is set, the normal frontier is pulled too: an unvisited
// normal then looks through its nn list in the ranks' visited bits, an
// unvisited delegate through its dn list (the reverse of the nd edges into
// it, whose sources are local) for a local normal of the frontier.
void launch_pull(const BfsLevel& s, int sms, cudaStream_t stream);
// This rank's visited normals as bits by slot, into its segment of the
// ranks' bits (`slots` of them here).
void launch_mark_visited_normals(const BfsLevel& s, uint64_t slots, uint32_t* segment, int sms, cudaStream_t stream);
// sent_bits |= visited, `words` of each: normals visited on their owners are
// never sent again this run. kron:28 on 4 H100 (session 11): a tail level's
// push sent 11.5 K normals where it sent 1.1 M, most of them visited long
// before; the time did not change beyond noise (604.8 GTEPS without, 600.8
// with), the bytes did (4.4 MB -> 46 KB at that level).
void launch_absorb_visited(uint32_t* sent_bits, const uint32_t* visited, uint64_t words, int sms, cudaStream_t stream);
// What this rank announces after a level: its queued normals (counters[0])
// and their nn and nd edges (estimated from the first kAnnounceSample of the
// queue and scaled; exact up to that many).
constexpr uint32_t kAnnounceSample = 1u << 14;
void launch_announce_normals(const BfsLevel& s, NormalFrontierSize* out, cudaStream_t stream);
// Owner slots sent here by the other ranks: visit them.
void launch_visit_received(const BfsLevel& s, const uint32_t* slots, uint64_t count, int sms, cudaStream_t stream);
// A small level's normals: each of the P - 1 peers sent a queue of `fixed`
// slots (the peers in rank order, this rank left out), of which the first
// lengths[q * stride + rank] count (its row of queue lengths, gathered with
// its mask, or alone at a tail level); visit them, count them into
// totals->small_received, flag any rank's length over `fixed` in
// totals->small_overflow, and any rank's reached word (the row's word P) in
// totals->small_any_reached.
void launch_visit_small_level(const BfsLevel& s, const uint32_t* slots, uint64_t fixed, const uint32_t* lengths,
                              uint64_t stride, LevelTotals* totals, int sms, cudaStream_t stream);
// *flag = whether this rank queued normals for the next level (reached + d,
// or a quiet level's announcement, below); where `bits` is set, also its bit
// `bit` (the flag in this rank's packed mask).
void launch_set_normals_flag(const BfsLevel& s, uint8_t* flag, uint32_t* bits, uint64_t bit, cudaStream_t stream);
// Where settle_delegates reads the level's reached delegates on several
// ranks: every rank's mask as bits, gathered (P segments `stride` words
// apart), with each rank's announcement at `announce_at` words into its
// segment, summed into *sum. The OR over the ranks is taken as each word is
// read: a pass writing the OR back into the byte mask (13.7 M bytes at
// kron:27 on 2 GPUs) and the settle's read of it were two passes where one
// does. Null bits: one rank, whose byte mask is the level's.
// A small level (rank_bfs.cu) gathers the masks before the normals flag and
// the announcement exist: then `flag_in_mask` is false (the settle leaves
// counters[2] and *sum to settle_quiet), and where no rank's `any` word
// (at any_at words into its segment) is set the settle returns at once.
struct GatheredReached {
  const uint32_t* bits = nullptr;
  int p = 1;
  uint64_t stride = 0;
  uint64_t announce_at = 0;
  NormalFrontierSize* sum = nullptr;
  bool flag_in_mask = true;
  uint64_t any_at = 0;
};
// The new delegate frontier and depths from the reached delegates of every
// rank, and the sum of its dn and dd edges here into *next_delegate_edges;
// clears this rank's byte mask.
void launch_settle_delegates(const BfsLevel& s, const GatheredReached& gathered, int sms, cudaStream_t stream);

// A pushing level at which no rank reached a delegate ("quiet": the tail
// levels, whose frontiers are a few normals) exchanges no mask and settles
// nothing. Each rank packs its mask before the normals' count exchange and
// notes there whether it holds any (launch_pack_reached's `any`, the row's
// last word); if no rank does, each sends only this, and settle_quiet sums
// the announcements and ORs the normals flags into counters[2] (rank_bfs.cu).
// Lists of the reached delegates in place of the mask at levels that reach
// few (2026-11-26, session 9) gained nothing once the mask's packing was fast.
struct QuietAnnouncement {
  NormalFrontierSize size;
  uint8_t has_normals = 0;
  uint8_t unused[7] = {};
};
constexpr uint64_t kQuietWords = sizeof(QuietAnnouncement) / 4;
static_assert(sizeof(QuietAnnouncement) % 4 == 0);
void launch_settle_quiet(const QuietAnnouncement* all, int p, NormalFrontierSize* sum, uint32_t* counters,
                         cudaStream_t stream);
// The reached mask's bytes: d + 1 flags, padded to whole 32-byte groups (the
// packing reads and the OR writes 32 at a time; the padding stays 0).
inline uint64_t reached_bytes(uint64_t delegates) { return (delegates + 1 + 31) / 32 * 32; }

// The reached mask (count bytes of 0 or 1) as bits, for an allgather: NCCL
// has no bitwise OR, and a ring allreduce of the bytes by max moves 2(P-1)/P
// of them a rank where the allgather of bits moves (P-1)/8: P/16 as much.
// *any = 1 where a flag is set (left as it was otherwise; may be null).
void launch_pack_reached(const uint8_t* reached, uint64_t count, uint32_t* bits, uint32_t* any, int sms,
                         cudaStream_t stream);

}  // namespace tg::dist::gpu
