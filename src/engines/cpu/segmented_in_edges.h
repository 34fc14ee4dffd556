// The in-edges regrouped by source range, for gathers whose sources' values
// outgrow the last-level cache (CSR segmenting [Zhang, Kiriansky, Mendis,
// Amarasinghe, Zaharia, Yang, "Making caches work for graph analytics", IEEE
// BigData 2017]). A plain pull reads every in-neighbour's value at random
// from the whole vertex array: on kron:25 (33.5 M vertices, 134-268 MB of
// PageRank contributions) nearly every read is a cache line from memory for
// 4-8 useful bytes. Segment s holds the edges whose sources lie in
// [s*S, (s+1)*S), grouped by destination in ascending order; a gather walks
// the segments in turn, so its random reads span S vertices and hit the
// cache, and each destination's partial sum is folded into an array in
// destination order, once a segment it has edges in. Whether that pays
// depends on the machine (CpuEngine's default_segment_vertices says where it
// did and did not), so it is the user's choice.
//
// The layout holds every in-edge again (the plain CSC stays: other steps
// and other engines read it) plus a destination and an end a segment-run.
// It needs each destination's list sorted (the builder's order), so a
// destination's edges from one segment are one run and one thread's.
#pragma once

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/array.h"
#include "graph/graph.h"

namespace tg {

template <typename V>
class SegmentedInEdges {
 public:
  // nullopt where a list is not sorted ascending, or where the layout would
  // take more than `max_bytes`. `segment_vertices` is rounded down to a power
  // of two (a shift finds a source's segment).
  static std::optional<SegmentedInEdges> build(const Csr<V>& in, uint64_t n, uint64_t segment_vertices,
                                               uint64_t max_bytes = ~uint64_t{0}) {
    SegmentedInEdges s;
    s.n_ = n;
    s.shift_ = std::bit_width(std::max<uint64_t>(segment_vertices, 1)) - 1;
    const uint64_t k = n == 0 ? 0 : ((n - 1) >> s.shift_) + 1;
    const uint64_t blocks = (n + kBlock - 1) / kBlock;
    const eid_t* offsets = in.offsets.data();
    const V* neighbors = in.neighbors.data();
    // Pass 1: each block of destinations counts its runs and edges a
    // segment; a run's end is found by a binary search, so a hub's list is
    // read at its segments' boundaries. Its order is checked first, the one
    // pass over every entry (a comparison a pair, vectorized).
    std::vector<uint64_t> runs(blocks * k, 0), edges(blocks * k, 0);
    int unsorted = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(| : unsorted)
    for (uint64_t b = 0; b < blocks; ++b) {
      const uint64_t first_v = b * kBlock, last_v = std::min(n, (b + 1) * kBlock);
      int out_of_order = 0;
      for (uint64_t v = first_v; v < last_v; ++v)
        for (eid_t e = offsets[v] + 1; e < offsets[v + 1]; ++e) out_of_order |= neighbors[e - 1] > neighbors[e];
      if (out_of_order) {
        unsorted = 1;
        continue;
      }
      uint64_t* my_runs = runs.data() + b * k;
      uint64_t* my_edges = edges.data() + b * k;
      for (uint64_t v = first_v; v < last_v; ++v)
        s.for_each_run(neighbors, offsets[v], offsets[v + 1], [&](uint64_t seg, eid_t begin, eid_t end) {
          my_runs[seg]++;
          my_edges[seg] += end - begin;
        });
    }
    if (unsorted) return std::nullopt;
    // Each block's first run and edge in each segment.
    std::vector<uint64_t> segment_runs(k), segment_edges(k);
    uint64_t bytes = 0;
    for (uint64_t g = 0; g < k; ++g) {
      uint64_t r = 0, e = 0;
      for (uint64_t b = 0; b < blocks; ++b) {
        const uint64_t nr = runs[b * k + g], ne = edges[b * k + g];
        runs[b * k + g] = r, edges[b * k + g] = e;
        r += nr, e += ne;
      }
      segment_runs[g] = r, segment_edges[g] = e;
      bytes += r * (sizeof(V) + sizeof(eid_t)) + e * sizeof(V);
    }
    if (bytes > max_bytes) return std::nullopt;
    s.segments_.resize(k);
    for (uint64_t g = 0; g < k; ++g) {
      const uint64_t r = segment_runs[g], e = segment_edges[g];
      s.segments_[g].dests = Array<V>::allocate(r);
      s.segments_[g].ends = Array<eid_t>::allocate(r);
      s.segments_[g].sources = Array<V>::allocate(e);
    }
    // Pass 2: each block copies its runs where pass 1 placed them.
#pragma omp parallel for schedule(dynamic, 1)
    for (uint64_t b = 0; b < blocks; ++b) {
      uint64_t* run_at = runs.data() + b * k;
      uint64_t* edge_at = edges.data() + b * k;
      for (uint64_t v = b * kBlock; v < std::min(n, (b + 1) * kBlock); ++v)
        s.for_each_run(neighbors, offsets[v], offsets[v + 1], [&](uint64_t seg, eid_t begin, eid_t end) {
          Segment& to = s.segments_[seg];
          std::copy(neighbors + begin, neighbors + end, to.sources.data() + edge_at[seg]);
          edge_at[seg] += end - begin;
          to.dests[run_at[seg]] = static_cast<V>(v);
          to.ends[run_at[seg]++] = edge_at[seg];
        });
    }
    return s;
  }

  uint64_t segment_vertices() const { return uint64_t{1} << shift_; }
  uint64_t num_segments() const { return segments_.size(); }
  // Bytes held beyond the CSC.
  uint64_t bytes() const {
    uint64_t b = 0;
    for (const Segment& g : segments_) b += g.dests.size() * sizeof(V) + g.ends.size() * sizeof(eid_t) + g.sources.size() * sizeof(V);
    return b;
  }

  // The gather of CpuEngine::gather_apply_range for destinations [begin,
  // end), in the same fold per destination (two running sums a run, then the
  // runs in segment order), into `partial` (n values of G::acc_t). Weighted
  // gathers are not segmented (the caller's plain pull runs them).
  template <typename G>
  double gather_apply_range(const G& op, uint64_t begin, uint64_t end, int team, Array<unsigned char>& scratch,
                            uint64_t& edges_read) const {
    static_assert(!G::needs_weights, "weighted gathers are not segmented");
    using Acc = typename G::acc_t;
    static_assert(std::is_trivially_copyable_v<Acc>);
    if (scratch.size() < n_ * sizeof(Acc)) scratch = Array<unsigned char>::allocate(n_ * sizeof(Acc));
    Acc* partial = reinterpret_cast<Acc*>(scratch.data());
#pragma omp parallel for schedule(static) num_threads(team)
    for (uint64_t v = begin; v < end; ++v) partial[v] = op.zero();
    uint64_t edges = 0;
    for (const Segment& g : segments_) {
      const V* dests = g.dests.data();
      const uint64_t first = std::lower_bound(dests, dests + g.dests.size(), begin) - dests;
      const uint64_t last = std::lower_bound(dests + first, dests + g.dests.size(), end) - dests;
      const eid_t* ends = g.ends.data();
      const V* sources = g.sources.data();
#pragma omp parallel for schedule(dynamic, 2048) reduction(+ : edges) num_threads(team)
      for (uint64_t r = first; r < last; ++r) {
        const V to = dests[r];
        eid_t e = r == 0 ? 0 : ends[r - 1];
        const eid_t stop = ends[r];
        edges += stop - e;
        Acc even = op.zero(), odd = op.zero();
        for (; e + 1 < stop; e += 2) {
          even = op.sum(even, op.gather(sources[e], to, 1.0f));
          odd = op.sum(odd, op.gather(sources[e + 1], to, 1.0f));
        }
        if (e < stop) even = op.sum(even, op.gather(sources[e], to, 1.0f));
        partial[to] = op.sum(partial[to], op.sum(even, odd));
      }
    }
    double total = 0;
#pragma omp parallel for schedule(static) reduction(+ : total) num_threads(team)
    for (uint64_t v = begin; v < end; ++v) total += op.apply(static_cast<V>(v), partial[v]);
    edges_read += edges;
    return total;
  }

 private:
  static constexpr uint64_t kBlock = 16384;  // destinations a task of the build

  // f(segment, begin, end) for each run of one segment's sources in the
  // sorted list [begin, end).
  template <typename F>
  void for_each_run(const V* neighbors, eid_t begin, eid_t end, F&& f) const {
    while (begin < end) {
      const uint64_t seg = static_cast<uint64_t>(neighbors[begin]) >> shift_;
      const uint64_t next = (seg + 1) << shift_;  // the next segment's first source
      eid_t stop = end;
      if (static_cast<uint64_t>(neighbors[end - 1]) >= next)
        stop = std::lower_bound(neighbors + begin, neighbors + end, next,
                                [](V a, uint64_t b) { return static_cast<uint64_t>(a) < b; }) -
               neighbors;
      f(seg, begin, stop);
      begin = stop;
    }
  }
  struct Segment {
    Array<V> dests;     // destinations with edges from this segment, ascending
    Array<eid_t> ends;  // where each destination's run ends in `sources`
    Array<V> sources;
  };
  std::vector<Segment> segments_;
  uint64_t n_ = 0;
  int shift_ = 0;
};

}  // namespace tg
