// The ranks' values put back in global id order, for both several-GPU
// drivers (one process: distributed/gpu/multi_gpu_run.cu; one per GPU:
// rank_run.cu). Rank q's normal values come in its local order, which is its
// normal vertices' ids ascending: q, q + P, q + 2P, ... less the delegates
// (partition.h); every rank holds every delegate's value.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "distributed/degree_separation.h"

namespace tg::dist {

// What the gather needs of a partition, made once for it and used for every
// run: each rank's delegates as its slots, ascending (the slots its normal
// values skip). Made per run, one pass over every delegate per rank cost a
// run 75-210 ms on 2 threads at 2^26 vertices and 1 to 4 ranks.
class GlobalIdOrder {
 public:
  // delegate_global ascends (partition.h); it must outlive the order.
  GlobalIdOrder(uint64_t n, std::span<const uint64_t> delegate_global, int num_ranks)
      : n_(n), p_(num_ranks), delegate_global_(delegate_global), skip_(num_ranks) {
    // Two passes over blocks of the delegates: count each rank's in each
    // block, then fill each rank's list from its offset; ascending because
    // delegate_global ascends and the blocks are filled in order.
    const int shift = rank_shift_of(p_);
    const uint64_t d = delegate_global.size();
    const int64_t blocks = static_cast<int64_t>(std::min<uint64_t>((d + 65535) / 65536, 4096));
    std::vector<uint64_t> count(static_cast<size_t>(blocks) * p_, 0);  // [block][rank]
    auto range = [&](int64_t b) { return std::pair<uint64_t, uint64_t>(d * b / blocks, d * (b + 1) / blocks); };
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < blocks; ++b) {
      const auto [lo, hi] = range(b);
      for (uint64_t k = lo; k < hi; ++k) ++count[b * p_ + rank_of(delegate_global[k], p_, shift).owner];
    }
    for (int q = 0; q < p_; ++q) {
      uint64_t at = 0;
      for (int64_t b = 0; b < blocks; ++b) at += std::exchange(count[b * p_ + q], at);
      skip_[q].resize(at);
    }
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < blocks; ++b) {
      const auto [lo, hi] = range(b);
      uint64_t* next = &count[b * p_];
      for (uint64_t k = lo; k < hi; ++k) {
        const RankOf at = rank_of(delegate_global[k], p_, shift);
        skip_[at.owner][next[at.owner]++] = at.slot;
      }
    }
  }

  int num_ranks() const { return p_; }
  uint64_t num_vertices() const { return n_; }

  // out[v] for every v < n: normal_values[q] is rank q's (its slots in order,
  // the delegates' slots skipped), delegate_values[k] delegate k's. In
  // parallel over blocks of each rank's slots: a block's first value is
  // found by how many of that rank's delegates lie below the block.
  template <typename T>
  void gather(const std::vector<std::span<const T>>& normal_values, std::span<const T> delegate_values, T* out) const {
    if (static_cast<int>(normal_values.size()) != p_)
      throw Error(std::to_string(normal_values.size()) + " ranks' values for " + std::to_string(p_) + " ranks");
    for (int q = 0; q < p_; ++q)
      if (normal_values[q].size() != DegreeSeparation::slots_on_rank(n_, p_, q) - skip_[q].size())
        throw Error("rank " + std::to_string(q) + " handed back " + std::to_string(normal_values[q].size()) +
                    " normal values for " + std::to_string(DegreeSeparation::slots_on_rank(n_, p_, q) - skip_[q].size()) +
                    " vertices");
    if (delegate_values.size() != delegate_global_.size())
      throw Error(std::to_string(delegate_values.size()) + " delegate values for " +
                  std::to_string(delegate_global_.size()) + " delegates");

    constexpr uint64_t kBlock = uint64_t{1} << 16;
    std::vector<uint64_t> first_block(p_ + 1, 0);  // rank q's blocks are [first_block[q], first_block[q + 1])
    for (int q = 0; q < p_; ++q)
      first_block[q + 1] = first_block[q] + (DegreeSeparation::slots_on_rank(n_, p_, q) + kBlock - 1) / kBlock;
    const uint64_t p = static_cast<uint64_t>(p_);
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t b = 0; b < static_cast<int64_t>(first_block[p_]); ++b) {
      const int q = static_cast<int>(std::upper_bound(first_block.begin(), first_block.end(), static_cast<uint64_t>(b)) -
                                     first_block.begin()) - 1;
      const uint64_t s0 = (static_cast<uint64_t>(b) - first_block[q]) * kBlock;
      const uint64_t s1 = std::min(s0 + kBlock, DegreeSeparation::slots_on_rank(n_, p_, q));
      const std::vector<uint64_t>& skip = skip_[q];
      size_t k = std::lower_bound(skip.begin(), skip.end(), s0) - skip.begin();
      const T* from = normal_values[q].data() + (s0 - k);  // rank q's normals below slot s0
      // Runs of normal slots between the delegates' slots.
      for (uint64_t s = s0; s < s1;) {
        const uint64_t stop = k < skip.size() ? std::min(skip[k], s1) : s1;
        for (; s < stop; ++s) out[s * p + q] = *from++;
        if (s < s1) {  // s is a delegate's slot
          ++s;
          ++k;
        }
      }
    }
    const int64_t d = static_cast<int64_t>(delegate_global_.size());
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < d; ++k) out[delegate_global_[k]] = delegate_values[k];
  }

 private:
  uint64_t n_;
  int p_;
  std::span<const uint64_t> delegate_global_;
  std::vector<std::vector<uint64_t>> skip_;
};

// The same for one run (tests, callers with one run per partition).
template <typename T>
void values_by_global_id(uint64_t n, std::span<const uint64_t> delegate_global,
                         const std::vector<std::span<const T>>& normal_values, std::span<const T> delegate_values,
                         T* out) {
  GlobalIdOrder(n, delegate_global, static_cast<int>(normal_values.size())).gather(normal_values, delegate_values, out);
}

}  // namespace tg::dist
