// The host side of SubCSR generation (Subway algorithm 3):
//  - reference versions of the GPU steps 1-5 (active list -> sub-offsets ->
//    the scattered sub-offsets the push kernel reads), used by the tests and
//    as the specification of the kernels in subcsr_builder.cu;
//  - step 6 on the CPU: OpenMP threads copy the active vertices' lists into a
//    staging buffer (pinned, on the engine's side), in address order, from
//    where one cudaMemcpyAsync moves them to the GPU.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"

namespace tg::subgraph {

// Steps 3-5 over a sorted active list: the exclusive scan of the active
// vertices' degrees, count + 1 entries (Subway's offset[]).
template <typename V>
std::vector<eid_t> sub_offsets_of(std::span<const eid_t> offsets, std::span<const V> active);

// The scattered form the push kernel reads (see work_unit.h): full[v] and
// full[v + 1] for every active v; `full` has n + 1 entries and its other
// entries are left as they are.
template <typename V>
void scatter_sub_offsets(std::span<const V> active, std::span<const eid_t> sub_offsets, std::span<eid_t> full);

// Edges per OpenMP work item: large enough to amortise the binary search
// that finds a work item's first vertex, small enough to balance threads when
// one list holds a million edges.
constexpr uint64_t kGatherChunkEdges = uint64_t{1} << 15;

// Step 6 on the CPU, for the edge range [edge_begin, edge_end) of the SubCSR
// (a whole SubCSR, a piece, or part of a piece): copies those edges of the
// active vertices' lists (neighbours, and weights when both `weights` and
// `out_weights` are non-null) into out_neighbors[0 .. edge_end - edge_begin)
// and out_weights likewise. Threads split the range by edges, not vertices,
// so a single huge list is copied by all of them. `offsets`, `neighbors` and
// `weights` are the full CSR in host memory; `active` is sorted; `sub_offsets`
// are its count + 1 sub-offsets.
template <typename V>
void gather_edges_cpu(const eid_t* offsets, const V* neighbors, const weight_t* weights, std::span<const V> active,
                      std::span<const eid_t> sub_offsets, eid_t edge_begin, eid_t edge_end, V* out_neighbors,
                      weight_t* out_weights, uint64_t chunk_edges = kGatherChunkEdges);

}  // namespace tg::subgraph
