#include "features/cpu_share.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"

namespace tg::features {

CpuShareSplit split_for_cpu(std::span<const int64_t> ids, double share, std::span<const uint32_t> rank_of_row,
                            const TierBounds& bounds) {
  const uint64_t n = ids.size();
  const double clamped = std::clamp(share, 0.0, 1.0);
  const auto tail = static_cast<uint64_t>(std::llround(clamped * static_cast<double>(n)));
  CpuShareSplit split;
  split.gpu_count = n - std::min(tail, n);
  const std::span<const int64_t> rest = ids.subspan(split.gpu_count);
  if (bounds.device_rows == 0) {  // every row lives in host memory only
    split.cpu_ids.assign(rest.begin(), rest.end());
    return split;
  }
  split.cpu_ids.reserve(rest.size());
  split.cpu_positions.reserve(rest.size());
  for (uint64_t i = 0; i < rest.size(); ++i) {
    const auto row = static_cast<uint64_t>(rest[i]);
    const uint64_t rank = rank_of_row.empty() ? row : rank_of_row[row];
    const auto position = static_cast<uint32_t>(split.gpu_count + i);
    if (place_of_rank(rank, bounds).tier == Tier::kHost) {
      split.cpu_ids.push_back(rest[i]);
      split.cpu_positions.push_back(position);
    } else {
      split.tail_gpu_ids.push_back(rest[i]);
      split.tail_gpu_positions.push_back(position);
    }
  }
  return split;
}

void check_cpu_share(double share) {
  if (std::isnan(share)) throw usage_error("cpu_share is NaN (a share in [0, 1]; negative: balanced)");
  if (share > 1.0) throw usage_error("cpu_share " + std::to_string(share) + " is above 1 (negative: balanced)");
}

ShareBalance::ShareBalance(double share)
    : automatic_(share < 0.0), share_(share < 0.0 ? kFirstAutoShare : std::clamp(share, 0.0, 1.0)) {}

void ShareBalance::measured(uint64_t gpu_rows, double gpu_ms, uint64_t cpu_rows, double cpu_ms) {
  if (!automatic_ || gpu_rows == 0 || cpu_rows == 0 || !(gpu_ms > 0.0) || !(cpu_ms > 0.0)) return;
  const double gpu_rate = static_cast<double>(gpu_rows) / gpu_ms, cpu_rate = static_cast<double>(cpu_rows) / cpu_ms;
  const double balanced = cpu_rate / (gpu_rate + cpu_rate);
  // Halfway: one gather's times are noisy (a training step beside it), and
  // the rates of the two sides move together where they share the link.
  share_ = std::clamp(0.5 * (share_ + balanced), kLeast, kMost);
}

}  // namespace tg::features
