// Packed neighbour lists: a CSR's lists in blocks of bit-packed gaps, for the
// placements that copy edges over the host-GPU link every iteration (stream,
// subgraph), whose PageRank is bound by the link's bytes (docs/PERF.md,
// "Fewer bytes over the link": kron:25's lists shrink 1.68x, urand:25's
// 1.38x). The GPU decodes a block of 32 entries a warp (kernels/
// gather_packed.cuh); this file is the format, the encoder and a reference
// decoder.
//
// A list of d sorted entries (sorted here where the CSR's are not; a gather
// sums in any order) has B = ceil(d / 32) blocks, block j holding entries
// 32j .. 32j + 31. From the list's first word:
//
//   [chunk table: C words]  C = ceil(B / 32) where d > 1024 (kPackedChunk), else 0;
//                           word c: where block 32c's gaps start, in words
//                           from the gap region's start
//   [headers: B words]      block j's first entry << 5 | w_j, w_j the bits of
//                           its largest gap (0..27)
//   [gap region]            each block's gaps (entry i minus entry i - 1, for
//                           i = 1 .. cnt - 1), w_j bits each from bit 0 of its
//                           first word, little-endian across words; a block
//                           takes ceil((cnt - 1) w_j / 32) words
//   [weights: ceil(d / 4)]  with byte weights only: entry i's weight in byte i,
//                           the list's last words (found from its end)
//
// Byte weights serve the pushes of weighted algorithms (SSSP, SSWP) on the
// subgraph placement, where every weight is a whole number from 0 to 255
// (GAP's 1..255): an entry then crosses the link in about 3.3 bytes on
// kron:25 where ids and float weights take 8.
//
// Headers first: a warp reads 32 headers in one load and scans the blocks'
// sizes into their starts, with no chain from one block to the next; the
// chunk table lets a warp start at any 1024-entry chunk of a hub's list, as
// the unpacked gather's chunks do. A header holds an id in 27 bits, so a graph
// packs where its ids are under 2^27 (kron:26 and smaller).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/array.h"
#include "core/types.h"
#include "graph/graph.h"

namespace tg {

constexpr int kPackedBlock = 32;           // entries a block
constexpr int kPackedChunk = 1024;         // entries a chunk (32 blocks); equals the GPU gather's chunk
constexpr int kPackedIdBits = 27;          // a header's id
constexpr uint64_t kPackedMaxVertices = uint64_t{1} << kPackedIdBits;

TG_HD uint32_t packed_header(uint32_t first, uint32_t width) { return first << 5 | width; }
TG_HD uint32_t packed_first(uint32_t header) { return header >> 5; }
TG_HD uint32_t packed_width(uint32_t header) { return header & 31u; }
TG_HD uint64_t packed_blocks(uint64_t degree) { return (degree + kPackedBlock - 1) / kPackedBlock; }
TG_HD uint64_t packed_chunk_words(uint64_t degree) {
  return degree > kPackedChunk ? (packed_blocks(degree) + kPackedChunk / kPackedBlock - 1) / (kPackedChunk / kPackedBlock)
                               : 0;
}
// Entries in block j of a list of `degree`.
TG_HD uint32_t packed_block_entries(uint64_t degree, uint64_t j) {
  const uint64_t left = degree - j * kPackedBlock;
  return static_cast<uint32_t>(left < kPackedBlock ? left : kPackedBlock);
}
// Words of a block's gaps: (entries - 1) gaps of `width` bits.
TG_HD uint32_t packed_gap_words(uint32_t entries, uint32_t width) { return ((entries - 1) * width + 31) / 32; }
// Gap k (the entry k + 1 minus entry k) of a block whose gaps start at `gaps`.
TG_HD uint32_t packed_gap(const uint32_t* gaps, uint32_t k, uint32_t width) {
  if (width == 0) return 0;
  const uint32_t bit = k * width, word = bit >> 5, shift = bit & 31;
  uint64_t x = gaps[word] >> shift;
  if (shift + width > 32) x |= static_cast<uint64_t>(gaps[word + 1]) << (32 - shift);
  return static_cast<uint32_t>(x) & ((1u << width) - 1);
}

TG_HD uint64_t packed_weight_words(uint64_t degree) { return (degree + 3) / 4; }
// Entry i's byte weight in a list of `list_words` words (its offsets' difference) and `degree` entries.
TG_HD uint32_t packed_weight(const uint32_t* list, uint64_t list_words, uint64_t degree, uint64_t i) {
  const uint32_t word = list[list_words - packed_weight_words(degree) + i / 4];
  return (word >> (8 * (i % 4))) & 0xffu;
}

// Every weight a whole number from 0 to 255 (and the CSR has weights).
bool weights_fit_bytes(const Csr<uint32_t>& csr);

// Where each vertex's packed list starts, in words (n + 1 entries, the last
// the total), for a CSR of 4-byte ids under 2^27, with byte weights when
// `with_weights` (weights_fit_bytes must hold). Throws tg::Error with one
// line for ids that do not fit.
std::vector<eid_t> packed_offsets(const Csr<uint32_t>& csr, uint64_t n, bool with_weights = false);
// Writes every list into `words` (packed_offsets(csr)[n] of them, each
// written once), in parallel over vertices; its weights as bytes where the
// offsets were counted with them.
void pack_lists(const Csr<uint32_t>& csr, uint64_t n, const std::vector<eid_t>& offsets, uint32_t* words,
                bool with_weights = false);
// The words packed_offsets(csr, n)[n] would give, estimated from every
// stride-th list (their words per entry, times all entries): the planner's
// view of a graph it has not packed. 0 where ids reach 2^27.
uint64_t estimate_packed_words(const Csr<uint32_t>& csr, uint64_t n, uint64_t stride);
// The reference decoder: the `degree` entries of the list packed at `list`, in order.
std::vector<uint32_t> unpack_list(const uint32_t* list, uint64_t degree);
// Its byte weights, in the same order (a list of `list_words` words packed with weights).
std::vector<uint32_t> unpack_weights(const uint32_t* list, uint64_t list_words, uint64_t degree);

// Both steps above into a fresh array (tests, and callers without pinned memory).
struct PackedCsr {
  std::vector<eid_t> offsets;  // offsets[n]: the words of every list (chunk tables, headers, gaps)
  Array<uint32_t> words;
  double build_s = 0;  // the encoder's time (sizes, then blocks)
};
PackedCsr pack_csr(const Csr<uint32_t>& csr, uint64_t n, bool with_weights = false);

}  // namespace tg
