// What a run of an algorithm reads, estimated before it runs from the
// graph's size and the algorithm's known behaviour: edge entries, lists
// started, random vertex reads and steps. The estimates are rules of thumb,
// stated in `basis` so the plan can say what it assumed; docs/PLANNER.md
// compares them with measured runs.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engines/direction.h"
#include "engines/gpu_footprint.h"
#include "engines/run.h"
#include "graph/graph.h"

namespace tg::planner {

// The sizes a placement goes by (engines/gpu_footprint.h), the vertices
// with edges, which the work estimates count, and how the reads of vertex
// values spread over the vertices: a vertex's value is read once for each
// entry that names it, so about as often as its degree, and the hottest
// values are those of the highest degrees.
struct GraphFacts : GraphSize {
  uint64_t vertices_with_edges = 0;
  // (k, share of all entries in the lists of the k vertices of highest
  // degree) at k = 1, 2, 4, ... and the vertex count; empty: unknown.
  std::vector<std::pair<double, double>> top_degree_shares;
  // The share of vertex reads that land on the `k` hottest vertices:
  // interpolated between the points above, k / vertices where unknown.
  double share_of_top(double k) const;
  // The in-lists' bytes packed (graph/packed_lists.h), as the streamed
  // placements' gathers copy them, estimated from a sample of the lists;
  // 0 where they do not pack (8-byte ids, 2^27 vertices or more) or unknown.
  uint64_t packed_in_bytes = 0;
  // The out-lists' ids packed, as the subgraph placement's pushes copy them,
  // and whether every weight fits a byte beside them (whole numbers 0..255);
  // 0 / false where they do not pack or unknown (records before them).
  uint64_t packed_out_bytes = 0;
  bool byte_weights = false;
  // The bytes a pushed entry crosses the link in on the subgraph placement
  // (packed, with byte weights where `weights`), or 0 where its lists cross plain.
  double packed_out_entry_bytes(bool weights) const;
  // Ids by non-increasing out-degree (graph/relabel.h; convert --vertex-order
  // degree): the hottest values lie side by side, at the front of an array.
  bool numbered_by_degree = false;
};
GraphFacts facts_of(const AnyGraph& graph);

struct Work {
  double entries = 0;       // edge-list entries read over the run (an id, and a weight where read)
  double lists = 0;         // lists started (each a scattered start where the frontier is sparse)
  double vertex_reads = 0;  // random reads of vertex values
  double forest_links = 0;  // CC's links (core/forest.h), at the profile's measured link rate
  double value_bytes = 8;   // per vertex of the array those reads land in (their footprint: vertices x this)
  // Bytes read at random beside the values, which share the caches with
  // them (CC's sampled entries: half a sector a list); they widen the footprint
  // the values' cold reads are taken at.
  double beside_bytes = 0;
  bool follows_degrees = true;  // the reads land on a vertex as often as its degree (the hubs' values cached)
  // Every vertex read at the rate of the profile's smallest footprint, the
  // colder ones too (hubs first, SSSP's relaxations and PageRank's gathers:
  // work_model.cc).
  bool reads_at_cache_rate = false;
  // Accesses at the smallest footprint's rate whatever the footprint: a
  // relaxation's atomic on the sector its read has just brought in.
  double cache_reads = 0;
  // A gather whose lists lie in GPU memory, over ids numbered hubs first,
  // holds this many of the hottest values in its clusters' shared memory
  // (engines/gpu/staged_values.h): their reads do not queue at the L2.
  double staged_values = 0;
  double steps = 0;         // engine steps (each at the profile's step overhead)
  double rounds = 0;        // level-synchronous rounds (BFS's levels), where they differ from the steps
  double streamed_share = 0.5;  // of the partitions that are not resident, the share a round copies (stream)
  // Where the engine narrows a picked bucket width (the subgraph placement's
  // SSSP, engines/engine.h ScalesBucketWidth): the entries and rounds there,
  // as shares of those above.
  double narrow_entries_share = 1;
  double narrow_rounds_share = 1;
  // SSSP on the subgraph placement, a picked width: the share of entries
  // under it, which the placement keeps apart as light lists where they fit
  // in GPU memory (docs/SUBWAY.md, "Light lists"), and the entries its heavy
  // rounds then read over the link (each reached list once); 0: no split.
  double light_share = 0;
  double split_entries = 0;
  // Of `entries`: those read by pulls that stop within a list's first
  // entries (bottom-up BFS, CC's sample), which a cache's heads serve; each
  // such probe reads `probe_length` entries, or 0 where it stops at the first
  // parent found (engines/edge_cache_plan.h, planner.cc).
  double probe_entries = 0;
  double probe_length = 0;
  double frontier_probes = 0;  // reads of a bitmap of the frontier (bottom-up probes): a footprint of vertices / 8 bytes
  // Bytes read in address order over every vertex, in GPU memory (a pull's
  // pass over each vertex's offsets and parent in BFS's bottom-up levels
  // where the lists lie in GPU memory; CC's passes on every placement).
  double vertex_pass_bytes = 0;
  // Where known (the expected BFS levels with a cache's H head entries a
  // list): the entries read past the heads, and the lists so read, in the
  // lists the cache does not hold whole.
  double entries_past_heads = -1;  // < 0: unknown
  double lists_past_heads = 0;
  bool dense = false;       // every step reads (nearly) all lists, in address order
  // Not dense, but most lists are read in the steps that read most of them
  // (a push-only BFS's big levels), side by side: half a line a list start
  // over the link rather than a request of its own.
  bool lists_side_by_side = false;
  // Each list read over the link a short request of its own, about a sector
  // (BFS's levels: the pulls read on a few entries past the cached heads).
  bool sector_a_list = false;
  double per = 1;           // the run's repeated unit (PageRank's iterations): predictions are also given per unit
  const char* per_name = "run";
  std::string basis;
};

// A forest link's time in random reads where the profile has no link rate:
// the labels of both ends, the chase to both roots and the compare-and-swap,
// retried where other links moved a root.
constexpr double kReadsPerForestLink = 10;
// SSSP's rounds a typical hop of the graph (work_model.cc's typical_hops).
constexpr double kSsspRoundsPerHop = 9.5;
// SSSP's rounds at the subgraph placement's narrowed width, split over light
// lists, a level of the expected BFS (work_model.cc).
constexpr double kNarrowSsspRoundsPerLevel = 10;
// Where it has one, a link at the profile's rate, calibrate's links over
// lists of random entries at the label array's footprint, times this: CC's
// linking of every edge of kron and urand at scales 24 and 25 on the H200
// (subgraph and stream, tests/planner/data/h200-2026-12-02.json) ran
// 1.07-1.54 times that rate (one outlier, urand:24 on subgraph, 2.6 beside
// 1.43 on stream). Why a real graph's links run faster is not known.
constexpr double kGraphLinksOverCalibrated = 1.35;

// `can_pull`: the placement pulls (bottom-up BFS, CC's sampled form on an
// undirected graph); subgraph and stream push only. `over_link`: its pulls
// read lists over the link (engines/direction.h weighs their bytes).
// `link_heads`: the head entries of every list a cache holds in GPU memory;
// `whole_lists`: the lists of highest degree it holds whole.
Work estimate_work(const RunRequest& request, const GraphFacts& graph, bool can_pull, bool over_link = false,
                   int link_heads = 0, double whole_lists = 0);

// The entries a pull reads of a list of `degree` sorted hubs first until a
// frontier neighbour: its entries fall in the degree classes by their shares
// of the edge ends (`end_shares`, summing to `m`), highest degree first, and
// an entry of class j is in the frontier with probability `in_frontier`[j].
double sorted_probes(double degree, const std::vector<double>& end_shares, const std::vector<double>& in_frontier,
                     double m);

// A level of a direction-optimizing BFS as expected from the degrees, edges
// at random between them (the configuration model), each level's direction
// chosen by the engines' own policy (engines/direction.h): its frontier, and
// the entries and lists it reads (a push: the frontier's lists; a pull: each
// unvisited vertex's list up to its first frontier neighbour).
struct BfsLevel {
  bool pull = false;
  double frontier = 0, entries = 0, lists = 0;
  // The lists and entries read past the first `link_heads` of each list.
  double lists_past_heads = 0, entries_past_heads = 0;
};
// The entries and lists past the heads leave out the `whole_lists` of
// highest degree, which a cache holds whole.
std::vector<BfsLevel> expected_bfs_levels(const GraphFacts& graph, bool over_link, int link_heads = 0,
                                          double whole_lists = 0);
// The levels of `sources` runs from sources drawn as bench draws them (a
// vertex with edges at random), each small level's far ends drawn one by
// one, with a fixed seed (a plan is the same every time). One expected
// trajectory (above) spreads the source over the degree classes before the
// engine chooses each level's direction, which a run from a hub and a run
// from a leaf make differently; their mean does not.
constexpr int kBfsDrawnSources = 256;
constexpr uint64_t kBfsDrawSeed = 0x7467706c616e;
std::vector<std::vector<BfsLevel>> drawn_bfs_levels(const GraphFacts& graph, bool over_link, int link_heads,
                                                    double whole_lists, int sources);

}  // namespace tg::planner
