// The CPU engine's own ordered relaxation (algorithms/settle_in_order.h:
// delta-stepping's loop for sssp and sswp), run the way GAP's delta-stepping
// runs it, with bucket fusion [Zhang et al., CGO 2020]:
//  - every thread keeps its own bins, one per bucket; relaxing an edge that
//    improves v drops v straight into the bin of its new key, with no
//    output frontier, filters or merges between the steps;
//  - a round settles the lowest non-empty bucket over all threads' bins:
//    the threads split the union of their bins for it; an entry whose key
//    has moved below the bucket is stale and skipped (a vertex is never taken
//    out of an older bin, it is only ignored there). Two barriers a round:
//    one after the bins are taken, one after the edges are relaxed, which
//    also closes the vote for the next bucket;
//  - bucket fusion: when a thread's bin for the bucket it is settling holds
//    fewer than kFuseBelow vertices, the thread settles them at once instead
//    of waiting for the next round and its two barriers. SSSP on kron:20
//    settles most buckets in a single round that way.
// A vertex improved twice in a round sits twice in a bin and may be relaxed
// twice; that costs edges, never correctness (its distance is final once its
// bucket is settled, as in delta-stepping).
//
// Keys beyond a window of kWindow buckets wait in per-thread overflow lists,
// spread into a new window when the current one is used up (Julienne's open
// and overflow buckets), so a tiny delta costs no memory.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/recycled_vector.h"
#include "engines/buckets.h"
#include "engines/cpu/lookahead.h"
#include "engines/engine.h"
#include "graph/graph.h"

namespace tg {

template <typename V, typename Key, typename Relax>
OrderedStop cpu_settle_in_order(const Csr<V>& out, const V* start, uint64_t start_count, Key key, Relax shared_relax,
                                RunStats& stats, uint64_t stop_after = 0) {
  static_assert(!HasBegin<Relax, V>, "an ordered relaxation has no begin hook");
  constexpr uint64_t kWindow = uint64_t{1} << 14;
  constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();
  constexpr size_t kFuseBelow = 1000;  // GAP's kBinSizeThreshold
  constexpr uint64_t kChunk = 64;      // a bucket's entries are split over threads in chunks of 64
  const eid_t* off = out.offsets.data();
  const V* nbr = out.neighbors.data();
  const weight_t* weights = out.weights.data();

  // Shared between the threads. The vote for the next bucket alternates
  // between two slots by round, so that one barrier both ends a round and
  // closes the vote for the next.
  double base = kNoBucket;  // the key of bin 0 of the window
  for (uint64_t i = 0; i < start_count; ++i) base = std::min(base, key(start[i]));
  if (!(base < kNoBucket)) return {};
  const int threads = omp_get_max_threads();
  uint64_t vote[2] = {kNone, kNone};        // the lowest non-empty bin over all threads
  std::vector<std::vector<V>> taken(threads);  // each thread's entries of the bucket being settled
  double lowest_overflow = kNoBucket;
  uint64_t rounds = 0, edges = 0;
  OrderedStop stop;

#pragma omp parallel num_threads(threads) reduction(+ : edges)
  {
    const int t = omp_get_thread_num();
    const Relax relax = shared_relax;
    std::vector<std::vector<V>> bins;
    std::vector<V> overflow;
    std::vector<V> fusing;  // the bin being fused, its capacity kept between rounds
    uint64_t settled_here = 0;  // buckets settled (the same count on every thread)
    // Drops v into the bin of its key (or the overflow); at or after `from`.
    auto place = [&](V v, uint64_t from) {
      const double k = key(v);
      if (!(k < kNoBucket)) return;
      const double offset = k - base;
      if (offset >= static_cast<double>(kWindow)) {
        overflow.push_back(v);
        return;
      }
      const uint64_t at = std::max<uint64_t>(from, static_cast<uint64_t>(std::max(offset, 0.0)));
      if (at >= bins.size()) bins.resize(at + 1);
      bins[at].push_back(v);
    };
    // Relaxes the out-edges of u, a member of bucket b (else stale: skipped).
    // The arrays' addresses are copied in: read through the captures, they
    // were reloaded for every edge after each atomic (the compiler cannot
    // tell that a CAS on a distance leaves them alone).
    auto settle = [&, off, nbr, weights](V u, double b, uint64_t at) {
      if (key(u) != b) return;
      const V* const list = nbr;
      const weight_t* const list_weights = weights;
      const Relax op = relax;
      const eid_t begin = off[u], end = off[u + 1];
      lookahead::prefetch_list_start(op, list, begin, end);
      for (eid_t e = begin; e < end; ++e) {
        if (e + lookahead::kEdges < end) prefetch_state(op, list[e + lookahead::kEdges]);
        const V v = list[e];
        if (!op.cond(v)) continue;
        const weight_t w = Relax::needs_weights ? list_weights[e] : 1.0f;
        if (op.update_atomic(u, v, w)) place(v, at);
      }
      edges += end - begin;
    };
    // Settles n entries of a bin, asking for the lines of the entries a few
    // places ahead first (engines/cpu/lookahead.h).
    auto settle_all = [&, off, nbr, weights](const V* entries, size_t n, double b, uint64_t at) {
      for (size_t i = 0; i < n; ++i) {
        if (i + lookahead::kVertices < n) {
          const V w = entries[i + lookahead::kVertices];
          prefetch_state(key, w);
          __builtin_prefetch(off + w);
        }
        if (i + lookahead::kLists < n) {
          const eid_t first = off[entries[i + lookahead::kLists]];
          __builtin_prefetch(nbr + first);
          if (Relax::needs_weights) __builtin_prefetch(weights + first);
        }
        settle(entries[i], b, at);
      }
    };
    // This thread's lowest non-empty bin at or after `from`, into the vote.
    auto cast_vote = [&](uint64_t& slot, uint64_t from) {
      uint64_t mine = kNone;
      for (uint64_t i = from; i < bins.size(); ++i)
        if (!bins[i].empty()) {
          mine = i;
          break;
        }
      if (mine == kNone) return;
#pragma omp critical(tg_settle_vote)
      slot = std::min(slot, mine);
    };

#pragma omp single
    for (uint64_t i = 0; i < start_count; ++i) place(start[i], 0);
    cast_vote(vote[0], 0);
#pragma omp barrier
    for (uint64_t round = 0;; ++round) {
      uint64_t& now = vote[round & 1];
      uint64_t& next = vote[(round + 1) & 1];
      if (now == kNone) {
        // The window is used up: a new one from the lowest key waiting in
        // any overflow list, or the end.
        double low = kNoBucket;
        for (V v : overflow) low = std::min(low, key(v));
#pragma omp critical(tg_settle_vote)
        lowest_overflow = std::min(lowest_overflow, low);
#pragma omp barrier
        const double new_base = lowest_overflow;
#pragma omp barrier
        if (!(new_base < kNoBucket)) break;  // every thread sees the same
#pragma omp single
        {
          base = new_base;
          lowest_overflow = kNoBucket;
        }
        // (barrier: every thread sees the new base)
        bins.clear();
        std::vector<V> waiting;
        waiting.swap(overflow);
        for (V v : waiting) place(v, 0);
        cast_vote(now, 0);
#pragma omp barrier
        --round;  // the same round again, with its vote
        continue;
      }
      const uint64_t bin = now;
      const double b = base + static_cast<double>(bin);
      if (bin < bins.size()) taken[t].swap(bins[bin]);
#pragma omp single nowait
      {
        next = kNone;  // read last two rounds ago
        ++rounds;
      }
#pragma omp barrier
      // The bucket's entries: every thread's taken list, split over threads.
      uint64_t total = 0;
      for (int i = 0; i < threads; ++i) total += taken[i].size();
      const uint64_t chunks = (total + kChunk - 1) / kChunk;
#pragma omp for schedule(dynamic, 1) nowait
      for (uint64_t c = 0; c < chunks; ++c) {
        // The chunk's entries, over one or more threads' taken lists.
        uint64_t rest = c * kChunk, left = std::min(kChunk, total - c * kChunk);
        int owner = 0;
        while (rest >= taken[owner].size()) rest -= taken[owner++].size();
        while (left > 0) {
          const uint64_t n = std::min<uint64_t>(left, taken[owner].size() - rest);
          settle_all(taken[owner].data() + rest, n, b, bin);
          left -= n;
          rest = 0;
          ++owner;
        }
      }
      // Bucket fusion: settle what this thread added to the bucket while it
      // is small, without waiting for the next round.
      std::vector<V>& fused = fusing;
      while (bin < bins.size() && !bins[bin].empty() && bins[bin].size() < kFuseBelow) {
        fused.swap(bins[bin]);
        settle_all(fused.data(), fused.size(), b, bin);
        fused.clear();
      }
      cast_vote(next, bin);
#pragma omp barrier
      taken[t].clear();
      // A vote past this bin: bucket b is settled (every thread reads the
      // same vote, so all stop together). What still waits, in the bins and
      // the overflow lists, is dropped: the caller finds it again from the
      // values (algorithms/settle_in_order.h, WaitingAfter).
      if (next != bin && ++settled_here == stop_after) {
        if (t == 0) stop = {settled_here, true, b};
        break;
      }
    }
    if (t == 0 && !stop.stopped) stop.buckets = settled_here;
  }
  stats.edges_traversed += edges;
  stats.iterations += rounds;
  stats.push_steps += rounds;
  return stop;
}

}  // namespace tg
