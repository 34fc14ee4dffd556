// Where the GPU engine keeps the edges and how they travel, as typed choices
// with one name table each: the command line (CLI11 checks and --help),
// bench, reports and tests all read these tables, so a name exists once.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/named_choice.h"

namespace tg {

enum class Placement {
  kAuto,             // the planner's choice (planner/planner.h); without one, device when the edges fit, else zero-copy aligned
  kDevice,           // edges copied into GPU memory
  kUvm,              // managed memory, ReadMostly (EMOGI's baseline)
  kZeroCopyNaive,    // pinned host memory, a thread per list (EMOGI Listing 1)
  kZeroCopyMerged,   // pinned host memory, a warp per list
  kZeroCopyAligned,  // as merged, from the 128-byte line before the list (EMOGI Listing 2)
  kSubgraph,         // the active edges copied each iteration (Subway's SubCSR)
  kStream,           // partitions with active vertices copied each iteration
};

// Subway's partition streaming.
enum class StreamMode {
  kPt,     // copy every partition every iteration
  kPtOpt,  // skip inactive partitions, overlap copies, keep the first ones resident
};

// Who gathers the active lists of a SubCSR.
enum class GatherWay {
  kCpu,   // OpenMP threads into pinned staging, then cudaMemcpy
  kGpu,   // a kernel over zero-copy into device memory (faster on the H100, docs/PERF.md)
  kAuto,  // the cheaper estimate, per iteration
};

// Whether a zero-copy placement fills the GPU memory its budget leaves unused
// with a resident edge cache (docs/GPU.md, "The resident edge cache").
enum class EdgeCacheMode {
  kAuto,  // zero-copy placements: cache list heads and the longest lists within the budget
  kOff,   // every edge read over the link (as EMOGI)
};

// Whether the streamed placements (subgraph, stream) copy the in-lists of
// their gathers packed (graph/packed_lists.h): fewer bytes over the link, for
// a pass at placement time.
enum class PackedListsMode {
  kAuto,  // where they apply: 4-byte ids under 2^27, no weights placed, edges in host memory
  kOff,   // the plain lists
};

// How the device placement's gathers (PageRank's) read the in-edges.
enum class GatherLayout {
  kLists,   // a thread, eight lanes or a warp per in-list by its length (kernels/gather.cuh)
  kShards,  // Garaph's shards: a block per range of destinations, sums in shared memory (engines/shard_plan.h)
};

const std::vector<NamedChoice<Placement>>& placement_choices();
const std::vector<NamedChoice<StreamMode>>& stream_mode_choices();
const std::vector<NamedChoice<GatherWay>>& gather_way_choices();
const std::vector<NamedChoice<EdgeCacheMode>>& edge_cache_choices();
const std::vector<NamedChoice<PackedListsMode>>& packed_lists_choices();
const std::vector<NamedChoice<GatherLayout>>& gather_layout_choices();

std::string_view name_of(Placement p);
std::string_view name_of(StreamMode m);
std::string_view name_of(GatherWay g);
std::string_view name_of(EdgeCacheMode m);
std::string_view name_of(PackedListsMode m);
std::string_view name_of(GatherLayout l);
// nullopt for an unknown name; "zerocopy" is zerocopy-aligned.
std::optional<Placement> parse_placement(std::string_view name);
std::optional<StreamMode> parse_stream_mode(std::string_view name);
std::optional<GatherWay> parse_gather_way(std::string_view name);

// Whether the kernels read the edges over the link, in place (zero-copy).
inline bool is_zero_copy(Placement p) {
  return p == Placement::kZeroCopyNaive || p == Placement::kZeroCopyMerged || p == Placement::kZeroCopyAligned;
}

// Whether the placement keeps the edges in host memory and copies parts of
// them into device buffers each iteration (subgraph, stream).
inline bool is_streamed(Placement p) { return p == Placement::kSubgraph || p == Placement::kStream; }

}  // namespace tg
