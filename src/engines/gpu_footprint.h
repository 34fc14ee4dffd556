// What a one-GPU placement of a graph holds in GPU memory for a run: which
// edge arrays and their bytes, and the vertex data beside them. The GPU
// engine sizes its placement with it (engines/gpu/placed_graph.cu), and the
// planner predicts with it, on machines without a GPU too (planner/).
#pragma once

#include <cstdint>

#include "algorithms/algorithm.h"
#include "engines/placement.h"
#include "graph/graph.h"

namespace tg {

// GPU memory held back from the default budget for the CUDA context, CUB's
// scratch and fragmentation.
constexpr uint64_t kGpuMemoryMargin = uint64_t{512} << 20;

// A graph's sizes, as far as placing it goes.
struct GraphSize {
  uint64_t vertices = 0;
  uint64_t edges = 0;  // stored out-edges (a directed graph's CSC holds as many)
  int id_bytes = 4;
  bool weighted = false;
  bool directed = false;
  bool in_edges = false;  // a directed graph's CSC is stored
};

template <typename V>
GraphSize size_of(const Graph<V>& g) {
  return {g.num_vertices, g.num_edges(), static_cast<int>(sizeof(V)), g.weighted(), g.directed,
          g.directed && g.in.built()};
}

// The share of a streamed placement's budget, in percent, that SSSP's light
// lists may take in GPU memory (engines/gpu/placed_graph.cu); past it they are
// not split off, since over the link a light round costs a request a list.
// Three quarters: urand:25's 673 MB of light lists in a 1.07 GB budget took
// 194.6 ms at 75 and 197.0 at 65 against 266.8 unsplit at 50 (H200, session
// 33); the edge buffers then do with the last quarter.
constexpr uint64_t kLightListsBudgetPercent = 75;

struct GpuFootprint {
  bool out_edges = false;    // the out-CSR is placed (an undirected graph's in-edges too)
  bool in_edges = false;     // the run reads in-edges: a directed graph's CSC, or the undirected out-CSR
  bool directed_in = false;  // a directed graph's CSC is placed
  bool weights = false;      // weights are placed beside the ids
  uint64_t entry_bytes = 0;  // of one edge entry placed: a vertex id, and a weight where placed
  uint64_t edge_bytes = 0;   // of the edge arrays placed
  uint64_t vertex_bytes = 0;  // offsets, values, frontiers, and a streamed placement's arrays
};

// `streamed`: subgraph or stream (or a planner that may choose them).
GpuFootprint gpu_footprint(const GraphSize& graph, const EdgeReads& reads, bool streamed);

// The GPU memory a placement's resident edge cache may fill
// (engines/edge_cache_plan.h): a zero-copy placement keeps no edge array in
// GPU memory, so the whole budget, within `room` (free memory less the
// vertex data and the margin), so that the cache never takes what the run
// needs; no other placement has a cache.
uint64_t edge_cache_budget(Placement placement, EdgeCacheMode mode, uint64_t budget, uint64_t room);

// The share of a streamed placement's budget, in percent, that its heads
// cache may take (streamed_heads_cache); the edge buffers do with the rest.
// Half: kron:25 and urand:25's two heads a list take 268 MB, a quarter of
// their quarter budget.
constexpr uint64_t kHeadsCacheBudgetPercent = 50;
// And it leaves the edge buffers at least this: their least is a few KiB (8
// slots of 64 entries of up to 12 bytes, twice where a run pushes and
// gathers: subgraph_plan.cc's size_buffers), which the tests' smallest
// budgets sit just above.
constexpr uint64_t kHeadsCacheLeavesAtLeast = uint64_t{32} << 10;

// The first entries of each list that a streamed placement (subgraph,
// stream) keeps in GPU memory for a run that pushes them alone
// (EdgeReads::pushed_heads: CC's sample on a symmetric graph), which its
// pushes then read from there instead of a request a list over the link
// (engines/gpu/sources/streamed_source.cuh). EdgeReads::pushed_heads where
// their planes (vertices x heads x entry bytes) fit kHeadsCacheBudgetPercent
// of the budget within `room` (and leave kHeadsCacheLeavesAtLeast), else 0:
// fewer heads would save nothing, since
// the rest of each list's first entries would still cost a request a list.
// 0 with --edge-cache off or on a directed graph (the engine also builds
// none where the edges stay in a file, --host-mem).
int streamed_heads_cache(const GraphSize& graph, const EdgeReads& reads, const GpuFootprint& footprint,
                         EdgeCacheMode mode, uint64_t budget, uint64_t room);
// The bytes of that cache: vertices x heads x entry bytes.
uint64_t heads_cache_bytes(const GraphSize& graph, const GpuFootprint& footprint, int heads);

}  // namespace tg
