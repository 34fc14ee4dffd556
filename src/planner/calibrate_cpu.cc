#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "graph/huge_pages.h"
#include "planner/calibrate.h"

namespace tg::planner {

// The threads copy lists of 16 ids (64 bytes, kron's mean degree) that start
// at random over a large array into one buffer, as a CPU gather of a
// sparse frontier's lists does (Subway's SubCSR, the hybrid engine's pages).
void calibrate_cpu(MachineProfile& profile, const CalibrateOptions& options) {
  const size_t words = (options.quick ? size_t{256} : size_t{1024}) << 18;  // 256 MiB or 1 GiB of 4-byte ids
  constexpr size_t kList = 16;
  Array<uint32_t> from = allocate_huge<uint32_t>(words);
  const size_t lists = words / kList / 4;  // a quarter of the array per pass
  Array<uint32_t> to = allocate_huge<uint32_t>(lists * kList);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < words; ++i) from[i] = static_cast<uint32_t>(i * 2654435761u);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < lists * kList; ++i) to[i] = 0;
  double best = 0;
  for (int round = 0; round < 3; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
    for (size_t l = 0; l < lists; ++l) {
      uint64_t h = (l + 1) * 0x9E3779B97F4A7C15ull + uint64_t(round);
      h ^= h >> 31;
      const size_t start = (h % (words / kList)) * kList;
      std::copy(from.data() + start, from.data() + start + kList, to.data() + l * kList);
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::max(best, double(lists * kList * 4) / s);
  }
  profile.cpu_gather = best;
  profile.cpu_threads = omp_get_max_threads();
  if (options.progress) options.progress("cpu gather of 64-byte lists: " + std::to_string(best / 1e9) + " GB/s");
}

}  // namespace tg::planner
