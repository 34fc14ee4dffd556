#include "distributed/gpu/rank_bfs.h"

#include <algorithm>
#include <string>

#include "core/env_switch.h"
#include "distributed/degree_separation.h"
#include "distributed/gpu/nccl_check.h"

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
  reached_ = DeviceArray<uint8_t>::allocate(d + 1);
  reached_as_bytes_ = env_switch("TG_MGPU_REACHED_BYTES");
  reached_words_ = (d + 1 + 31) / 32;
  if (p > 1 && !reached_as_bytes_) reached_bits_ = DeviceArray<uint32_t>::allocate(static_cast<uint64_t>(p) * reached_words_);
  frontier_bits_ = DeviceArray<uint32_t>::allocate((d + 31) / 32);
  for (int i = 0; i < 2; ++i) {
    normals_[i] = DeviceArray<uint32_t>::allocate(nn);
    delegates_[i] = DeviceArray<uint32_t>::allocate(d);
  }
  scan_ = DeviceArray<eid_t>::allocate(std::max(nn, d));
  counters_ = DeviceArray<uint32_t>::allocate(3);
  sent_bits_ = DeviceArray<uint32_t>::allocate((graph.num_vertices + 31) / 32);
  send_ = DeviceArray<uint32_t>::allocate(peers_slots(graph));
  receive_ = DeviceArray<uint32_t>::allocate(static_cast<uint64_t>(p - 1) * nn);
  send_count_ = DeviceArray<uint32_t>::allocate(p);
  count_matrix_ = DeviceArray<uint32_t>::allocate(static_cast<uint64_t>(p) * p);
  send_start_ = DeviceArray<uint64_t>::allocate(p);
  uint64_t at = 0;
  for (int q = 0; q < p; ++q) {
    send_start_host_.push_back(at);
    if (q != graph.rank) at += DegreeSeparation::slots_on_rank(graph.num_vertices, p, q);
  }
  TG_CUDA(cudaMemcpy(send_start_.data(), send_start_host_.data(), p * sizeof(uint64_t), cudaMemcpyHostToDevice));
  TG_CUDA(cudaMallocHost(&pinned_counts_, (static_cast<size_t>(p) * p + 3) * sizeof(uint32_t)));
  TG_CUDA(cudaMallocHost(&pinned_frontier_edges_, 2 * sizeof(eid_t)));
  normal_pull_ = symmetric && env_switch("TG_MGPU_NORMAL_PULL");
  two_phase_ = p > 1 && symmetric && !normal_pull_ && env_switch("TG_MGPU_TWO_PHASE");
  if (two_phase_) direction_sums_ = DeviceArray<eid_t>::allocate(2);
  if (normal_pull_) {
    normal_words_ = (DegreeSeparation::slots_on_rank(graph.num_vertices, p, 0) + 31) / 32;
    normal_frontier_bits_ = DeviceArray<uint32_t>::allocate(static_cast<uint64_t>(p) * normal_words_);
    normal_edges_ = DeviceArray<eid_t>::allocate(1);
  }
}

// Beamer's rule over every rank's normal frontier: bottom-up when its nn + nd
// edges exceed 1/15 of those not yet explored. Each rank adds the same sums,
// so every rank takes the same direction, as it must: an nn edge is stored
// once each way, at each end's owner, and is looked at from the frontier's
// side (push) or from the unvisited side (pull) only if both owners agree.
bool RankBfs::normals_pull(const uint32_t* rows, uint32_t normals, eid_t& unexplored) {
  if (!normal_pull_) return false;
  constexpr eid_t kAlpha = 15;
  const cudaStream_t st = stream_.stream();
  if (normals > 0) {
    BfsLevel scan_only;
    scan_only.g = graph_->view();
    launch_scan_normal_degrees(scan_only, rows, normals, scan_.data(), pool_, stream_.sms(), st);
    TG_CUDA(cudaMemcpyAsync(normal_edges_.data(), scan_.data() + normals - 1, sizeof(eid_t), cudaMemcpyDeviceToDevice, st));
  } else {
    TG_CUDA(cudaMemsetAsync(normal_edges_.data(), 0, sizeof(eid_t), st));
  }
  const eid_t frontier = read_back_summed(normal_edges_.data(), 1)[0];
  const bool pull = frontier > unexplored / kAlpha;
  unexplored -= std::min(unexplored, frontier);
  return pull;
}

// Every rank's nn + nd edges, summed once, in the first run (not when the
// program is made: a collective there would wait forever on a rank that
// failed to place its part, before the ranks agree that all placed theirs).
eid_t RankBfs::all_normal_edges() {
  if (all_normal_edges_known_) return all_normal_edges_;
  pinned_frontier_edges_[1] = host_.nn.num_edges() + host_.nd.num_edges();
  TG_CUDA(cudaMemcpyAsync(normal_edges_.data(), &pinned_frontier_edges_[1], sizeof(eid_t), cudaMemcpyHostToDevice,
                          stream_.stream()));
  all_normal_edges_ = read_back_summed(normal_edges_.data(), 1)[0];
  all_normal_edges_known_ = true;
  return all_normal_edges_;
}

// (a, b) summed over the ranks (every rank calls it).
std::pair<eid_t, eid_t> RankBfs::summed_over_ranks(eid_t a, eid_t b) {
  pinned_frontier_edges_[0] = a;
  pinned_frontier_edges_[1] = b;
  TG_CUDA(cudaMemcpyAsync(direction_sums_.data(), pinned_frontier_edges_, 2 * sizeof(eid_t), cudaMemcpyHostToDevice,
                          stream_.stream()));
  const eid_t* sums = read_back_summed(direction_sums_.data(), 2);
  return {sums[0], sums[1]};
}

// device[0, count) summed over the ranks in place and read back into the
// pinned slots (every rank calls it).
const eid_t* RankBfs::read_back_summed(eid_t* device, int count) {
  if (host_.num_ranks > 1)
    TG_NCCL(ncclAllReduce(device, device, count, ncclUint64, ncclSum, comm_, stream_.stream()));
  TG_CUDA(cudaMemcpyAsync(pinned_frontier_edges_, device, count * sizeof(eid_t), cudaMemcpyDeviceToHost, stream_.stream()));
  stream_.sync();
  return pinned_frontier_edges_;
}

void RankBfs::warm_up() {
  const int p = host_.num_ranks;
  if (p == 1) return;
  TG_CUDA(cudaMemsetAsync(send_count_.data(), 0, p * sizeof(uint32_t), stream_.stream()));
  TG_CUDA(cudaMemsetAsync(reached_.data(), 0, host_.num_delegates() + 1, stream_.stream()));
  TG_NCCL(ncclAllGather(send_count_.data(), count_matrix_.data(), p, ncclUint32, comm_, stream_.stream()));
  TG_NCCL(ncclGroupStart());
  for (int q = 0; q < p; ++q) {
    if (q == host_.rank) continue;
    TG_NCCL(ncclSend(send_count_.data(), 1, ncclUint32, q, comm_, stream_.stream()));
    TG_NCCL(ncclRecv(count_matrix_.data() + q, 1, ncclUint32, q, comm_, stream_.stream()));
  }
  TG_NCCL(ncclGroupEnd());
  exchange_reached();
  stream_.sync();
}

// The delegates reached on any rank this level (and whether any rank queued
// normals, the flag at index d). An allgather of each rank's mask as bits,
// in place (this rank's segment is its packed mask), then an OR of the P
// segments; or, with TG_MGPU_REACHED_BYTES=1, the bytes reduced by max.
void RankBfs::exchange_reached() {
  const int p = host_.num_ranks;
  const uint64_t count = uint64_t{host_.num_delegates()} + 1;
  const cudaStream_t st = stream_.stream();
  if (reached_as_bytes_) {
    TG_NCCL(ncclAllReduce(reached_.data(), reached_.data(), count, ncclUint8, ncclMax, comm_, st));
    return;
  }
  uint32_t* mine = reached_bits_.data() + static_cast<uint64_t>(host_.rank) * reached_words_;
  launch_pack_reached(reached_.data(), count, mine, stream_.sms(), st);
  TG_NCCL(ncclAllGather(mine, reached_bits_.data(), reached_words_, ncclUint32, comm_, st));
  launch_or_reached(reached_bits_.data(), p, reached_words_, count, reached_.data(), stream_.sms(), st);
}

RankBfs::~RankBfs() {
  cudaFreeHost(pinned_counts_);
  cudaFreeHost(pinned_frontier_edges_);
}

void RankBfs::reset(uint64_t source) {
  const RankGraph& g = host_;
  TG_CUDA(cudaMemsetAsync(normal_depth_.data(), 0xFF, g.num_normals() * sizeof(int32_t), stream_.stream()));  // kNoDepth
  TG_CUDA(cudaMemsetAsync(delegate_depth_.data(), 0xFF, g.num_delegates() * sizeof(int32_t), stream_.stream()));
  TG_CUDA(cudaMemsetAsync(reached_.data(), 0, g.num_delegates() + 1, stream_.stream()));
  TG_CUDA(cudaMemsetAsync(sent_bits_.data(), 0, sent_bits_.size() * sizeof(uint32_t), stream_.stream()));
  TG_CUDA(cudaMemsetAsync(counters_.data(), 0, 3 * sizeof(uint32_t), stream_.stream()));
  TG_CUDA(cudaMemsetAsync(send_count_.data(), 0, g.num_ranks * sizeof(uint32_t), stream_.stream()));
  // The source's depth and the first frontier, through the counters' pinned slots.
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
  const int p = host_.num_ranks, r = host_.rank;
  if (p == 1) return 0;
  TG_NCCL(ncclAllGather(send_count_.data(), count_matrix_.data(), p, ncclUint32, comm_, stream_.stream()));
  TG_CUDA(cudaMemcpyAsync(pinned_counts_, count_matrix_.data(), static_cast<size_t>(p) * p * sizeof(uint32_t),
                          cudaMemcpyDeviceToHost, stream_.stream()));
  stream_.sync();
  const uint32_t* counts = pinned_counts_;  // row q: what rank q sends to each rank
  uint64_t received = 0;
  TG_NCCL(ncclGroupStart());
  for (int q = 0; q < p; ++q) {
    if (q == r) continue;
    const uint32_t to_q = counts[r * p + q], from_q = counts[q * p + r];
    if (to_q > 0) TG_NCCL(ncclSend(s.send + send_start_host_[q], to_q, ncclUint32, q, comm_, stream_.stream()));
    if (from_q > 0) TG_NCCL(ncclRecv(receive_.data() + received, from_q, ncclUint32, q, comm_, stream_.stream()));
    received += from_q;
  }
  TG_NCCL(ncclGroupEnd());
  return received;
}

RankRunRecord RankBfs::run(uint64_t source) {
  const RankGraph& g = host_;
  const int p = g.num_ranks;
  const uint32_t d = g.num_delegates();
  if (source >= g.num_vertices) throw Error("bfs source " + std::to_string(source) + " is not a vertex");
  reset(source);
  const bool source_is_delegate = std::binary_search(g.delegate_global.begin(), g.delegate_global.end(), source);
  uint32_t normals = !source_is_delegate && g.owns_slot_of(source) ? 1 : 0;
  uint32_t delegates = source_is_delegate ? 1 : 0;
  eid_t normal_unexplored = normal_pull_ ? all_normal_edges() : 0;  // the first run sums them over the ranks

  // Every rank starts together: a reduction of nothing is the barrier.
  if (p > 1) TG_NCCL(ncclAllReduce(counters_.data(), counters_.data(), 1, ncclUint32, ncclSum, comm_, stream_.stream()));
  stream_.mark(kRunStart);

  // Beamer's rule (SC 2012), per rank on its own delegate edges: go bottom-up
  // when the frontier's edges exceed 1/15 of those of the delegates not yet
  // reached (GAP's alpha); the frontier shrinks back below it at the tail.
  constexpr eid_t kAlpha = 15;
  eid_t unexplored = g.dn.num_edges() + g.dd.num_edges();
  const uint64_t slots = DegreeSeparation::slots_on_rank(g.num_vertices, p, g.rank);

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
    s.counters = counters_.data();
    s.sent_bits = sent_bits_.data();
    s.send = send_.data();
    s.send_start = send_start_.data();
    s.send_count = send_count_.data();
    s.normal_frontier_bits = normal_frontier_bits_.data();
    s.normal_words = normal_words_;

    stream_.mark(0);
    const bool normals_up = normals_pull(normals_[cur].data(), normals, normal_unexplored);
    if (normals_up) {
      // Bottom-up for the normals: every rank's frontier normals as bits,
      // allgathered (in place: this rank's segment is its send buffer), then
      // each unvisited normal here looks for a parent; the frontier normals
      // still reach their delegates by pushing (nd lists are short).
      launch_mark_normal_frontier(s, slots, stream_.sms(), stream_.stream());
      if (p > 1)
        TG_NCCL(ncclAllGather(normal_frontier_bits_.data() + static_cast<uint64_t>(g.rank) * normal_words_,
                              normal_frontier_bits_.data(), normal_words_, ncclUint32, comm_, stream_.stream()));
      launch_mark_delegate_frontier(s, stream_.sms(), stream_.stream());
      launch_push_normals_to_delegates(s, normals_[cur].data(), normals, stream_.sms(), stream_.stream());
      launch_pull_normals_from_all(s, stream_.sms(), stream_.stream());
    } else {
      launch_expand_normals(s, normals_[cur].data(), normals, scan_.data(), pool_, stream_.sms(), stream_.stream());
    }
    stream_.mark(kDelegatesStart);
    bool pull = false, summed = false, mid_exchange = false;
    if (delegates > 0) {  // the delegate frontier is the same on every rank
      launch_scan_delegate_degrees(s, delegates_[cur].data(), delegates, scan_.data(), pool_, stream_.sms(), stream_.stream());
      TG_CUDA(cudaMemcpyAsync(pinned_frontier_edges_, scan_.data() + delegates - 1, sizeof(eid_t),
                              cudaMemcpyDeviceToHost, stream_.stream()));
      stream_.sync();
      const eid_t frontier_edges = *pinned_frontier_edges_;
      if (two_phase_) {
        const auto [all_frontier, all_unexplored] = summed_over_ranks(frontier_edges, unexplored);
        pull = all_frontier > all_unexplored / kAlpha;
        summed = true;
      } else {
        pull = symmetric_ && frontier_edges > unexplored / kAlpha;
      }
      unexplored -= std::min(unexplored, frontier_edges);
      if (pull && normals_up) {
        launch_pull_delegates(s, stream_.sms(), stream_.stream());  // the normals pulled above
      } else if (pull && two_phase_) {
        launch_pull_normals(s, stream_.sms(), stream_.stream());
        launch_pull_delegates(s, stream_.sms(), stream_.stream(), 0, kHubsFirst);
        exchange_reached();  // what any rank found: the second phase passes over it
        launch_pull_delegates(s, stream_.sms(), stream_.stream(), kHubsFirst, kWholeRow);
        mid_exchange = true;
      } else if (pull) {
        launch_pull_from_delegates(s, stream_.sms(), stream_.stream());
      } else {
        launch_push_delegates(s, delegates_[cur].data(), delegates, scan_.data(), stream_.sms(), stream_.stream());
      }
    }
    stream_.mark(1);
    // Every rank pulled its normals or none did: then nothing was queued for owners.
    const uint64_t received = normals_up ? 0 : exchange_normals(s);
    stream_.mark(2);
    launch_visit_received(s, receive_.data(), received, stream_.sms(), stream_.stream());
    launch_set_normals_flag(s, stream_.stream());
    stream_.mark(3);
    if (p > 1) exchange_reached();
    stream_.mark(4);
    launch_settle_delegates(s, stream_.sms(), stream_.stream());
    stream_.mark(5);
    uint32_t* counters = pinned_counts_ + static_cast<size_t>(p) * p;
    TG_CUDA(cudaMemcpyAsync(counters, counters_.data(), 3 * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream_.stream()));
    TG_CUDA(cudaMemsetAsync(counters_.data(), 0, 3 * sizeof(uint32_t), stream_.stream()));
    TG_CUDA(cudaMemsetAsync(send_count_.data(), 0, p * sizeof(uint32_t), stream_.stream()));
    stream_.sync();

    LevelRecord l;
    l.delegate_frontier = delegates;
    l.pulled = pull || normals_up;
    l.normals_received = received;
    l.compute_s = stream_.seconds(0, 1) + stream_.seconds(2, 3) + stream_.seconds(4, 5);
    l.communication_s = stream_.seconds(1, 2) + stream_.seconds(3, 4);
    l.normals_s = stream_.seconds(0, kDelegatesStart);
    l.delegates_s = stream_.seconds(kDelegatesStart, 1);
    l.visit_s = stream_.seconds(2, 3);
    l.settle_s = stream_.seconds(4, 5);
    if (p > 1) {
      if (normals_up) {
        l.bytes_sent += normal_words_ * 4 + sizeof(eid_t);  // its segment of the normal frontier, its edge count
      } else {
        const uint32_t* sent = pinned_counts_ + static_cast<size_t>(g.rank) * p;  // this level's row, still there
        for (int q = 0; q < p; ++q) l.bytes_sent += uint64_t{sent[q]} * 4;
      }
      const uint64_t mask = reached_as_bytes_ ? uint64_t{d} + 1 : reached_words_ * 4;
      l.bytes_sent += (mid_exchange ? 2 * mask : mask) + (summed ? 2 * sizeof(eid_t) : 0) + static_cast<uint64_t>(p) * 4;
    }
    record.levels.push_back(l);
    normals = counters[0];
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
