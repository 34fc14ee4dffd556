// Runs on a graph renumbered for locality (`--vertex-order degree`): the
// hubs first, so that the per-vertex values a gather or a push reads by
// neighbour (most of them a hub's) share a few cache lines, where the
// generator's permuted ids spread them over the whole array (kron:25 in GPU
// memory on the H100: PageRank 16.8 -> 9.6 ms an iteration, CC 12 -> 3.2 ms,
// SSSP 49 -> 37 ms; docs/PERF.md). Neither the engines nor the algorithms know: the caller
// renumbers the graph once, runs the requests with their sources renumbered,
// and puts every output back in the graph's own numbering, so reports,
// result files and the verifiers see the file's ids.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "engines/run.h"

namespace tg {

enum class VertexOrder { kAsLoaded, kDegree };
const std::vector<NamedChoice<VertexOrder>>& vertex_order_choices();  // "as-loaded", "degree"

struct Renumbering {
  AnyGraph graph;                // the renumbered graph
  std::vector<uint64_t> old_of;  // the graph's id of each new id
  std::vector<uint64_t> new_of;  // the new id of each of the graph's ids
  double seconds = 0;            // what renumbering took
};

// The graph renumbered by `order` (not kAsLoaded): graph/relabel.h's order
// and lists (sorted by new id, or by weight where they were), on the CPU's
// threads. (A GPU form, CUB's segmented sort of the lists, was slower on the
// H100 host: kron:25 unweighted 3.6-3.8 s against the CPU's 2.9-3.0 on 16
// cores, the copies each way its cost; removed, docs/PERF.md.)
Renumbering renumber(const AnyGraph& graph, VertexOrder order);

// A request's sources in the new numbering, and back.
RunRequest to_new_ids(RunRequest request, const Renumbering& r);
RunRequest to_old_ids(RunRequest request, const Renumbering& r);

// An output's values in the graph's own numbering: entry v of the result is
// the renumbered run's entry new_of[v]; values that are vertex ids (cc's
// labels, each its component's smallest id) become the smallest of the
// graph's ids among the vertices carrying that label.
void to_old_ids(RunOutput& output, const AlgorithmInfo& algorithm, const Renumbering& r);

// run(graph, request) on the renumbered graph, the request's sources
// renumbered, the output back in the graph's ids.
template <typename Run>
RunOutput run_renumbered(const Renumbering& r, const RunRequest& request, Run&& run) {
  RunOutput out = run(r.graph, to_new_ids(request, r));
  to_old_ids(out, *request.algorithm, r);
  return out;
}

}  // namespace tg
