// Push or pull: the one direction policy of every engine.
//
// Beamer's direction-optimizing traversal [Beamer, Asanovic, Patterson, SC
// 2012] with Ligra's threshold [Shun and Blelloch, PPoPP 2013]: pull when the
// frontier's vertices plus out-edges exceed |E| / 20, push otherwise; and,
// as Beamer's own switch back does, once pulling keep pulling while the
// frontier holds more than |V| / 18 vertices. Without that hysteresis the
// step after the peak of a BFS on kron:20 pushed 301 K vertices' 1 M edges
// in 12 ms where GAP's bottom-up step takes 2.8 ms (2 threads). An
// engine that cannot pull (no in-edges, or a placement that streams only
// out-edges) pushes when the caller leaves the direction to it, and refuses a
// pull the caller insists on: a silent push would break an operator written
// for pull (one thread per destination).
#pragma once

#include <cstdint>

#include "core/error.h"

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
};

// Beamer's beta: the frontier size, as a fraction of |V|, below which a
// traversal that pulls goes back to pushing.
constexpr uint64_t kPullUntilFrontierBelow = 18;

// True: pull. Throws tg::Error for kPull where the engine cannot pull.
inline bool choose_pull(Direction asked, const StepShape& s) {
  switch (asked) {
    case Direction::kPush: return false;
    case Direction::kPull:
      if (!s.can_pull)
        throw Error("a pull step was asked for, but this engine cannot pull: it has no in-edges (build the CSC of "
                    "a directed graph) or its placement streams out-edges only");
      return true;
    case Direction::kAuto: break;
  }
  if (!s.can_pull) return false;
  if (s.pulled_last && s.frontier_vertices > s.vertices / kPullUntilFrontierBelow) return true;
  return s.frontier_vertices + s.frontier_edges > s.total_edges / 20;
}

// Whether choose_pull needs frontier_edges, a pass over the frontier's
// degrees, for this step (the other fields set): not where the direction is
// given, where the engine cannot pull, or where the frontier's size decides
// alone (the big steps of a BFS: two passes over 268 MB of offsets on
// kron:25).
inline bool needs_frontier_edges(Direction asked, const StepShape& s) {
  if (asked != Direction::kAuto || !s.can_pull) return false;
  if (s.pulled_last && s.frontier_vertices > s.vertices / kPullUntilFrontierBelow) return false;
  return s.frontier_vertices <= s.total_edges / 20;
}

}  // namespace tg
