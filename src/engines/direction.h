// Push or pull: the one direction policy of every engine.
//
// Beamer's direction-optimizing traversal [Beamer, Asanovic, Patterson, SC
// 2012] with Ligra's threshold [Shun and Blelloch, PPoPP 2013]: pull when the
// frontier's vertices plus out-edges exceed |E| / 20, push otherwise; and,
// as Beamer's own switch back does, once pulling keep pulling while the
// frontier holds more than |V| / 18 vertices. Without that hysteresis the
// step after the peak of a BFS on kron:20 pushed 301 K vertices' 1 M edges
// in 12 ms where GAP's bottom-up step takes 2.8 ms (2 threads). Past the
// threshold a GPU engine also weighs the pull: in GPU memory by its probes
// against three times the push's edges (pull_pays_in_memory), over a link by
// the bytes each way (pull_pays_over_link). An
// engine that cannot pull (no in-edges, or a placement that streams only
// out-edges) pushes when the caller leaves the direction to it, and refuses a
// pull the caller insists on: a silent push would break an operator written
// for pull (one thread per destination).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/error.h"
#include "graph/degree_bands.h"

namespace tg {

enum class Direction { kAuto, kPush, kPull };

// What the policy looks at, as the engine knows it before the step.
struct StepShape {
  uint64_t frontier_vertices = 0;
  uint64_t frontier_edges = 0;  // sum of the frontier's out-degrees
  uint64_t total_edges = 0;     // |E| of the out-CSR
  uint64_t vertices = 0;        // |V|
  bool can_pull = false;
  bool pulled_last = false;     // the engine's previous step pulled
  // The pull's lists cross a link (zero-copy placements), and the first
  // `link_heads` entries of each are cached in GPU memory (0: none).
  bool pull_over_link = false;
  int link_heads = 0;
  // Over a link: the pulling side's degrees by class (DegreeBands::classes),
  // which a pull's bytes follow; null: every vertex at the mean degree.
  const std::vector<DegreeClass>* degree_classes = nullptr;
  // Pull once the frontier's vertices plus out-edges exceed total_edges /
  // pull_divisor (Ligra's 20; an engine whose pushes cost more per edge than
  // its pulls sets more).
  uint64_t pull_divisor = 20;
  // In GPU memory: a pushed edge's cost in a pull's probes (0: Ligra's rule
  // alone), and the probes a pull would make, every vertex taken as
  // unvisited: each reads its list up to min(degree, 1 / share) entries,
  // share the frontier's part of the edges (pull_probes_cap).
  double push_edge_cost = 0;
  uint64_t pull_probes = 0;
};

// A vertex probes at most this many entries of its list in a pull: about
// 1 / share until a frontier neighbour turns up.
inline uint64_t pull_probes_cap(const StepShape& s) {
  if (s.frontier_edges == 0) return UINT64_MAX;
  return uint64_t(std::ceil(double(s.total_edges) / double(s.frontier_edges)));
}

// Where Ligra's threshold says pull, in GPU memory, whether the pull's
// probes cost less than the push's edges. On urand:24 the threshold pulls at
// the fourth level (0.9-1.3 M vertices, 28-42 M frontier edges): the
// unvisited read 180-246 M entries in 3.3-3.7 ms, where urand:25 pushed its
// level of 27-38 M edges in 1.6-2.0 ms (the H200, docs/gpu-check/2026-12-02c):
// 55-66 G probes a second against 17-19 G pushed edges, a push edge about
// three probes (kGpuPushEdgeCost).
inline bool pull_pays_in_memory(const StepShape& s) {
  return double(s.pull_probes) < s.push_edge_cost * double(s.frontier_edges);
}
constexpr double kGpuPushEdgeCost = 3;

// Beamer's beta: the frontier size, as a fraction of |V|, below which a
// traversal that pulls goes back to pushing.
constexpr uint64_t kPullUntilFrontierBelow = 18;

// The choice where the frontier's degree sum cannot change it (the
// direction is given, the engine cannot pull, or the frontier's size alone
// decides: the big steps of a BFS); none where it can.
inline std::optional<bool> choice_without_edges(Direction asked, const StepShape& s) {
  if (asked != Direction::kAuto) return asked == Direction::kPull;
  if (!s.can_pull) return false;
  if (s.pulled_last && s.frontier_vertices > s.vertices / kPullUntilFrontierBelow) return true;
  if (s.frontier_vertices > s.total_edges / s.pull_divisor) return true;
  return std::nullopt;
}

// Ligra's threshold: the frontier's vertices plus out-edges above
// total_edges / pull_divisor.
inline bool past_ligra_threshold(const StepShape& s) {
  return s.frontier_vertices + s.frontier_edges > s.total_edges / s.pull_divisor;
}

// Whether choose_pull needs frontier_edges, a pass over the frontier's
// degrees, for this step (the other fields set): an engine skips that pass
// where it does not (two passes over 268 MB of offsets in a BFS on kron:25).
inline bool needs_frontier_edges(Direction asked, const StepShape& s) {
  return !choice_without_edges(asked, s).has_value();
}

// Whether choose_pull weighs pull_probes for this step (all other fields set):
// Ligra's threshold passed, the choice not settled without it.
inline bool needs_pull_probes(Direction asked, const StepShape& s) {
  if (s.push_edge_cost <= 0 || s.pull_over_link) return false;
  if (choice_without_edges(asked, s).has_value()) return false;
  return past_ligra_threshold(s);
}

// Over a link, a step's bytes: a push reads the frontier's lists, their
// entries and half a line lost at each start; a pull, for every vertex whose
// cached head entries (the first h) miss the frontier, a sector and then
// about 1 / share more entries (the first frontier neighbour's place, share
// being the frontier's part of the edges), or the rest of its list. Ligra's
// threshold alone pulled urand:24 at its fourth level (950 K vertices, 31 M of
// 537 M edges): each unvisited vertex then read half its list over the link,
// 251 M entries, and the run took 27-31 ms at a quarter budget on the H100,
// against 8-14 ms for urand:25, twice its size (docs/PERF.md, issue 13).
// Every vertex is counted as unvisited: the rule matters where the
// traversal grows, when most are.
//
// Only a vertex whose list runs past its heads can read over the link: with
// the degrees by class, the others are left out. Counting every vertex at
// the mean degree, kron:25 at a quarter budget (H200, source 26472044) pushed
// its third level, 32 K hubs with 151 M edges, moving 259 MB in 23 ms, for a
// pull put at 1.08 GB; half of kron:25's vertices have no edges and half of
// the rest no more than the 4 heads, and the pull is 0.25 GB by class (in
// GPU memory that level pulled 58 M probes in 1.5 ms).
inline double pull_link_bytes(const StepShape& s, double share) {
  const double heads = std::max(0, s.link_heads);
  const double miss = std::pow(1.0 - share, heads);  // the heads hold no frontier neighbour
  if (s.degree_classes == nullptr) {
    const double degree = double(s.total_edges) / double(s.vertices);
    return double(s.vertices) * miss * (32 + 4 * std::min(degree, 1 / share));
  }
  double bytes = 0;
  for (const DegreeClass& c : *s.degree_classes)
    if (c.degree > heads) bytes += c.vertices * miss * (32 + 4 * std::min(c.degree - heads, 1 / share));
  return bytes;
}

inline bool pull_pays_over_link(const StepShape& s) {
  if (s.total_edges == 0 || s.vertices == 0) return true;
  const double share = std::min(1.0, double(s.frontier_edges) / double(s.total_edges));
  if (share <= 0) return false;
  const double push_bytes = double(s.frontier_vertices) * 64 + double(s.frontier_edges) * 4;
  return pull_link_bytes(s, share) < push_bytes;
}

// True: pull. Throws tg::Error for kPull where the engine cannot pull.
inline bool choose_pull(Direction asked, const StepShape& s) {
  if (asked == Direction::kPull && !s.can_pull)
    throw Error("a pull step was asked for, but this engine cannot pull: it has no in-edges (build the CSC of "
                "a directed graph) or its placement streams out-edges only");
  if (const std::optional<bool> choice = choice_without_edges(asked, s)) return *choice;
  if (!past_ligra_threshold(s)) return false;
  if (s.pull_over_link) return pull_pays_over_link(s);
  return s.push_edge_cost <= 0 || pull_pays_in_memory(s);
}

}  // namespace tg
