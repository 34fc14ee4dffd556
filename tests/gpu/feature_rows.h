// What the feature store's GPU tests share: random matrices at chosen
// distances from a page boundary, ids with repeats and the last row, and the
// check of a GpuTiers gather against the CPU gather, bit for bit (host
// outputs poisoned here, device outputs by TG_GPU_POISON).
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "features/cpu_gather.h"
#include "features/gpu_tiers.h"
#include "features/tier_plan.h"

namespace tg::test::gpu {

struct Matrix {
  std::vector<uint8_t> storage;
  const uint8_t* rows = nullptr;
  uint64_t num_rows = 0, row_bytes = 0;
  features::HostMatrix host() const { return {rows, num_rows, row_bytes, row_bytes}; }
};

// num_rows random rows `offset` bytes past a page boundary.
inline Matrix random_matrix(uint64_t num_rows, uint64_t row_bytes, uint64_t offset, std::mt19937_64& rng) {
  Matrix m;
  m.num_rows = num_rows;
  m.row_bytes = row_bytes;
  m.storage.resize(num_rows * row_bytes + offset + 4096);
  const uintptr_t base = reinterpret_cast<uintptr_t>(m.storage.data());
  uint8_t* rows = m.storage.data() + (4096 - base % 4096) % 4096 + offset;
  for (uint64_t i = 0; i < num_rows * row_bytes; ++i) rows[i] = static_cast<uint8_t>(rng());
  m.rows = rows;
  return m;
}

// Random ids with every fifth the last row and runs of one id repeated.
inline std::vector<int64_t> random_ids(uint64_t count, uint64_t num_rows, std::mt19937_64& rng) {
  std::vector<int64_t> ids(count);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i % 5 == 0) ids[i] = static_cast<int64_t>(num_rows - 1);
    else if (i % 11 < 3 && i > 0) ids[i] = ids[i - 1];
    else ids[i] = static_cast<int64_t>(rng() % num_rows);
  }
  return ids;
}

inline std::vector<double> random_scores(uint64_t n, std::mt19937_64& rng) {
  std::vector<double> scores(n);
  for (double& s : scores) s = static_cast<double>(rng() % 1000);
  return scores;
}

// Gathers of 1, 777 and 5000 ids (the last in address order: GpuTiers sorts
// from 4096) equal the CPU gather row for row; a failure names the row's tier.
inline void expect_gathers_equal_cpu(features::GpuTiers& tiers, const Matrix& m, const features::TierPlan& plan,
                                     std::mt19937_64& rng, const std::string& what) {
  for (uint64_t count : {uint64_t{1}, uint64_t{777}, uint64_t{5000}}) {
    const std::vector<int64_t> ids = random_ids(count, m.num_rows, rng);
    std::vector<uint8_t> expected(count * m.row_bytes, 0x5A), got(count * m.row_bytes, 0xA5);
    features::gather_rows_cpu(m.rows, m.row_bytes, m.row_bytes, ids, expected.data());
    tiers.gather_to_host(ids, got.data());
    for (size_t i = 0; i < ids.size(); ++i) {
      if (std::memcmp(got.data() + i * m.row_bytes, expected.data() + i * m.row_bytes, m.row_bytes) == 0) continue;
      const features::TierPlace p = plan.place_of_row(static_cast<uint64_t>(ids[i]));
      FAIL() << what << ": row " << i << " of " << count << " (id " << ids[i] << ", tier "
             << static_cast<int>(p.tier) << ", peer " << p.peer << ", slot " << p.slot << ") differs";
    }
  }
}

}  // namespace tg::test::gpu
