#include "distributed/gpu/rank_bfs.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <string>
#include <utility>

#include "core/env_count.h"
#include "core/error.h"
#include "distributed/degree_separation.h"
#include "distributed/gpu/nccl_check.h"
#include "distributed/gpu/queue_exchange.h"

namespace tg::dist::gpu {
namespace {

using tg::gpu::DeviceArray;

uint64_t peers_slots(const RankGraph& g) {
  uint64_t total = 0;
  for (int q = 0; q < g.num_ranks; ++q)
    if (q != g.rank) total += DegreeSeparation::slots_on_rank(g.num_vertices, g.num_ranks, q);
  return total;
}

std::shared_ptr<const DeviceRankGraph> placed_if_fits(const RankGraph& g, PartMemory where) {
  check_fits("bfs", g, where);
  return std::make_shared<const DeviceRankGraph>(g, false, where);
}

}  // namespace

RankBfs::RankBfs(const RankGraph& graph, ncclComm_t comm, bool symmetric, PartMemory where)
    : RankBfs(graph, comm, symmetric, placed_if_fits(graph, where)) {}

RankBfs::RankBfs(const RankGraph& graph, ncclComm_t comm, bool symmetric, std::shared_ptr<const DeviceRankGraph> placed)
    : host_(graph), comm_(comm), symmetric_(symmetric), graph_(std::move(placed)) {
  const uint64_t nn = graph.num_normals(), d = graph.num_delegates();
  const int p = graph.num_ranks;
  normal_depth_ = DeviceArray<int32_t>::allocate(nn);
  delegate_depth_ = DeviceArray<int32_t>::allocate(d);
  reached_ = DeviceArray<uint8_t>::allocate(reached_bytes(d));
  announce_at_ = ((d + 1 + 31) / 32 + 1) / 2 * 2;  // the announcement's 64-bit words aligned
  count_row_ = p + 1;
  counts_at_ = announce_at_ + sizeof(NormalFrontierSize) / 4;
  segment_words_ = (counts_at_ + count_row_ + 1) / 2 * 2;
  if (p > 1) {  // one rank announces straight into its totals and exchanges no mask
    reached_bits_ = DeviceArray<uint32_t>::allocate(static_cast<uint64_t>(p) * segment_words_);
    TG_CUDA(cudaMemset(reached_bits_.data(), 0, reached_bits_.size() * sizeof(uint32_t)));
  }
  normal_words_ = (DegreeSeparation::slots_on_rank(graph.num_vertices, p, 0) + 31) / 32;  // rank 0 has the most slots
  tail_levels_ = env_count("TG_MGPU_TAIL_LEVELS", 1) != 0;
  if (symmetric) {  // zeroed once: a rank with fewer slots than rank 0 never writes its segment's last word
    visited_normal_bits_ = DeviceArray<uint32_t>::allocate(static_cast<uint64_t>(p) * normal_words_);
    TG_CUDA(cudaMemset(visited_normal_bits_.data(), 0, visited_normal_bits_.size() * sizeof(uint32_t)));
  }
  frontier_bits_ = DeviceArray<uint32_t>::allocate((d + 31) / 32);
  for (int i = 0; i < 2; ++i) {
    normals_[i] = DeviceArray<uint32_t>::allocate(nn);
    delegates_[i] = DeviceArray<uint32_t>::allocate(d);
  }
  scan_ = DeviceArray<eid_t>::allocate(std::max(nn, d));
  totals_ = DeviceArray<LevelTotals>::allocate(1);
  sent_bits_ = DeviceArray<uint32_t>::allocate(static_cast<uint64_t>(p) * normal_words_);
  place_delegate_degrees();
  send_ = DeviceArray<uint32_t>::allocate(peers_slots(graph));
  receive_ = DeviceArray<uint32_t>::allocate(static_cast<uint64_t>(p - 1) * nn);
  if (p == 1) send_count_ = DeviceArray<uint32_t>::allocate(count_row_);  // else in this rank's segment
  count_matrix_ = DeviceArray<uint32_t>::allocate(static_cast<uint64_t>(p) * count_row_);
  if (p > 1) quiet_ = DeviceArray<QuietAnnouncement>::allocate(p);
  send_start_ = DeviceArray<uint64_t>::allocate(p);
  uint64_t at = 0;
  for (int q = 0; q < p; ++q) {
    send_start_host_.push_back(at);
    if (q != graph.rank) at += DegreeSeparation::slots_on_rank(graph.num_vertices, p, q);
  }
  TG_CUDA(cudaMemcpy(send_start_.data(), send_start_host_.data(), p * sizeof(uint64_t), cudaMemcpyHostToDevice));
  TG_CUDA(cudaMallocHost(&pinned_counts_, static_cast<size_t>(p) * count_row_ * sizeof(uint32_t)));
  TG_CUDA(cudaMallocHost(&pinned_totals_, sizeof(LevelTotals)));
}

// The settle sums the next delegate frontier's edges here from 4 bytes a
// delegate where the offsets of dn and dd are 32 (their pairs): at the levels
// that reach most delegates (22.9 M at kron:28 on 4 GPUs, replicated on every
// rank) the offsets were most of the settle's reads: 0.31 -> 0.20 ms at those
// levels, 589.1 -> 600.8 GTEPS (4 H100, session 11). Where some delegate's
// edges here reach 2^32 (none at kron:30), the settle reads the offsets.
void RankBfs::place_delegate_degrees() {
  const RankGraph& g = host_;
  const uint64_t d = g.num_delegates();
  if (d == 0) return;
  std::vector<uint32_t> degree(d);
  eid_t most = 0;
#pragma omp parallel for schedule(static) reduction(max : most) if (d > (uint64_t{1} << 16))
  for (uint64_t k = 0; k < d; ++k) {
    const eid_t edges = delegate_edges_here(g, k);
    most = std::max(most, edges);
    degree[k] = static_cast<uint32_t>(edges);
  }
  if (most > 0xFFFFFFFFull) return;
  delegate_degree_ = DeviceArray<uint32_t>::allocate(d);
  TG_CUDA(cudaMemcpy(delegate_degree_.data(), degree.data(), d * sizeof(uint32_t), cudaMemcpyHostToDevice));
}

// A number of this rank's reduced over the ranks, through the totals'
// delegate edges and their pinned twin (free at the warm-up; each run
// clears them).
uint64_t RankBfs::reduce_over_ranks(uint64_t mine, ncclRedOp_t op) {
  if (host_.num_ranks == 1) return mine;
  eid_t* slot = &totals_.data()->next_delegate_edges;
  pinned_totals_->next_delegate_edges = mine;
  TG_CUDA(cudaMemcpyAsync(slot, &pinned_totals_->next_delegate_edges, 8, cudaMemcpyHostToDevice, stream_.stream()));
  TG_NCCL(ncclAllReduce(slot, slot, 1, ncclUint64, op, comm_, stream_.stream()));
  TG_CUDA(cudaMemcpyAsync(&pinned_totals_->next_delegate_edges, slot, 8, cudaMemcpyDeviceToHost, stream_.stream()));
  stream_.sync();
  return pinned_totals_->next_delegate_edges;
}

void RankBfs::warm_up() {
  const int p = host_.num_ranks;
  normal_edges_ = reduce_over_ranks(host_.nn.num_edges() + host_.nd.num_edges(), ncclSum);  // every rank's normal edges
  if (p == 1) return;
  TG_CUDA(cudaMemsetAsync(send_counts(), 0, count_row_ * sizeof(uint32_t), stream_.stream()));
  TG_CUDA(cudaMemsetAsync(reached_.data(), 0, reached_.size(), stream_.stream()));
  warm_up_queues(comm_, stream_.stream(), host_.rank, p, count_row_, send_counts(), count_matrix_.data());
  // Agreed by every rank (a process of mpirun may not see the others' environment).
  small_capacity_ = reduce_over_ranks(small_level_room(), ncclMin);
  tail_levels_ = reduce_over_ranks(tail_levels_ ? 1 : 0, ncclMin) != 0;
  launch_pack_reached(reached_.data(), host_.num_delegates() + 1, my_segment(), nullptr, stream_.sms(), stream_.stream());
  exchange_reached();
  exchange_small_level(0, true);
  TG_CUDA(cudaMemsetAsync(quiet_.data(), 0, p * sizeof(QuietAnnouncement), stream_.stream()));
  share_quiet();
  stream_.sync();
}

// The delegates reached on any rank this level (and whether any rank queued
// normals, the flag at index d): an allgather of each rank's mask as bits,
// in place (this rank's segment, packed before). The settle ORs the P
// segments as it reads them (gathered_reached()).
void RankBfs::exchange_reached() {
  TG_NCCL(ncclAllGather(my_segment(), reached_bits_.data(), segment_words_, ncclUint32, comm_, stream_.stream()));
}

GatheredReached RankBfs::gathered_reached(bool small) const {
  if (host_.num_ranks == 1) return {};
  GatheredReached r{reached_bits_.data(), host_.num_ranks, segment_words_, announce_at_, announced_sum()};
  r.flag_in_mask = !small;
  r.any_at = counts_at_ + host_.num_ranks;
  return r;
}

// The queue a small level may send each peer (kSmallLevelRoom at most): no
// more than any peer's slots (the send buffer's segment for it) or this
// rank's normals (the receive buffer holds as many from each peer). The
// ranks agree on the least of theirs at the warm-up.
uint64_t RankBfs::small_level_room() const {
  const RankGraph& g = host_;
  uint64_t room = std::min<uint64_t>(kSmallLevelRoom, g.num_normals());
  for (int q = 0; q < g.num_ranks; ++q)
    if (q != g.rank) room = std::min(room, DegreeSeparation::slots_on_rank(g.num_vertices, g.num_ranks, q));
  return room / 64 * 64;
}

// The fixed queue length of a level that pushes a normal frontier this
// small, or none (kNotSmall): distributed/small_levels.h.
uint64_t RankBfs::small_level_queue(const NormalFrontierSize& f, int32_t level) const {
  return dist::small_level_queue(f.vertices, f.edges, level > 0, kAnnounceSample, host_.threshold, small_capacity_);
}

// A small level's exchange, in one group: every rank's segment (its mask,
// its queue lengths and reached flag) and its queue of `fixed` slots to
// every peer, so that no rank waits for the lengths before sending (a host
// sync and two collectives fewer than exchange_normals and exchange_reached).
// A tail level's (`with_mask` false) sends of the segment its row of
// lengths alone, to the same place in the peers' copies.
void RankBfs::exchange_small_level(uint64_t fixed, bool with_mask) {
  const RankGraph& g = host_;
  const cudaStream_t st = stream_.stream();
  const uint64_t from = with_mask ? 0 : counts_at_, words = with_mask ? segment_words_ : count_row_;
  TG_NCCL(ncclGroupStart());
  for (int q = 0, j = 0; q < g.num_ranks; ++q) {
    if (q == g.rank) continue;
    TG_NCCL(ncclSend(my_segment() + from, words, ncclUint32, q, comm_, st));
    TG_NCCL(ncclRecv(reached_bits_.data() + static_cast<uint64_t>(q) * segment_words_ + from, words, ncclUint32, q, comm_, st));
    if (fixed > 0) {
      TG_NCCL(ncclSend(send_.data() + send_start_host_[q], fixed, ncclUint32, q, comm_, st));
      TG_NCCL(ncclRecv(receive_.data() + static_cast<uint64_t>(j) * fixed, fixed, ncclUint32, q, comm_, st));
    }
    ++j;
  }
  TG_NCCL(ncclGroupEnd());
}

// A tail level at which some rank reached a delegate after all (its row of
// lengths said so): every rank's mask, packed before the exchange and its
// rows of lengths still beside it, gathered, then settled as a small
// level's. Reads the level's totals back again (the caller keeps the
// first copy's counters but the next delegates').
void RankBfs::settle_tail_level(BfsLevel& s) {
  stream_.mark(kTailMaskStart);
  exchange_reached();
  stream_.mark(kTailSettleStart);
  launch_settle_delegates(s, gathered_reached(true), stream_.sms(), stream_.stream());
  stream_.mark(kTailSettleStop);
  TG_CUDA(cudaMemcpyAsync(pinned_totals_, totals_.data(), sizeof(LevelTotals), cudaMemcpyDeviceToHost, stream_.stream()));
  TG_CUDA(cudaMemsetAsync(totals_.data(), 0, offsetof(LevelTotals, announced), stream_.stream()));
  stream_.sync();
}

// Every rank's announcement and normals flag at a quiet level (no mask:
// every rank's is empty), summed into the totals' announcement and counters[2].
void RankBfs::share_quiet() {
  TG_NCCL(ncclAllGather(quiet_.data() + host_.rank, quiet_.data(), kQuietWords, ncclUint32, comm_, stream_.stream()));
  launch_settle_quiet(quiet_.data(), host_.num_ranks, announced_sum(), counters(), stream_.stream());
}

bool RankBfs::no_rank_reached_delegates() const {
  const int p = host_.num_ranks;
  for (int q = 0; q < p; ++q)
    if (pinned_counts_[static_cast<size_t>(q) * count_row_ + p] != 0) return false;
  return true;
}

// Beamer's rule again, over the normals' edges of every rank at once, so that
// all ranks choose alike (the frontier bits are a collective): pull when the
// frontier's nn and nd edges exceed 1/15 of those not yet explored top-down,
// and stay while its edges grow or exceed 1/18 of all. Pushing a normal
// frontier reads each of its edges and sends the remote nn ones to their
// owners; pulling reads every rank's frontier as bits (num_vertices / 8 bytes
// received, a pass over this rank's slots) and stops at an unvisited normal's
// first parent: so also not below num_vertices / 128 frontier edges, about
// where the bits cost what the push's random reads would.
bool RankBfs::choose_normals_pull(const NormalFrontierSize& f) {
  constexpr uint64_t kAlpha = 15, kBeta = 18, kEdgesPerFrontierBit = 128;
  const char* forced = std::getenv("TG_MGPU_NORMALS_PULL");
  if (forced != nullptr && *forced != '\0' && std::string(forced) != "always" && std::string(forced) != "never")
    throw Error(std::string("TG_MGPU_NORMALS_PULL=") + forced + ": not always or never", ErrorKind::kUsage);
  bool pull = false;
  if (!symmetric_ || push_only_ || f.vertices == 0) pull = false;
  else if (forced != nullptr && std::string(forced) == "always") pull = true;
  else if (forced != nullptr && std::string(forced) == "never") pull = false;
  else if (f.edges * kEdgesPerFrontierBit < host_.num_vertices) pull = false;
  else if (pulled_normals_last_) pull = f.edges >= last_normal_frontier_edges_ || f.edges > normal_edges_ / kBeta;
  else pull = f.edges > normal_edges_unexplored_ / kAlpha;
  if (!pull) normal_edges_unexplored_ -= std::min(normal_edges_unexplored_, f.edges);
  pulled_normals_last_ = pull;
  last_normal_frontier_edges_ = f.edges;
  return pull;
}

// The normals every rank has visited, as bits, gathered (events
// kFrontierShare* around the collective); from them on, no rank sends a
// normal they show visited (bfs_kernels.cuh).
const uint32_t* RankBfs::share_visited_normals(const BfsLevel& s) {
  const RankGraph& g = host_;
  uint32_t* mine = visited_normal_bits_.data() + static_cast<uint64_t>(g.rank) * normal_words_;
  launch_mark_visited_normals(s, DegreeSeparation::slots_on_rank(g.num_vertices, g.num_ranks, g.rank), mine, stream_.sms(),
                              stream_.stream());
  stream_.mark(kFrontierShareStart);
  if (g.num_ranks > 1)
    TG_NCCL(ncclAllGather(mine, visited_normal_bits_.data(), normal_words_, ncclUint32, comm_, stream_.stream()));
  stream_.mark(kFrontierShareStop);
  if (g.num_ranks > 1)
    launch_absorb_visited(sent_bits_.data(), visited_normal_bits_.data(), static_cast<uint64_t>(g.num_ranks) * normal_words_,
                          stream_.sms(), stream_.stream());
  return visited_normal_bits_.data();
}

RankBfs::~RankBfs() {
  cudaFreeHost(pinned_counts_);
  cudaFreeHost(pinned_totals_);
}

void RankBfs::reset(uint64_t source) {
  const RankGraph& g = host_;
  TG_CUDA(cudaMemsetAsync(normal_depth_.data(), 0xFF, g.num_normals() * sizeof(int32_t), stream_.stream()));  // kNoDepth
  TG_CUDA(cudaMemsetAsync(delegate_depth_.data(), 0xFF, g.num_delegates() * sizeof(int32_t), stream_.stream()));
  TG_CUDA(cudaMemsetAsync(reached_.data(), 0, reached_.size(), stream_.stream()));
  TG_CUDA(cudaMemsetAsync(sent_bits_.data(), 0, sent_bits_.size() * sizeof(uint32_t), stream_.stream()));
  TG_CUDA(cudaMemsetAsync(totals_.data(), 0, sizeof(LevelTotals), stream_.stream()));
  TG_CUDA(cudaMemsetAsync(send_counts(), 0, count_row_ * sizeof(uint32_t), stream_.stream()));
  // The source's depth and the first frontier, through the counts' pinned slots.
  uint32_t* staged = pinned_counts_;
  staged[0] = 0;  // depth 0 as an int32's bits
  const auto it = std::lower_bound(g.delegate_global.begin(), g.delegate_global.end(), source);
  if (it != g.delegate_global.end() && *it == source) {
    staged[1] = static_cast<uint32_t>(it - g.delegate_global.begin());
    TG_CUDA(cudaMemcpyAsync(delegate_depth_.data() + staged[1], &staged[0], 4, cudaMemcpyHostToDevice, stream_.stream()));
    TG_CUDA(cudaMemcpyAsync(delegates_[0].data(), &staged[1], 4, cudaMemcpyHostToDevice, stream_.stream()));
  } else if (g.owns_slot_of(source)) {
    staged[1] = g.local_id(source);
    TG_CUDA(cudaMemcpyAsync(normal_depth_.data() + staged[1], &staged[0], 4, cudaMemcpyHostToDevice, stream_.stream()));
    TG_CUDA(cudaMemcpyAsync(normals_[0].data(), &staged[1], 4, cudaMemcpyHostToDevice, stream_.stream()));
  }
  stream_.sync();
}

uint64_t RankBfs::exchange_normals(BfsLevel& s) {
  const int p = host_.num_ranks;
  if (p == 1) return 0;
  return exchange_queues(comm_, stream_.stream(), host_.rank, p, count_row_, send_counts(), count_matrix_.data(), pinned_counts_,
                         sizeof(uint32_t), [&](int q) { return s.send + send_start_host_[q]; }, receive_.data());
}

RankRunRecord RankBfs::run(uint64_t source) {
  const RankGraph& g = host_;
  const int p = g.num_ranks;
  if (source >= g.num_vertices) throw Error("bfs source " + std::to_string(source) + " is not a vertex");
  reset(source);
  const bool source_is_delegate = std::binary_search(g.delegate_global.begin(), g.delegate_global.end(), source);
  uint32_t normals = !source_is_delegate && g.owns_slot_of(source) ? 1 : 0;
  uint32_t delegates = source_is_delegate ? 1 : 0;
  // Every rank's normal frontier, as every rank announced it (a normal source's edges do not matter: one vertex pushes).
  NormalFrontierSize normal_frontier{source_is_delegate ? 0u : 1u, 0};
  normal_edges_unexplored_ = normal_edges_;
  pulled_normals_last_ = false;
  last_normal_frontier_edges_ = 0;

  // Every rank starts together: a reduction of nothing is the barrier.
  if (p > 1) TG_NCCL(ncclAllReduce(counters(), counters(), 1, ncclUint32, ncclSum, comm_, stream_.stream()));
  stream_.mark(kRunStart);

  // Beamer's rule (SC 2012) as GAP applies it, per rank on its own delegate
  // edges: go bottom-up when the frontier's edges exceed 1/alpha of those not
  // yet explored top-down, and stay bottom-up while the delegate frontier
  // grows or holds more than 1/18 of the delegates (beta). With alpha alone
  // the unexplored edges fell at every level, so a tail level of a few
  // hundred frontier delegates still pulled over every unvisited delegate and
  // normal (0.4 ms a level at kron:27 on 2 GPUs). Alpha is 25, not GAP's 15:
  // a GPU's pull is cheap against its push of hubs' edges. kron:27 on 2 H100,
  // 64 roots: at 15, five roots pushed ~23 K hubs' 264 M edges at their second
  // level (6.0 ms, where a pull took 2.3) and 300.2 GTEPS; at 45, roots also
  // pulled where a push of 103 M edges was cheaper (3.5 against ~2.4 ms) and
  // 286.8; at 25, 319.8 GTEPS and no slow root (docs/PERF.md, session 7).
  constexpr eid_t kAlpha = 25;
  constexpr uint64_t kBeta = 18;
  eid_t unexplored = g.dn.num_edges() + g.dd.num_edges();
  bool pulled_last = false;
  // Whether the run is past its peak (below): from then on, small levels
  // give way to the quiet ones. Every rank must agree on it, so it reads
  // only what every rank knows alike: the normals' direction and the
  // delegate frontier's size (a rank's own choice to pull its delegates is
  // its own, and ranks differ in it).
  bool past_peak = false;
  uint32_t last_delegates = 0;
  // The delegate frontier's dn and dd edges here: the source's, then what
  // each level's settle summed (no degree scan and no host sync to choose).
  eid_t frontier_edges = 0;
  if (source_is_delegate) {
    const auto k = static_cast<uint64_t>(std::lower_bound(g.delegate_global.begin(), g.delegate_global.end(), source) -
                                         g.delegate_global.begin());
    frontier_edges = delegate_edges_here(g, k);
  }

  RankRunRecord record;
  for (int32_t level = 0, cur = 0;; ++level, cur = 1 - cur) {
    BfsLevel s;
    s.g = graph_->view();
    s.level = level;
    s.normal_depth = normal_depth_.data();
    s.delegate_depth = delegate_depth_.data();
    s.reached = reached_.data();
    s.frontier_bits = frontier_bits_.data();
    s.next_normals = normals_[1 - cur].data();
    s.next_delegates = delegates_[1 - cur].data();
    s.counters = counters();
    s.next_delegate_edges = &totals_.data()->next_delegate_edges;
    s.delegate_degree = delegate_degree_.data();
    s.sent_bits = sent_bits_.data();
    s.sent_words = normal_words_;
    s.send = send_.data();
    s.send_start = send_start_.data();
    s.send_count = send_counts();

    // The normals first: pushed now, or pulled below with the delegates (then
    // no normal crosses ranks this level). A pushing level whose queues are
    // bound to be short sends them at a fixed length (small_level_queue),
    // but only before the run's peak (a level that pulled the normals, or
    // one whose next delegate frontier is smaller than its own): a small
    // level ships every rank's mask, while past the peak most levels reach no
    // delegate and a quiet level sends 24 bytes (kron:28 on 4 H100, the tail
    // levels: 0.115 ms of communication small against 0.074 quiet; the first
    // level 0.27 against 0.58; docs/PERF.md, session 10). Past the peak such
    // a level is a tail level: its queues at the fixed length with the rows
    // of lengths alone, and the mask only where a row says some rank reached
    // a delegate (settle_tail_level), where a quiet level waits on the host
    // for the lengths first.
    const bool pull_normals = choose_normals_pull(normal_frontier);
    const uint64_t normal_frontier_edges = normal_frontier.edges;
    const uint64_t fixed = p > 1 && !pull_normals && (!past_peak || tail_levels_)
                               ? small_level_queue(normal_frontier, level)
                               : kNotSmall;
    const bool small = fixed != kNotSmall && !past_peak, tail = fixed != kNotSmall && past_peak;
    stream_.mark(0);
    if (pull_normals) {
      s.visited_normals = share_visited_normals(s);
      s.visited_normal_words = normal_words_;
    } else {
      launch_expand_normals(s, normals_[cur].data(), normals, scan_.data(), pool_, stream_.sms(), stream_.stream());
    }
    stream_.mark(kDelegatesStart);
    bool pull = pull_normals;
    if (delegates > 0) {  // the delegate frontier is the same on every rank
      if (pulled_last) pull = pull || delegates >= last_delegates || delegates > g.num_delegates() / kBeta;
      else pull = pull || frontier_edges > unexplored / kAlpha;
      pull = pull && symmetric_ && !push_only_;
      if (!pull) unexplored -= std::min(unexplored, frontier_edges);
    }
    s.delegate_frontier_empty = delegates == 0;
    if (pull) {
      launch_pull(s, stream_.sms(), stream_.stream());
    } else if (delegates > 0) {
      launch_scan_delegate_degrees(s, delegates_[cur].data(), delegates, scan_.data(), pool_, stream_.sms(), stream_.stream());
      launch_push_delegates(s, delegates_[cur].data(), delegates, scan_.data(), stream_.sms(), stream_.stream());
    }
    pulled_last = pull && delegates > 0;
    last_delegates = delegates;
    // The reached mask is final here (the visits below touch normals only):
    // packed now, so that a level that pushes the normals can tell in its
    // row of the counts whether this rank reached any delegate.
    if (p > 1)
      launch_pack_reached(reached_.data(), g.num_delegates(), my_segment(), send_counts() + p, stream_.sms(),
                          stream_.stream());
    stream_.mark(1);
    NormalFrontierSize* announce =
        p > 1 ? reinterpret_cast<NormalFrontierSize*>(my_segment() + announce_at_) : announced_sum();
    // A level that pulled the normals sent none: every rank knows it. One
    // that pushed them learns from the counts whether any rank reached a
    // delegate; if none did, the level is quiet (bfs_kernels.cuh).
    // A small level sends its mask with its queues: the normals flag and the
    // announcement follow as at a quiet level.
    uint64_t received = 0;
    bool quiet = false;
    if (small || tail) {
      exchange_small_level(fixed, small);
    } else if (!pull_normals) {
      received = exchange_normals(s);
      quiet = p > 1 && no_rank_reached_delegates();  // the counts were read back (one rank has none)
    } else if (p > 1) {
      std::fill_n(pinned_counts_ + static_cast<size_t>(g.rank) * count_row_, count_row_, 0u);
    }
    stream_.mark(2);
    if (small || tail) {
      launch_visit_small_level(s, receive_.data(), fixed, reached_bits_.data() + counts_at_, segment_words_, totals_.data(),
                               stream_.sms(), stream_.stream());
    } else {
      launch_visit_received(s, receive_.data(), received, stream_.sms(), stream_.stream());
    }
    const bool announce_alone = quiet || small || tail;
    QuietAnnouncement* quiet_mine = announce_alone ? quiet_.data() + g.rank : nullptr;
    launch_set_normals_flag(s, announce_alone ? &quiet_mine->has_normals : s.reached + g.num_delegates(),
                            p > 1 && !announce_alone ? my_segment() : nullptr, g.num_delegates(), stream_.stream());
    launch_announce_normals(s, announce_alone ? &quiet_mine->size : announce, stream_.stream());
    stream_.mark(3);
    if (announce_alone) share_quiet();
    else if (p > 1) exchange_reached();
    stream_.mark(4);
    if (!quiet && !tail) launch_settle_delegates(s, gathered_reached(small), stream_.sms(), stream_.stream());
    stream_.mark(5);
    // The totals in one copy, then the counters and edges cleared (the
    // announcement is written afresh each level). A tail level's rows of
    // lengths stay until it knows whether its masks must follow.
    TG_CUDA(cudaMemcpyAsync(pinned_totals_, totals_.data(), sizeof(LevelTotals), cudaMemcpyDeviceToHost, stream_.stream()));
    TG_CUDA(cudaMemsetAsync(totals_.data(), 0, offsetof(LevelTotals, announced), stream_.stream()));
    if (!tail) TG_CUDA(cudaMemsetAsync(send_counts(), 0, count_row_ * sizeof(uint32_t), stream_.stream()));
    stream_.sync();
    if (pinned_totals_->small_overflow != 0)
      throw Error("bfs: a queue of a small level outgrew its fixed length " + std::to_string(fixed) + " (a bug)");
    if (small || tail) received = pinned_totals_->small_received;
    const bool tail_settled = tail && pinned_totals_->small_any_reached != 0;
    if (tail_settled) {
      const LevelTotals first = *pinned_totals_;
      settle_tail_level(s);
      const LevelTotals settled = *pinned_totals_;
      *pinned_totals_ = first;
      pinned_totals_->counters[1] = settled.counters[1];
      pinned_totals_->next_delegate_edges = settled.next_delegate_edges;
    }
    if (tail) TG_CUDA(cudaMemsetAsync(send_counts(), 0, count_row_ * sizeof(uint32_t), stream_.stream()));
    const uint32_t* counters = pinned_totals_->counters;
    normal_frontier = pinned_totals_->announced;

    LevelRecord l;
    l.delegate_frontier = delegates;
    l.pulled = pull;
    l.normals_pulled = pull_normals;
    if (p > 1)
      l.exchange = small ? "small" : tail_settled ? "tail+mask" : tail ? "tail" : pull_normals ? "pulled" : quiet ? "quiet" : "queues";
    l.delegate_frontier_edges = frontier_edges;
    frontier_edges = pinned_totals_->next_delegate_edges;  // the next level's
    l.normal_frontier_edges = normal_frontier_edges;
    l.normals_received = received;
    const double share = pull_normals ? stream_.seconds(kFrontierShareStart, kFrontierShareStop) : 0.0;
    l.compute_s = stream_.seconds(0, 1) - share + stream_.seconds(2, 3) + stream_.seconds(4, 5);
    l.communication_s = share + stream_.seconds(1, 2) + stream_.seconds(3, 4);
    l.normals_s = stream_.seconds(0, kDelegatesStart) - share;
    l.delegates_s = stream_.seconds(kDelegatesStart, 1);
    l.visit_s = stream_.seconds(2, 3);
    l.settle_s = stream_.seconds(4, 5);
    l.normals_exchange_s = stream_.seconds(1, 2);
    l.delegates_exchange_s = stream_.seconds(3, 4);
    l.frontier_share_s = share;
    if (tail_settled) {  // its mask's allgather and settle, after the level's first read-back
      const double mask = stream_.seconds(kTailMaskStart, kTailSettleStart);
      const double settle = stream_.seconds(kTailSettleStart, kTailSettleStop);
      l.communication_s += mask;
      l.delegates_exchange_s += mask;
      l.compute_s += settle;
      l.settle_s += settle;
    }
    if (small || tail) {  // its segment (a tail level: its row of lengths) and a queue of `fixed` to each peer, then its announcement
      l.bytes_sent = static_cast<uint64_t>(p - 1) * ((small ? segment_words_ : count_row_) + fixed) * 4 +
                     sizeof(QuietAnnouncement) + (tail_settled ? segment_words_ * 4 : 0);
    } else if (p > 1) {
      const uint32_t* sent = pinned_counts_ + static_cast<size_t>(g.rank) * count_row_;  // this level's row, still there
      for (int q = 0; q < p; ++q) l.bytes_sent += uint64_t{sent[q]} * 4;
      // Its segment of the mask with its announcement, or at a quiet level the announcement alone.
      l.bytes_sent += quiet ? sizeof(QuietAnnouncement) : segment_words_ * 4;
      if (pull_normals) l.bytes_sent += normal_words_ * 4;
      else l.bytes_sent += static_cast<uint64_t>(count_row_) * 4;  // its counts
    }
    record.levels.push_back(l);
    normals = counters[0];
    past_peak = past_peak || pull_normals || counters[1] < delegates;
    delegates = counters[1];
    if (counters[2] == 0 && delegates == 0) break;
  }
  stream_.mark(kRunStop);
  stream_.sync();
  record.seconds = stream_.seconds(kRunStart, kRunStop);
  return record;
}

RankResult RankBfs::result() const {
  return part_to_host<int32_t>(normal_depth_.data(), host_.num_normals(), delegate_depth_.data(), host_.num_delegates());
}

}  // namespace tg::dist::gpu
