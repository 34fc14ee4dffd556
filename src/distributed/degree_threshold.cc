#include "distributed/degree_threshold.h"

#include <algorithm>
#include <cmath>

namespace tg::dist {

uint64_t count_delegates(const eid_t* out_offsets, uint64_t n, uint64_t threshold) {
  uint64_t count = 0;
#pragma omp parallel for schedule(static) reduction(+ : count) if (n > (uint64_t{1} << 16))
  for (uint64_t v = 0; v < n; ++v) count += out_offsets[v + 1] - out_offsets[v] > threshold;
  return count;
}

uint64_t scale_rule_threshold(uint64_t num_vertices) {
  if (num_vertices == 0) return 0;
  return static_cast<uint64_t>(std::llround(64.0 * std::sqrt(static_cast<double>(num_vertices) / 1073741824.0)));
}

uint64_t paper_degree_threshold(const eid_t* out_offsets, uint64_t n, int num_ranks, uint64_t max_delegates) {
  const uint64_t th = scale_rule_threshold(n);
  const uint64_t limit = std::min(4 * n / static_cast<uint64_t>(std::max(num_ranks, 1)), max_delegates);
  if (count_delegates(out_offsets, n, th) <= limit) return th;
  // The delegate count falls as TH rises: binary search for the smallest TH
  // within the limit, each probe one parallel pass over the degrees.
  uint64_t max_degree = 0;
#pragma omp parallel for schedule(static) reduction(max : max_degree) if (n > (uint64_t{1} << 16))
  for (uint64_t v = 0; v < n; ++v) max_degree = std::max<uint64_t>(max_degree, out_offsets[v + 1] - out_offsets[v]);
  uint64_t low = th + 1, high = std::max(max_degree, low);  // count(high) == 0 <= limit
  while (low < high) {
    const uint64_t mid = low + (high - low) / 2;
    if (count_delegates(out_offsets, n, mid) <= limit)
      high = mid;
    else
      low = mid + 1;
  }
  return low;
}

uint64_t default_degree_threshold(const eid_t* out_offsets, uint64_t n, int num_ranks, ThresholdRule rule,
                                  uint64_t max_delegates) {
  const uint64_t paper = paper_degree_threshold(out_offsets, n, num_ranks, max_delegates);
  if (rule == ThresholdRule::kPaper) return paper;
  const uint64_t ranks = static_cast<uint64_t>(std::max(num_ranks, 1)) * (rule == ThresholdRule::kScaledByTwiceRanks ? 2 : 1);
  return std::max(paper, scale_rule_threshold(n) * ranks);
}

}  // namespace tg::dist
