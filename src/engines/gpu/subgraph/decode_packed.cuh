// The subgraph placement's pushes over packed out-lists (graph/
// packed_lists.h): a piece's lists cross the link packed (ids as bit-packed
// gaps, weights as bytes: about 3.3 bytes an entry on kron:25 against 8), are
// gathered over zero-copy into device scratch by gather_lists, and decoded
// here into the piece's edge buffers, ids and float weights at the plain
// sub-offsets, so that the push kernels run on them unchanged. Compiled by
// subcsr_builder.cu only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/types.h"
#include "engines/gpu/kernels/packed_walk.cuh"
#include "engines/gpu/subgraph/list_at.h"
#include "graph/packed_lists.h"

namespace tg::subgraph::kernels {

// A piece: active[first .. last) with plain sub-offsets sub[] (entries) and
// packed ones psub[] (words); list i lies at words[psub[i] - word_begin] and
// decodes to out[sub[i] - edge_begin ..].
struct DecodePackedArgs {
  const uint32_t* words = nullptr;  // device
  const eid_t* sub = nullptr;
  const eid_t* psub = nullptr;
  uint64_t first = 0, last = 0;
  eid_t edge_begin = 0, edge_end = 0, word_begin = 0;
  bool weights = false;
  uint32_t* out_ids = nullptr;
  weight_t* out_weights = nullptr;
};

// A thread per list of one block (at most 32 entries: a header, its gaps
// in order, then its weights).
__global__ void __launch_bounds__(256) decode_short_lists(DecodePackedArgs a) {
  for (uint64_t i = a.first + blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < a.last;
       i += uint64_t(gridDim.x) * blockDim.x) {
    const eid_t b = a.sub[i], d = a.sub[i + 1] - b;
    if (d == 0 || d > static_cast<eid_t>(kPackedBlock)) continue;
    const uint32_t* list = a.words + (a.psub[i] - a.word_begin);
    const uint32_t header = list[0], width = packed_width(header);
    uint32_t* ids = a.out_ids + (b - a.edge_begin);
    uint32_t id = packed_first(header);
    ids[0] = id;
    for (uint32_t j = 1; j < d; ++j) ids[j] = id += packed_gap(list + 1, j - 1, width);
    if (a.weights) {
      const eid_t words = a.psub[i + 1] - a.psub[i];
      weight_t* w = a.out_weights + (b - a.edge_begin);
      for (uint32_t j = 0; j < d; ++j) w[j] = static_cast<weight_t>(packed_weight(list, words, d, j));
    }
  }
}

// A warp per 1024 positions of the piece, decoding the longer lists that
// overlap them chunk by chunk (packed_walk.cuh), so that a hub's list is
// shared by many warps; each warp writes only its own positions.
__global__ void __launch_bounds__(256) decode_long_lists(DecodePackedArgs a) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (uint64_t(gridDim.x) * blockDim.x) >> 5;
  const uint64_t windows = (a.edge_end - a.edge_begin + kPackedChunk - 1) / kPackedChunk;
  for (uint64_t c = (blockIdx.x * uint64_t(blockDim.x) + threadIdx.x) >> 5; c < windows; c += warps) {
    const eid_t lo = a.edge_begin + c * kPackedChunk;
    const eid_t hi = lo + kPackedChunk < a.edge_end ? lo + kPackedChunk : a.edge_end;
    uint64_t l = a.first, h = a.last;  // the last i with sub[i] <= lo
    while (h - l > 1) {
      const uint64_t m = (l + h) / 2;
      if (a.sub[m] <= lo) l = m;
      else h = m;
    }
    uint64_t i = l;
    for (eid_t pos = lo; pos < hi;) {
      i = list_at(a.sub, i, a.last, pos);
      const eid_t b = a.sub[i], e = a.sub[i + 1], end = e < hi ? e : hi;
      const uint64_t d = e - b;
      if (d > static_cast<uint64_t>(kPackedBlock)) {
        const uint64_t from = pos - b, to = end - b;  // the list's entries in this window
        const uint32_t* list = a.words + (a.psub[i] - a.word_begin);
        const eid_t words = a.psub[i + 1] - a.psub[i];
        uint32_t* ids = a.out_ids + (b - a.edge_begin);
        weight_t* w = a.weights ? a.out_weights + (b - a.edge_begin) : nullptr;
        for (uint64_t k = from / kPackedChunk; k * kPackedChunk < to; ++k) {
          gpu::kernels::packed_chunk_walk(
              list, d, k, lane, [](const uint32_t* p) { return *p; },
              [&](uint64_t entry, uint32_t id) {
                if (entry < from || entry >= to) return;
                ids[entry] = id;
                if (w) w[entry] = static_cast<weight_t>(packed_weight(list, words, d, entry));
              });
        }
      }
      pos = end;
    }
  }
}

}  // namespace tg::subgraph::kernels
