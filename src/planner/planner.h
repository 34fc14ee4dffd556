// The planner (issue 13): from the graph's size, the budget, the algorithm's
// estimated work (work_model.h) and the machine's measured rates
// (machine_profile.h), the predicted time of each GPU placement, and the
// cheapest that fits. `tiergraph plan` prints it without running anything
// (no GPU needed); `--placement auto` runs it and records it in the run's
// JSON ("details.plan"). Within a run, the subgraph placement still chooses
// per iteration between its SubCSR and streaming partitions (Subway's rule).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engines/edge_cache_plan.h"
#include "engines/run.h"
#include "planner/machine_profile.h"
#include "planner/work_model.h"

namespace tg::planner {

struct Candidate {
  Placement placement = Placement::kDevice;
  bool fits = true;
  std::string why_not;    // where it does not fit
  double compute_s = 0;   // predicted, the run without the setup
  double setup_s = 0;     // predicted: copying or pinning the edges before the run
  double link_bytes = 0;  // host -> GPU during the run
  double hbm_bytes = 0;   // edge bytes read from GPU memory
  std::string basis;
};

struct Plan {
  Placement choice = Placement::kZeroCopyAligned;
  std::string reason;
  std::string algorithm;
  Work work;
  double cached_vertex_reads = 0;  // the share of the work's vertex reads a cache's worth of the hottest values serves
  uint64_t edge_bytes = 0;  // of the edge arrays the run reads
  uint64_t budget_bytes = 0;
  std::string profile;  // where the rates came from
  std::string profile_note;  // where the profile was measured on another GPU (machine_profile.h, profile_note)
  std::vector<Candidate> candidates;
  // What the predictions were made from besides the profile, recorded in the
  // JSON so that a plan can be made again without the graph (tests/planner's
  // records of measured runs): the graph's facts, and the zero-copy
  // placement's edge cache (its lists' vertices left out).
  GraphFacts graph;
  EdgeCachePlan zero_copy_cache;
  int streamed_heads = 0;  // the streamed placements' heads cache (streamed_heads_cache)

  const Candidate* chosen() const;
};

// `room`: the device memory left for edges beside the vertex data (the budget
// is min(budget, room) for the placements that hold all edges).
// `zero_copy_cache`: the resident edge cache a zero-copy placement would hold
// (zero_copy_cache_plan), or none; `streamed_heads`: the first entries of
// each list the streamed placements would keep in GPU memory
// (streamed_heads_cache), or 0.
Plan make_plan(const GraphFacts& graph, const RunRequest& request, uint64_t budget, uint64_t room,
               const MachineProfile& profile, const EdgeCachePlan* zero_copy_cache = nullptr, int streamed_heads = 0);

// The cache the GPU engine's zero-copy placement would build for `request`
// with this budget and free memory: the engine's own request and plan.
EdgeCachePlan zero_copy_cache_plan(const AnyGraph& graph, const RunRequest& request, uint64_t budget, uint64_t room,
                                   EdgeCacheMode mode);

// The heads the GPU engine's streamed placements would cache for `request`
// (engines/gpu_footprint.h): the engine's own rule.
int streamed_heads_cache(const GraphFacts& graph, const RunRequest& request, uint64_t budget, uint64_t room,
                         EdgeCacheMode mode);

nlohmann::json to_json(const Plan& plan);
// The graph's facts and the edge caches of a plan's JSON ("graph",
// "zero_copy_cache", "streamed_heads"), as make_plan takes them.
GraphFacts graph_facts_from_json(const nlohmann::json& plan);
EdgeCachePlan zero_copy_cache_from_json(const nlohmann::json& plan);
int streamed_heads_from_json(const nlohmann::json& plan);  // 0 in records made before the cache
std::string describe(const Plan& plan);  // a few lines and a table, for `tiergraph plan`

// GPU options whose auto placement is the planner's choice, made when the
// engine has measured the budget and the free memory; the plan lands in
// *plan (for the run's record), with a note where `profile` was measured on
// another GPU than `gpu`, the run's. Other placements are returned unchanged.
GpuOptions with_planner(const AnyGraph& graph, const RunRequest& request, GpuOptions options,
                        const MachineProfile& profile, const GpuIdentity& gpu, std::shared_ptr<Plan> plan);

}  // namespace tg::planner
