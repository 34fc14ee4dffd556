// A rank's owner slots (v / P for the vertices v it owns) and the local ids
// of its normal vertices among them, in 8 bytes per 32 slots where
// RankGraph::local_of_slot takes 128: a bit per slot that holds a delegate
// (or lies past the rank's last slot), and the local id of each 32-slot
// word's first normal. Local ids ascend with the slots (partition.h), so a
// slot's local id is its word's first plus the normals before it in the word.
//
// Why (the several-GPU BFS, rank_bfs.cu): a level that pulls the normals
// first marks every rank's visited normals as bits by slot, a pass that read
// local_of_slot and the depths, 8 bytes a slot (0.27-0.33 ms a level for 67 M
// slots on an H100); with this index it reads the depths and 1/4 byte a
// slot. Its 16 MB at kron:28 on 4 ranks also stay in the L2 cache where a
// received normal's lookup in local_of_slot (268 MB) went to memory.
// Host code builds it and CI tests it against local_of_slot; kernels read it
// through local_of() below.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"
#include "distributed/partition.h"

namespace tg::dist {

struct SlotIndexView {
  const uint32_t* delegate_bits = nullptr;  // bit s % 32 of word s / 32: slot s holds no normal here
  const uint32_t* first_local = nullptr;    // per word: the local id of its first normal (the count before it)
};

TG_HD uint32_t count_ones(uint32_t x) {
#ifdef __CUDA_ARCH__
  return static_cast<uint32_t>(__popc(x));
#else
  return static_cast<uint32_t>(__builtin_popcount(x));
#endif
}

// The local id of `slot`'s normal, or kNoLocalId where it holds a delegate.
TG_HD uint32_t local_of(const SlotIndexView& index, uint64_t slot) {
  const uint64_t w = slot / 32;
  const uint32_t bit = 1u << (slot % 32), delegates = index.delegate_bits[w];
  if ((delegates & bit) != 0) return kNoLocalId;
  return index.first_local[w] + count_ones(~delegates & (bit - 1u));
}

// The index of a rank's local_of_slot, in `words` = ceil(slots / 32) words of each.
struct SlotIndex {
  std::vector<uint32_t> delegate_bits, first_local;
  SlotIndexView view() const { return {delegate_bits.data(), first_local.data()}; }
};
SlotIndex make_slot_index(std::span<const uint32_t> local_of_slot);

}  // namespace tg::dist
