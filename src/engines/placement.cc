#include "engines/placement.h"

namespace tg {

const std::vector<NamedChoice<Placement>>& placement_choices() {
  static const std::vector<NamedChoice<Placement>> all = {
      {Placement::kAuto, "auto", "the planner's choice: the placement predicted fastest (tiergraph plan shows it)"},
      {Placement::kDevice, "device", "edges copied into GPU memory"},
      {Placement::kUvm, "uvm", "edges in managed memory (ReadMostly), paged in on demand"},
      {Placement::kZeroCopyNaive, "zerocopy-naive", "edges read in place from pinned host memory, a thread per list"},
      {Placement::kZeroCopyMerged, "zerocopy-merged", "as naive, a warp per list"},
      {Placement::kZeroCopyAligned, "zerocopy-aligned", "as merged, each warp load on whole 128-byte lines"},
      {Placement::kSubgraph, "subgraph", "the active edges copied each iteration (Subway)"},
      {Placement::kStream, "stream", "partitions with active vertices copied each iteration"},
  };
  return all;
}

const std::vector<NamedChoice<StreamMode>>& stream_mode_choices() {
  static const std::vector<NamedChoice<StreamMode>> all = {
      {StreamMode::kPt, "pt", "copy every partition"},
      {StreamMode::kPtOpt, "pt-opt", "skip inactive partitions, overlap copies, keep the first ones resident"},
  };
  return all;
}

const std::vector<NamedChoice<GatherWay>>& gather_way_choices() {
  static const std::vector<NamedChoice<GatherWay>> all = {
      {GatherWay::kCpu, "cpu", "CPU threads gather the active lists"},
      {GatherWay::kGpu, "gpu", "a kernel gathers them over zero-copy"},
      {GatherWay::kAuto, "auto", "the cheaper estimate, per iteration"},
  };
  return all;
}

const std::vector<NamedChoice<EdgeCacheMode>>& edge_cache_choices() {
  static const std::vector<NamedChoice<EdgeCacheMode>> all = {
      {EdgeCacheMode::kAuto, "auto",
       "zero-copy placements keep the first in-neighbours of every vertex and the longest lists in the GPU memory "
       "the budget leaves unused"},
      {EdgeCacheMode::kOff, "off", "every edge read over the link"},
  };
  return all;
}

const std::vector<NamedChoice<PackedListsMode>>& packed_lists_choices() {
  static const std::vector<NamedChoice<PackedListsMode>> all = {
      {PackedListsMode::kAuto, "auto",
       "lists cross the link packed (blocks of bit-packed gaps) where ids fit 27 bits: subgraph and stream gathers' "
       "in-lists where no weights are placed, subgraph pushes' out-lists (weights as bytes where whole numbers 0..255)"},
      {PackedListsMode::kOff, "off", "the plain lists, 4 bytes an entry"},
  };
  return all;
}

const std::vector<NamedChoice<GatherLayout>>& gather_layout_choices() {
  static const std::vector<NamedChoice<GatherLayout>> all = {
      {GatherLayout::kLists, "lists", "a thread, eight lanes or a warp per in-list, by its length"},
      {GatherLayout::kShards, "shards",
       "Garaph's shards: a block per range of destinations sums in shared memory, R copies a destination by the "
       "range's mean in-degree (2 bytes of GPU memory an edge)"},
  };
  return all;
}

std::string_view name_of(Placement p) { return choice_name(placement_choices(), p); }
std::string_view name_of(StreamMode m) { return choice_name(stream_mode_choices(), m); }
std::string_view name_of(GatherWay g) { return choice_name(gather_way_choices(), g); }
std::string_view name_of(EdgeCacheMode m) { return choice_name(edge_cache_choices(), m); }
std::string_view name_of(PackedListsMode m) { return choice_name(packed_lists_choices(), m); }
std::string_view name_of(GatherLayout l) { return choice_name(gather_layout_choices(), l); }

std::optional<Placement> parse_placement(std::string_view name) {
  if (name == "zerocopy") return Placement::kZeroCopyAligned;
  return choice_value(placement_choices(), name);
}
std::optional<StreamMode> parse_stream_mode(std::string_view name) { return choice_value(stream_mode_choices(), name); }
std::optional<GatherWay> parse_gather_way(std::string_view name) { return choice_value(gather_way_choices(), name); }

}  // namespace tg
