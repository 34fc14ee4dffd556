// Windows: how one step's edge lists are cut into pieces that fit a page
// buffer (page_stream.h) of `capacity` edges. A window serves a run of the
// step's vertices and holds a contiguous span of the CSR's edge ids, at most
// `capacity` long; the edges of it actually read are its runs (the lists of
// the vertices it serves). A list longer than a buffer gets windows of its
// own, each a piece of it, in order, so a vertex's list is processed in
// consecutive windows.
//
// `resident`: edge ids [begin, end) are kept in memory (resident_edges.h).
// No window spans either boundary, so that each is served either from memory
// or from a buffer, never both: a list across one is cut there in two pieces,
// as a long list is cut.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/types.h"
#include "engines/paged/edge_file.h"  // page_floor, page_ceil, kReadCostBytes

namespace tg::paged {

struct EdgeRun {
  eid_t begin, end;  // edge ids [begin, end) to read
};

struct Window {
  // The vertices served: ids [first, last) (plan_all), or positions
  // [first, last) in the step's sorted frontier list (plan_list).
  uint64_t first, last;
  eid_t begin, end;                  // the span of edge ids the buffer holds
  uint64_t first_run, last_run;      // its runs: WindowPlan::runs[first_run, last_run)
};

struct WindowPlan {
  std::vector<Window> windows;
  std::vector<EdgeRun> runs;
};

// The edge ids kept in memory, [begin, end); none where empty.
struct ResidentRange {
  eid_t begin = 0, end = 0;
  // A window served from them (one of no edges on `end` is not).
  bool holds(const Window& w) const { return w.begin >= begin && w.begin < end && w.end <= end; }
  bool operator==(const ResidentRange&) const = default;
};

// Where a window starting at edge id `e` must end at the latest.
inline eid_t window_limit(eid_t e, uint64_t capacity, ResidentRange resident) {
  if (e < resident.begin) return std::min<eid_t>(e + capacity, resident.begin);
  if (e < resident.end) return std::min<eid_t>(e + capacity, resident.end);
  return e + capacity;
}

// Vertices [first, last) of a CSR (the hybrid engine's CPU share of a
// gather): windows of consecutive vertices, each read whole.
inline WindowPlan plan_range(const eid_t* offsets, uint64_t first, uint64_t last, uint64_t capacity,
                             ResidentRange resident = {}) {
  WindowPlan plan;
  uint64_t v = first;
  const uint64_t n = last;
  eid_t e = first < last ? offsets[first] : 0;
  auto add = [&](uint64_t first, uint64_t last, eid_t begin, eid_t end) {
    const uint64_t run = plan.runs.size();
    if (end > begin) plan.runs.push_back({begin, end});
    plan.windows.push_back({first, last, begin, end, run, plan.runs.size()});
  };
  while (v < n) {
    const eid_t limit = window_limit(e, capacity, resident);
    if (offsets[v + 1] > limit) {  // the rest of v's list overflows a buffer (or crosses an edge of `resident`)
      add(v, v + 1, e, limit);
      e = limit;
      continue;
    }
    // The most whole lists from v that fit: up to the last u with offsets[u] <= limit.
    const uint64_t u = std::upper_bound(offsets + v + 1, offsets + n + 1, limit) - offsets - 1;
    add(v, u, e, offsets[u]);
    v = u;
    e = offsets[u];
  }
  return plan;
}

// Every vertex of a CSR (pulls, gathers, pushes from all vertices).
inline WindowPlan plan_all(const eid_t* offsets, uint64_t n, uint64_t capacity, ResidentRange resident = {}) {
  return plan_range(offsets, 0, n, capacity, resident);
}

// The members of a sparse frontier, sorted by id, without repeats: windows
// of consecutive members whose lists span at most `capacity` edge ids; only
// their lists are read.
template <typename V>
WindowPlan plan_list(const eid_t* offsets, const V* list, uint64_t count, uint64_t capacity,
                     ResidentRange resident = {}) {
  WindowPlan plan;
  uint64_t i = 0;
  eid_t e = 0;  // where the next window starts reading the list of list[i]
  while (i < count) {
    const V u = list[i];
    e = std::max(e, offsets[u]);
    const uint64_t run = plan.runs.size();
    const eid_t limit = window_limit(e, capacity, resident);
    if (offsets[u + 1] > limit) {
      plan.runs.push_back({e, limit});
      plan.windows.push_back({i, i + 1, e, limit, run, run + 1});
      e = limit;
      continue;
    }
    const eid_t start = e;
    uint64_t j = i;
    for (; j < count && offsets[list[j] + 1] <= limit; ++j) {
      const eid_t b = std::max(start, offsets[list[j]]), end = offsets[list[j] + 1];
      if (end > b) plan.runs.push_back({b, end});
    }
    plan.windows.push_back({i, j, start, offsets[list[j - 1] + 1], run, plan.runs.size()});
    i = j;
  }
  return plan;
}

// f(begin, end) for the pages of a window's runs, `bytes_per_edge` a run's
// edge, as byte offsets from the section's start: adjacent or overlapping
// ones together, and those less than `read_cost` bytes apart.
template <typename F>
void for_each_page_run(const WindowPlan& plan, const Window& w, uint32_t bytes_per_edge, uint64_t read_cost, F f) {
  uint64_t from = 0, to = 0;  // the pending run of pages
  for (uint64_t r = w.first_run; r < w.last_run; ++r) {
    const uint64_t b = page_floor(plan.runs[r].begin * bytes_per_edge);
    const uint64_t e = page_ceil(plan.runs[r].end * bytes_per_edge);
    if (b <= to + read_cost && to > from) {
      to = std::max(to, e);
      continue;
    }
    if (to > from) f(from, to);
    from = b;
    to = e;
  }
  if (to > from) f(from, to);
}

// What reading the plan's windows outside `resident` costs, in bytes with
// `read_cost` a read (the resident windows are in memory once read).
inline uint64_t read_cost_bytes(const WindowPlan& plan, uint32_t bytes_per_edge, ResidentRange resident,
                                uint64_t read_cost) {
  uint64_t cost = 0;
  for (const Window& w : plan.windows)
    if (!resident.holds(w))
      for_each_page_run(plan, w, bytes_per_edge, read_cost,
                        [&](uint64_t from, uint64_t to) { cost += to - from + read_cost; });
  return cost;
}

}  // namespace tg::paged
