#include "distributed/slot_index.h"

#include <string>

#include "core/error.h"

namespace tg::dist {

SlotIndex make_slot_index(std::span<const uint32_t> local_of_slot) {
  const uint64_t slots = local_of_slot.size(), words = (slots + 31) / 32;
  SlotIndex index;
  index.delegate_bits.assign(words, 0);
  index.first_local.assign(words, 0);
#pragma omp parallel for schedule(static) if (words > (uint64_t{1} << 14))
  for (uint64_t w = 0; w < words; ++w) {
    uint32_t bits = 0;
    for (uint64_t i = 0; i < 32; ++i) {
      const uint64_t s = w * 32 + i;
      if (s >= slots || local_of_slot[s] == kNoLocalId) bits |= 1u << i;
    }
    index.delegate_bits[w] = bits;
  }
  uint64_t normals = 0;
  for (uint64_t w = 0; w < words; ++w) {
    index.first_local[w] = static_cast<uint32_t>(normals);
    normals += count_ones(~index.delegate_bits[w]);
  }
  // The index holds only where local ids ascend with the slots, densely.
  bool dense = true;
#pragma omp parallel for schedule(static) reduction(&& : dense) if (words > (uint64_t{1} << 14))
  for (uint64_t s = 0; s < slots; ++s) dense = dense && local_of(index.view(), s) == local_of_slot[s];
  if (!dense) throw Error("slot index: local ids do not ascend densely with the slots (a bug in the partition)");
  return index;
}

}  // namespace tg::dist
