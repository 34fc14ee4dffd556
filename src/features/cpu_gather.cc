#include "features/cpu_gather.h"

#include <cstring>
#include <string>

#include "core/error.h"

namespace tg::features {

void gather_rows_cpu(const uint8_t* rows, uint64_t row_bytes, uint64_t stride_bytes, std::span<const int64_t> ids,
                     uint8_t* out) {
  const int64_t n = static_cast<int64_t>(ids.size());
  // Below about 256 KiB, starting the team costs more than the copy.
  const bool parallel = static_cast<uint64_t>(n) * row_bytes >= (uint64_t{1} << 18);
#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(out + static_cast<uint64_t>(i) * row_bytes, rows + static_cast<uint64_t>(ids[i]) * stride_bytes,
                row_bytes);
}

void check_row_ids(std::span<const int64_t> ids, uint64_t num_rows) {
  // The common case, all in range, is one parallel pass with no branches
  // taken; only a failure looks for the first bad id.
  const int64_t n = static_cast<int64_t>(ids.size());
  bool bad = false;
#pragma omp parallel for schedule(static) reduction(|| : bad) if (n >= (int64_t{1} << 16))
  for (int64_t i = 0; i < n; ++i) bad = bad || ids[i] < 0 || static_cast<uint64_t>(ids[i]) >= num_rows;
  if (!bad) return;
  for (int64_t i = 0; i < n; ++i)
    if (ids[i] < 0 || static_cast<uint64_t>(ids[i]) >= num_rows)
      throw usage_error("ids[" + std::to_string(i) + "] = " + std::to_string(ids[i]) + " is " +
                        (ids[i] < 0 ? "negative" : "out of range") + ": the table has " + std::to_string(num_rows) +
                        " rows");
}

}  // namespace tg::features
