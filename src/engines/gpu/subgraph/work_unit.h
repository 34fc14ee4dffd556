// How a loaded SubCSR piece or partition is handed to the GPU engine's push
// kernel (kernels/push.cuh) without changing it.
//
// The push kernel, for each frontier vertex u, reads its list as
// neighbors[offsets[u] .. offsets[u + 1]). Three presentations satisfy that:
//
//  - SubCSR piece: `offsets` is the scattered sub-offsets array (n + 1
//    entries) that subcsr_builder writes: for every active u, offsets[u] is
//    where u's list starts in the SubCSR edge array and offsets[u + 1] where
//    it ends. Both can be stored in one array because the SubCSR holds the
//    active lists in vertex order: when u + 1 is active too, the end of u's
//    list is the start of u + 1's (the two writes agree), and when it is not,
//    nobody reads offsets[u + 1] as a start. This is Subway's step-4 subOffset[]
//    (section 3.1) before the step-5 compaction. `neighbors` is the piece's
//    device buffer shifted back by the piece's first edge position, so that
//    SubCSR positions index the buffer.
//  - Partition [v0, v1) with edges [e0, e1): `offsets` is the CSR's own,
//    `neighbors` the buffer shifted back by e0.
//  - Split range (part [e0, e1) of one vertex v's list): `offsets` is a
//    two-entry array {0, e1 - e0} shifted back by v, so offsets[v] = 0 and
//    offsets[v + 1] = e1 - e0; `neighbors` is the buffer itself.
//
// The shifted pointers point outside their arrays (below them); only entries
// inside the arrays are ever read. The frontier of a unit is a slice of the
// sorted active list. TG_HD so that the tests can emulate the kernel's reads.
#pragma once

#include <cstdint>

#include "core/types.h"
#include "engines/gpu/subgraph/subgraph_plan.h"

namespace tg::subgraph {

// One launch of the unchanged push kernel.
struct WorkUnit {
  uint64_t frontier_first = 0;  // slice of the sorted active list
  uint64_t frontier_count = 0;
  eid_t edge_begin = 0;  // edges in the buffer: positions [edge_begin, edge_end)
  eid_t edge_end = 0;    // of the SubCSR edge array, or of the CSR's
  bool split = false;    // part of one vertex's list (needs the 2-entry offsets)
  uint64_t split_vertex = 0;
};

// A SubCSR piece: items of `piece` index the sorted active list.
inline WorkUnit piece_unit(const EdgeRange& piece, uint64_t split_vertex) {
  return WorkUnit{piece.first, piece.items(), piece.edge_begin, piece.edge_end, piece.split, split_vertex};
}

// A partition, given the slice [lo, hi) of the sorted active list inside it
// (active_ranges in subgraph_plan.h).
inline WorkUnit partition_unit(const EdgeRange& partition, uint64_t lo, uint64_t hi) {
  return WorkUnit{lo, hi - lo, partition.edge_begin, partition.edge_end, partition.split, partition.first};
}

template <typename T>
TG_HD const T* shift_back(const T* p, uint64_t entries) {
  // Integer arithmetic: the result lies outside the array on purpose.
  return reinterpret_cast<const T*>(reinterpret_cast<uintptr_t>(p) - entries * sizeof(T));
}

// Fills the offsets / neighbors / weights of a CsrView-like `View` for `unit`.
//   offsets:       the scattered sub-offsets (pieces) or the CSR's offsets (partitions)
//   buffer:        where edge `unit.edge_begin` lies in device memory
//   weight_buffer: the same for weights, or null
//   split_offsets: two device entries {0, unit.edge_end - unit.edge_begin}, used when unit.split
template <typename View, typename V>
TG_HD void present_unit(View& view, const WorkUnit& unit, const eid_t* offsets, const V* buffer,
                        const weight_t* weight_buffer, const eid_t* split_offsets) {
  if (unit.split) {
    view.offsets = shift_back(split_offsets, unit.split_vertex);
    view.neighbors = buffer;
    view.weights = weight_buffer;
  } else {
    view.offsets = offsets;
    view.neighbors = shift_back(buffer, unit.edge_begin);
    view.weights = weight_buffer ? shift_back(weight_buffer, unit.edge_begin) : nullptr;
  }
}

// Vertex membership for asynchronous processing (Subway algorithm 4): which
// vertices of a push step's output have their lists in the loaded unit and
// can be processed again before the next unit is loaded.
//   SubCSR piece: v was active when the SubCSR was built (bit set in the
//   bitmap of the build) and lies between the piece's first and last vertex.
//   Partition: first <= v < last.
struct UnitMembers {
  const uint32_t* active_bits = nullptr;  // null for partitions
  uint64_t lo = 0;                        // first vertex of the unit
  uint64_t hi = 0;                        // one past its last vertex
  template <typename V>
  TG_HD bool operator()(V v) const {
    uint64_t x = static_cast<uint64_t>(v);
    if (x < lo || x >= hi) return false;
    return active_bits == nullptr || ((active_bits[x >> 5] >> (x & 31)) & 1u);
  }
};

}  // namespace tg::subgraph
