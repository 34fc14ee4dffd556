// splitmix64's finalizer: a cheap bijective 64-bit mix with good avalanche.
// Counter-based randomness (generators, random weights) hashes (seed, index)
// with it, so results do not depend on thread count or order.
#pragma once

#include <cstdint>

#include "core/types.h"

namespace tg {

TG_HD uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

}  // namespace tg
