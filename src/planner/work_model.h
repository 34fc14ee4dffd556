// What a run of an algorithm reads, estimated before it runs from the
// graph's size and the algorithm's known behaviour: edge entries, lists
// started, random vertex reads and steps. The estimates are rules of thumb,
// stated in `basis` so the plan can say what it assumed; docs/PLANNER.md
// compares them with measured runs.
#pragma once

#include <cstdint>
#include <string>

#include "engines/gpu_footprint.h"
#include "engines/run.h"
#include "graph/graph.h"

namespace tg::planner {

// The sizes a placement goes by (engines/gpu_footprint.h) and the vertices
// with edges, which the work estimates count.
struct GraphFacts : GraphSize {
  uint64_t vertices_with_edges = 0;
};
GraphFacts facts_of(const AnyGraph& graph);

struct Work {
  double entries = 0;       // edge-list entries read over the run (an id, and a weight where read)
  double lists = 0;         // lists started (each a scattered start where the frontier is sparse)
  double vertex_reads = 0;  // random reads of vertex values
  double value_bytes = 8;   // per vertex of the array those reads land in (their footprint: vertices x this)
  double steps = 0;         // engine steps
  // Of `entries`: those read by pulls that stop within a list's first
  // entries (bottom-up BFS, CC's sample), which a cache's heads serve; each
  // such probe reads `probe_length` entries, or 0 where it stops at the first
  // parent found (engines/edge_cache_plan.h, planner.cc).
  double probe_entries = 0;
  double probe_length = 0;
  bool dense = false;       // every step reads (nearly) all lists, in address order
  double per = 1;           // the run's repeated unit (PageRank's iterations): predictions are also given per unit
  const char* per_name = "run";
  std::string basis;
};

// `can_pull`: the placement pulls (bottom-up BFS, CC's sampled form on an
// undirected graph); subgraph and stream push only.
Work estimate_work(const RunRequest& request, const GraphFacts& graph, bool can_pull);

}  // namespace tg::planner
