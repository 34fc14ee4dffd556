// The hubs' in-lists cut by source tile, for a dense gather in GPU memory
// (issue 13; docs/GPU.md, "Hub tiles").
//
// PageRank's gather reads one value per in-edge at its source. A hub's long
// in-list reads sources spread over every id: on kron:25 hubs first (H100),
// the chunk pass over lists longer than 1024 entries took 4.6 of 9.3 ms an
// iteration, a 32-byte L2 sector for each 4-byte value, 11% of them L1 hits
// (ncu, docs/PERF.md, session 20). Cut the sources into tiles whose values
// fit a block's shared memory (32 K floats), and read the hubs' lists tile by
// tile: a block copies tile t's values into shared memory once, then sums
// every hub's entries from t there. The entries stream from GPU memory in
// order, and the values are read from shared memory instead of the L2.
//
// The layout is a start per (tile, hub): where hub h's sorted list reaches
// tile t's sources (a binary search each, once per run). A hub's sum is the
// sum of its tiles' partial sums, in tile order, so the result does not
// depend on the threads' timing. Only lists longer than `above` are hubs:
// the other lists' entries per tile would be too few to pay for a start and
// a partial sum each (kron:24 hubs first: lists over 4096 entries hold 27%
// of the entries, 13 K lists, about 50 entries a tile of 32 K sources).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "engines/engine.h"
#include "engines/gpu/cuda_util.h"
#include "engines/gpu/hub_tile_rule.h"
#include "engines/gpu/kernels/step_args.h"

namespace tg::gpu {

// Whether an operator's gathers can run by tiles: its values one per source
// (engines/engine.h's source_values hint), no weights.
template <typename Op, typename V>
constexpr bool kGathersByTiles = GathersSourceValues<Op, V> && !Op::needs_weights;

template <typename V>
struct HubTileLayout {
  HubTileView<V> view;  // into the arrays below
  DeviceArray<V> ids;
  DeviceArray<eid_t> list_begin;
  DeviceArray<uint32_t> starts;
};

// The layout of the in-CSR `in` (n vertices) for values of `value_bytes`
// each, or null with the reason in *note: no list longer than shape.above,
// a hub's list not sorted or of 2^32 entries or more, or too little free GPU
// memory for the starts and a gather's partial sums (of `partial_bytes` each).
template <typename V>
std::unique_ptr<HubTileLayout<V>> build_hub_tiles(const CsrView<V>& in, uint64_t n, HubTileShape shape,
                                                  uint64_t value_bytes, uint64_t partial_bytes, int sms,
                                                  ScratchPool& pool, std::string* note);

}  // namespace tg::gpu
