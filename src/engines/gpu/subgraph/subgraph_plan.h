// Sizing and planning for the subgraph (Subway) and streaming placements:
// how many edges a byte budget holds, how the active part of a graph (a
// SubCSR) is cut into pieces that each fit one edge buffer, and how a whole
// CSR is cut into vertex-range partitions for streaming (PT, PT-Opt).
//
// Pure host logic, no CUDA: it builds and is tested without nvcc
// (tests/gpu_subgraph/). The device side (subcsr_builder.cuh,
// partition_streamer.cuh) executes these plans. See docs/SUBWAY.md.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/types.h"

namespace tg::subgraph {

// Bytes one edge takes in a buffer: its neighbour id and, when the algorithm
// reads them, its weight (kept in a second region of the same buffer).
struct EdgeEntry {
  uint32_t id_bytes = 4;  // sizeof(V)
  bool weights = false;
  uint64_t bytes() const { return id_bytes + (weights ? sizeof(weight_t) : 0); }
  bool operator==(const EdgeEntry&) const = default;
};

// Buffers hold a multiple of this many edges, so that the weights region,
// which follows the neighbour region, starts on a 256-byte boundary (64 x 4 B)
// and every warp read of a buffer is line-aligned. It is also the smallest
// buffer accepted: below it a piece is smaller than two warp loads and the
// run would be all launch overhead.
constexpr uint64_t kBufferGranule = 64;

// `buffers` equal edge buffers carved out of a byte budget.
struct BufferSizing {
  uint64_t buffers = 0;
  uint64_t capacity_edges = 0;  // edges one buffer holds
  EdgeEntry entry;
  uint64_t buffer_bytes() const { return capacity_edges * entry.bytes(); }
  uint64_t total_bytes() const { return buffers * buffer_bytes(); }
  // Byte offset of the weights region inside a buffer (256-byte aligned).
  uint64_t weights_offset() const { return capacity_edges * entry.id_bytes; }
};

// Splits `budget_bytes` into `buffers` buffers of the largest capacity that is
// a multiple of kBufferGranule. Throws tg::Error, naming `what` (the option
// that set the budget), when a buffer would hold fewer than kBufferGranule
// edges, or when `buffers` is 0.
BufferSizing size_buffers(uint64_t budget_bytes, EdgeEntry entry, uint64_t buffers, const std::string& what);

// A run of consecutive items (active vertices of a SubCSR, or vertices of a
// CSR) and the edges that hold their lists: [edge_begin, edge_end) of the edge
// array whose prefix sums were planned (the SubCSR's, or the CSR's own).
// A `split` range is one item, first + 1 == last, whose list alone exceeds a
// buffer: it covers part of that list, and the next split ranges cover the
// rest, in order.
struct EdgeRange {
  uint64_t first = 0;
  uint64_t last = 0;
  eid_t edge_begin = 0;
  eid_t edge_end = 0;
  bool split = false;

  uint64_t items() const { return last - first; }
  eid_t edges() const { return edge_end - edge_begin; }
  bool operator==(const EdgeRange&) const = default;
};

// Cuts items 0..count-1, whose lists are [prefix[i], prefix[i+1]) with
// prefix[0] == 0 (count + 1 non-decreasing entries), into consecutive ranges
// of at most `capacity_edges` edges, greedily: each range takes as many whole
// lists as fit (items without edges ride along with their neighbours); an item
// whose list exceeds the capacity gets ranges of its own, `split`, of exactly
// `capacity_edges` edges each but the last. Every item lands in exactly one
// range, or in the split ranges of its list. No items: no ranges; items but no
// edges: one range of all items and no edges. Throws tg::Error when
// capacity_edges is 0 or the prefix is malformed (empty, not starting at 0,
// decreasing).
std::vector<EdgeRange> plan_ranges(std::span<const eid_t> prefix, uint64_t capacity_edges);

// A SubCSR's pieces: `sub_offsets` is the exclusive scan of the active
// vertices' degrees (count + 1 entries, Subway's offset[]); items are indices
// into the sorted active list. Oversized SubCSRs (Subway section 3.1) become
// several pieces, loaded and processed one after another.
inline std::vector<EdgeRange> plan_pieces(std::span<const eid_t> sub_offsets, uint64_t capacity_edges) {
  return plan_ranges(sub_offsets, capacity_edges);
}

// A CSR's partitions for streaming: `offsets` is the CSR's own (n + 1
// entries); items are vertex ids and edge ranges are positions in the CSR's
// edge array. A vertex with more edges than a partition gets split partitions
// of its own (decided over an error: Kronecker graphs have vertices of
// degree 10^5-10^6, and a small budget must still run, only slower).
inline std::vector<EdgeRange> plan_partitions(std::span<const eid_t> offsets, uint64_t capacity_edges) {
  return plan_ranges(offsets, capacity_edges);
}

// The active vertices of each partition, as [lo, hi) indices into the sorted
// active list: those with first <= v < last. (A split partition of vertex v
// gets v's index, or an empty range when v is inactive.) The device version
// is a lower_bound kernel in partition_streamer.cu; this one is its reference.
template <typename V>
std::vector<std::pair<uint64_t, uint64_t>> active_ranges(std::span<const EdgeRange> partitions,
                                                         std::span<const V> sorted_active) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  out.reserve(partitions.size());
  auto lower = [&](uint64_t v) {
    return static_cast<uint64_t>(
        std::lower_bound(sorted_active.begin(), sorted_active.end(), v,
                         [](V a, uint64_t b) { return static_cast<uint64_t>(a) < b; }) -
        sorted_active.begin());
  };
  for (const EdgeRange& p : partitions) out.emplace_back(lower(p.first), lower(p.last));
  return out;
}

// "1.50 GiB", "512 B": sizes in error messages and reports.
std::string format_bytes(uint64_t bytes);

}  // namespace tg::subgraph
