// Which in-edges a node draws when sampled (sampling/neighbor_sampler.h):
// one definition for the CPU sampler and the GPU one, so both take exactly
// the same edges for a (seed, hop, node), whatever runs them.
#pragma once

#include <cstdint>

#include "core/hash.h"
#include "core/types.h"

namespace tg::sampling {

// The k-th draw for (seed, hop, node): uniform in [0, n) by a multiply-shift
// of a 64-bit hash (bias below 2^-32 for any degree here).
TG_HD uint64_t draw(uint64_t seed, int hop, uint64_t node, uint64_t k, uint64_t n) {
  const uint64_t h = mix64(mix64(mix64(seed ^ 0x9e3779b97f4a7c15ULL) + static_cast<uint64_t>(hop)) + node) + k;
#ifdef __CUDA_ARCH__
  return __umul64hi(mix64(h), n);
#else
  return static_cast<uint64_t>((static_cast<unsigned __int128>(mix64(h)) * n) >> 64);
#endif
}

// How many in-edges a node of `degree` takes: all of them for fanout -1 or,
// without replacement, a fanout of at least the degree; none without any.
TG_HD uint64_t draws_for(uint64_t degree, int fanout, bool replace) {
  if (degree == 0) return 0;
  if (fanout < 0 || (!replace && static_cast<uint64_t>(fanout) >= degree)) return degree;
  return static_cast<uint64_t>(fanout);
}

// Writes the draws_for(...) positions (0..degree-1) of the node's in-edges to
// take into picked, in list order. Without replacement, Floyd's algorithm:
// fanout distinct positions in fanout draws, without touching the other
// positions (hubs have millions); fanouts are small, so the membership test
// and the sort are quadratic loops over `picked` itself. Where that square
// would outgrow a pass over the list (a fanout of 30000 from a hub of 65 K
// in-edges took 1.1 s, 10^6 from kron:24's hubs would take hours), selection
// sampling instead (Knuth's algorithm S): each position in turn taken with
// probability needed / remaining, one draw a position, in order. Fanouts up
// to 256 keep Floyd's draws whatever the degree.
TG_HD bool select_in_one_pass(uint64_t degree, uint64_t count) { return count > 256 && count * count > 8 * degree; }

TG_HD uint64_t choose_positions(uint64_t degree, int fanout, bool replace, uint64_t seed, int hop, uint64_t node,
                                uint64_t* picked) {
  const uint64_t count = draws_for(degree, fanout, replace);
  if (count == degree && !(replace && fanout >= 0)) {
    for (uint64_t i = 0; i < degree; ++i) picked[i] = i;
    return count;
  }
  if (replace) {
    for (uint64_t i = 0; i < count; ++i) picked[i] = draw(seed, hop, node, i, degree);
    return count;
  }
  uint64_t m = 0;
  if (select_in_one_pass(degree, count)) {
    for (uint64_t i = 0; i < degree && m < count; ++i)
      if (draw(seed, hop, node, i, degree - i) < count - m) picked[m++] = i;
    return m;
  }
  for (uint64_t j = degree - count; j < degree; ++j) {
    const uint64_t t = draw(seed, hop, node, j, j + 1);
    bool seen = false;
    for (uint64_t i = 0; i < m && !seen; ++i) seen = picked[i] == t;
    picked[m++] = seen ? j : t;
  }
  for (uint64_t i = 1; i < m; ++i)  // insertion sort: the order of the node's list, not of the draws
    for (uint64_t j = i; j > 0 && picked[j - 1] > picked[j]; --j) {
      const uint64_t x = picked[j];
      picked[j] = picked[j - 1];
      picked[j - 1] = x;
    }
  return m;
}

}  // namespace tg::sampling
