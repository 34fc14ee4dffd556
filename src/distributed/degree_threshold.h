// The out-degree threshold TH that separates delegates from normal vertices
// (Pan, Pearce, Owens, IPDPS 2018, Section III-A), chosen by the paper's rule
// of Section VI-B unless the caller names one.
#pragma once

#include <cstdint>

#include "core/types.h"

namespace tg::dist {

// Local normal ids and delegate ids are 32-bit (Section III-C: "we can use
// 32-bit values to store local normal vertex and global delegate ids");
// the largest value stays free to mean "none", so ids run 0 .. limit-1.
constexpr uint64_t kLocalIdLimit = 0xFFFFFFFFull;

// The number of vertices of [0, n) with out-degree above `threshold`.
uint64_t count_delegates(const eid_t* out_offsets, uint64_t n, uint64_t threshold);

// Section VI-B: on RMAT graphs the best TH was 64 at scale 30 and "increases
// at the rate of about sqrt(2) per scale" (Figure 7), that is
// 64 * sqrt(n / 2^30), rounded: 16 at scale 26, 23 at 27, 45 at 29, 0 for the
// small graphs of the tests (every vertex with an edge is then a delegate).
uint64_t scale_rule_threshold(uint64_t num_vertices);

// The default TH: the scale rule, raised where it leaves more delegates than
// the paper allows. Section VI-B keeps d "under 4n/p" (delegates are
// replicated on every rank, and their bitmasks are reduced every level), and
// Section VI-B's first remedy for too many delegates is "increase TH"; so TH
// becomes the smallest value at or above the scale rule with
// d <= min(4n/p, max_delegates). Always possible: TH = max out-degree gives d = 0.
uint64_t paper_degree_threshold(const eid_t* out_offsets, uint64_t n, int num_ranks,
                                uint64_t max_delegates = kLocalIdLimit);

// The rule that picks TH where the caller names none.
enum class ThresholdRule {
  kPaper,          // paper_degree_threshold
  // The scale rule times P (never below the paper's): a batch of BFS runs.
  // Every rank holds every delegate and passes over all of them a level
  // (the pull, the settle), so with P ranks their share of a rank's work
  // grows P-fold against the edges it holds; fewer delegates trade it for
  // normals sent to owners. Graph500 Kronecker, 64 roots, 4 H100 (docs/PERF.md,
  // session 11), GTEPS at TH 32 / 64 / 128: kron:28 on 4 GPUs 595 / 684 / 706,
  // kron:27 on 2 397 / 397 / 408 (the rule's 23: 380), kron:26 on 1 193 / 184
  // / 195 (the rule's 16: 192). CC, SSSP and PageRank over the partition were
  // not measured with it and keep the paper's. A BFS that only pushes
  // (--push-only) makes no pass over unreached delegates, yet gains more
  // still: its delegates push every edge they hold, and fewer delegates push
  // fewer of them. 64 roots, 4 H100 (session 13): kron:28 on 4 at the paper's
  // 32 57.3 GTEPS (delegates' pushes 62.7 ms a root), at 128 71.9 (36.9);
  // kron:27 on 2 at 23 34.9, at 46 41.3.
  kScaledByRanks,
  // The scale rule times 2P (never below the paper's): a batch of BFS runs
  // that only push (--push-only), whose delegates' pushes fall further with
  // fewer delegates while their normals' sends grow slower than a DOBFS's
  // pulls would. 64 roots each (docs/PERF.md, session 14): kron:26 on 1 H100
  // at TH 16 / 32 23.1 / 26.3 GTEPS, kron:27 on 2 at 46 / 92 41.1 / 45.0
  // (2 H100, one call), kron:28 on 4 at 128 / 256 71.9 / 75.4 (4 H100).
  kScaledByTwiceRanks,
};
uint64_t default_degree_threshold(const eid_t* out_offsets, uint64_t n, int num_ranks, ThresholdRule rule,
                                  uint64_t max_delegates = kLocalIdLimit);

}  // namespace tg::dist
