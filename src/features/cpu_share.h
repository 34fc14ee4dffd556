// A gather's rows shared between the GPU and the CPU (issue 11, part 1).
//
// Scattered zero-copy reads of a large host table are bounded by address
// translation, not by the link: each small row costs the GPU a translation
// (PLATFORM.md), so 128-512 B rows arrive at 59-85% of memcpy's rate even in
// address order. CPU threads translate through the host's huge pages at no
// such cost; what they gather into pinned memory crosses the link by the
// copy engine in large sequential copies. So part of each gather's host rows
// go that way while the kernel reads the rest, and the two together fill
// the link that either alone leaves short. This file is the plain C++ part:
// which rows go where, and the share kept balanced from measured rates
// (features/gpu/cpu_row_copier.h moves them).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "features/tier_place.h"

namespace tg::features {

// Where a gather's rows are read: positions [0, gpu_count) by the kernel as
// they stand; the tail [gpu_count, n) by the CPU where the row lives only
// in host memory (cpu_ids, in position order) and by the kernel where it
// has a copy in GPU memory (a hot row is not worth moving over the link).
struct CpuShareSplit {
  uint64_t gpu_count = 0;
  std::vector<int64_t> cpu_ids;
  // Each cpu_ids row's place in the output; empty where the whole tail is
  // host rows (cpu_ids[i] goes to gpu_count + i).
  std::vector<uint32_t> cpu_positions;
  std::vector<int64_t> tail_gpu_ids;  // the tail's rows in GPU memory, and their places
  std::vector<uint32_t> tail_gpu_positions;
};

// The last round(share * n) positions form the tail (share in [0, 1]).
// rank_of_row: one rank per row (empty: rank = row id) and bounds say which
// rows have copies in GPU memory (features/tier_place.h). n below 2^32.
CpuShareSplit split_for_cpu(std::span<const int64_t> ids, double share, std::span<const uint32_t> rank_of_row,
                            const TierBounds& bounds);

// Throws a usage error for a share that is NaN or above 1 (negative means
// balanced): the store's and GpuTiers' one check.
void check_cpu_share(double share);

// The CPU's share of the next gather: fixed, or (auto) the one that makes
// both sides finish together at the rates the last gathers measured.
class ShareBalance {
 public:
  static constexpr double kAuto = -1.0;
  // The first auto gathers' share, before any rate is measured, and the
  // bounds auto keeps to: a side never starves, so its rate stays known.
  static constexpr double kFirstAutoShare = 0.25, kLeast = 0.02, kMost = 0.9;

  // share: kAuto (or any negative), or a fixed share in [0, 1].
  explicit ShareBalance(double share);
  double share() const { return share_; }
  bool automatic() const { return automatic_; }
  // One gather's sides: rows each read and the time each took from the
  // gather's start to its last row in GPU memory. Auto moves the share
  // halfway to cpu_rate / (gpu_rate + cpu_rate); a fixed share stays.
  void measured(uint64_t gpu_rows, double gpu_ms, uint64_t cpu_rows, double cpu_ms);

 private:
  bool automatic_ = false;
  double share_ = 0.0;
};

}  // namespace tg::features
