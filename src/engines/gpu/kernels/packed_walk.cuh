// A warp's walk over one 1024-entry chunk of a packed list (graph/
// packed_lists.h), shared by the gathers over packed in-lists
// (gather_packed.cuh), the subgraph placement's decoding of packed
// out-lists into its edge buffers (subgraph/decode_packed.cuh) and the push
// over resident packed light lists (push_packed.cuh).
#pragma once

#include <cstdint>

#include "graph/packed_lists.h"

namespace tg::gpu::kernels {

// Chunk k of a list of `degree` entries packed at `list` (blocks 32k ..
// 32k + 31): the warp's lanes read the chunk's headers and scan their gap
// words into each block's start, then take the blocks one after another,
// lane i decoding the block's entry i (lane 0 the header's first id, lane i > 0
// gap i - 1, added up by an inclusive scan). visit(entry, id, holds) runs in
// every lane for every block, together (it may shuffle or vote), `holds`
// false in a lane past the block's last entry (entry: the index in the
// list); every lane must call this (it shuffles).
template <typename Load, typename Visit>
__device__ inline void packed_chunk_walk_warp(const uint32_t* list, uint64_t degree, uint64_t k, int lane,
                                              Load&& load, Visit&& visit) {
  constexpr unsigned kAll = 0xffffffffu;
  constexpr int kLanes = kPackedBlock;
  const uint64_t blocks = packed_blocks(degree);
  const uint64_t chunk_words = packed_chunk_words(degree);
  const uint32_t* headers = list + chunk_words;
  const uint32_t* gaps = headers + blocks + (chunk_words > 0 ? load(list + k) : 0);
  const uint64_t first_block = k * (kPackedChunk / kPackedBlock);
  const uint64_t left = blocks - first_block;
  const int count = static_cast<int>(left < kLanes ? left : kLanes);
  uint32_t header = 0, entries = 0, words = 0;
  if (lane < count) {
    header = load(headers + first_block + lane);
    entries = packed_block_entries(degree, first_block + lane);
    words = packed_gap_words(entries, packed_width(header));
  }
  uint32_t end = words;  // inclusive scan of the blocks' gap words
  for (int o = 1; o < kLanes; o <<= 1) {
    const uint32_t y = __shfl_up_sync(kAll, end, o);
    if (lane >= o) end += y;
  }
  const uint32_t start = end - words;
  for (int j = 0; j < count; ++j) {
    const uint32_t h = __shfl_sync(kAll, header, j);
    const uint32_t n = __shfl_sync(kAll, entries, j);
    const uint32_t at = __shfl_sync(kAll, start, j);
    uint32_t id = 0;
    if (lane == 0) id = packed_first(h);
    else if (lane < static_cast<int>(n)) id = packed_gap(gaps + at, lane - 1, packed_width(h));
    for (int o = 1; o < kLanes; o <<= 1) {
      const uint32_t y = __shfl_up_sync(kAll, id, o);
      if (lane >= o) id += y;
    }
    visit((first_block + j) * kPackedBlock + lane, id, lane < static_cast<int>(n));
  }
}

// The same, visit(entry, id) run only in the lanes that hold an entry.
template <typename Load, typename Visit>
__device__ inline void packed_chunk_walk(const uint32_t* list, uint64_t degree, uint64_t k, int lane, Load&& load,
                                         Visit&& visit) {
  packed_chunk_walk_warp(list, degree, k, lane, load, [&](uint64_t entry, uint32_t id, bool holds) {
    if (holds) visit(entry, id);
  });
}

}  // namespace tg::gpu::kernels
