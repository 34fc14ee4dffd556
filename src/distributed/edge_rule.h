// DegreeSeparation as the partition's passes ask it, once or twice per edge
// of the graph (partition.cc's distributor, partition_summary.cc's counts).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "distributed/degree_separation.h"

namespace tg::dist {

// The separation as the passes over the edges ask it, once or twice per edge:
// a bit a vertex for "delegate" (n / 8 bytes, which stay in cache where the
// 8-byte offsets the degree is read from miss on nearly every neighbour) and
// the owner by a mask where P is a power of two, and a delegate's id counted
// from the bits. With dd_rank, which reads no degree, kron:23 over 4 ranks on
// 2 threads partitions in 2.8 s instead of 7.8-8.2 (docs/PERF.md).
class EdgeRule {
 public:
  EdgeRule(const DegreeSeparation& sep, uint64_t n)
      : p_(sep.num_ranks()), shift_(rank_shift_of(sep.num_ranks())), bits_((n + 63) / 64, 0), before_(bits_.size(), 0) {
    const int64_t words = static_cast<int64_t>(bits_.size());
#pragma omp parallel for schedule(static) if (words > 1024)
    for (int64_t w = 0; w < words; ++w) {
      uint64_t word = 0;
      const uint64_t first = static_cast<uint64_t>(w) * 64, last = std::min(first + 64, n);
      for (uint64_t v = first; v < last; ++v) word |= uint64_t{sep.is_delegate(v)} << (v - first);
      bits_[w] = word;
    }
    uint64_t count = 0;  // delegate_id holds while delegates number under 2^32: the partition checks first
    for (size_t w = 0; w < bits_.size(); ++w) {
      before_[w] = static_cast<uint32_t>(count);
      count += static_cast<uint64_t>(__builtin_popcountll(bits_[w]));
    }
  }
  bool is_delegate(uint64_t v) const { return (bits_[v >> 6] >> (v & 63)) & 1u; }
  // A delegate's id: the delegates below it (number_vertices numbers them in
  // id order), from the bits, where the id array is a random read of 4 bytes
  // a vertex.
  uint32_t delegate_id(uint64_t v) const {
    const uint64_t below = bits_[v >> 6] & ((uint64_t{1} << (v & 63)) - 1);
    return before_[v >> 6] + static_cast<uint32_t>(__builtin_popcountll(below));
  }
  int owner(uint64_t v) const { return static_cast<int>(rank_of(v, p_, shift_).owner); }
  // DegreeSeparation::place, from the bits.
  EdgePlace place(uint64_t u, uint64_t v) const {
    return DegreeSeparation::place_edge(u, v, p_, [this](uint64_t x) { return is_delegate(x); },
                                        [this](uint64_t x) { return owner(x); });
  }

 private:
  int p_, shift_;
  std::vector<uint64_t> bits_;
  std::vector<uint32_t> before_;  // delegates in the words before
};

}  // namespace tg::dist
