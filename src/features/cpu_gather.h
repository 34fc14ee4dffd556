// Gathering feature rows on the CPU: what GNN loaders do before copying to a
// GPU (DGL, PyG), and what a feature store does where no GPU is. Rows of any
// byte width; the element type only fixed the width.
#pragma once

#include <cstdint>
#include <span>

namespace tg::features {

// out[i * row_bytes ...] = the row_bytes bytes of row ids[i], rows being
// stride_bytes apart from `rows`. Ids must be rows (check_row_ids). OpenMP
// threads split the ids when there is enough to move.
void gather_rows_cpu(const uint8_t* rows, uint64_t row_bytes, uint64_t stride_bytes, std::span<const int64_t> ids,
                     uint8_t* out);

// Throws a usage error naming the first id that is negative or not below
// num_rows ("ids[3] = 12 is out of range: 10 rows").
void check_row_ids(std::span<const int64_t> ids, uint64_t num_rows);

}  // namespace tg::features
