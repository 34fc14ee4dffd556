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
#include <vector>

#include "core/error.h"
#include "distributed/degree_separation.h"

namespace tg::dist {

// out[v] for every v < n: normal_values[q] is rank q's (its slots in order,
// the delegates' slots skipped), delegate_values[k] delegate k's, whose id is
// delegate_global[k] (ascending). In parallel over blocks of each rank's
// slots: a block's first value is found by how many of that rank's delegates
// lie below the block. (A thread per rank walking all its slots took a
// second a root at kron:30, and one thread for the delegates 0.3 s.)
template <typename T>
void values_by_global_id(uint64_t n, std::span<const uint64_t> delegate_global,
                         const std::vector<std::span<const T>>& normal_values, std::span<const T> delegate_values,
                         T* out) {
  const int p = static_cast<int>(normal_values.size());
  // Each rank's delegates as its slots, ascending (delegate_global ascends).
  std::vector<std::vector<uint64_t>> delegate_slots(p);
#pragma omp parallel for schedule(static, 1)
  for (int q = 0; q < p; ++q)
    for (uint64_t v : delegate_global)
      if (static_cast<int>(v % p) == q) delegate_slots[q].push_back(v / p);

  for (int q = 0; q < p; ++q)
    if (normal_values[q].size() != DegreeSeparation::slots_on_rank(n, p, q) - delegate_slots[q].size())
      throw Error("rank " + std::to_string(q) + " handed back " + std::to_string(normal_values[q].size()) +
                  " normal values for " +
                  std::to_string(DegreeSeparation::slots_on_rank(n, p, q) - delegate_slots[q].size()) + " vertices");
  if (delegate_values.size() != delegate_global.size())
    throw Error(std::to_string(delegate_values.size()) + " delegate values for " +
                std::to_string(delegate_global.size()) + " delegates");

  constexpr uint64_t kBlock = uint64_t{1} << 16;
  std::vector<uint64_t> first_block(p + 1, 0);  // rank q's blocks are [first_block[q], first_block[q + 1])
  for (int q = 0; q < p; ++q)
    first_block[q + 1] = first_block[q] + (DegreeSeparation::slots_on_rank(n, p, q) + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t b = 0; b < static_cast<int64_t>(first_block[p]); ++b) {
    const int q = static_cast<int>(std::upper_bound(first_block.begin(), first_block.end(), static_cast<uint64_t>(b)) -
                                   first_block.begin()) - 1;
    const uint64_t s0 = (static_cast<uint64_t>(b) - first_block[q]) * kBlock;
    const uint64_t s1 = std::min(s0 + kBlock, DegreeSeparation::slots_on_rank(n, p, q));
    const std::vector<uint64_t>& skip = delegate_slots[q];
    size_t k = std::lower_bound(skip.begin(), skip.end(), s0) - skip.begin();
    uint64_t at = s0 - k;  // rank q's normals below slot s0
    for (uint64_t s = s0; s < s1; ++s) {
      if (k < skip.size() && skip[k] == s) {
        ++k;
        continue;
      }
      out[s * p + q] = normal_values[q][at++];
    }
  }
  const int64_t d = static_cast<int64_t>(delegate_global.size());
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < d; ++k) out[delegate_global[k]] = delegate_values[k];
}

}  // namespace tg::dist
