// The CPU gather and the id checks (features/cpu_gather.h) against a plain
// loop, for element widths of 1 to 8 bytes and odd column counts, rows at
// unaligned offsets and strided tables; outputs poisoned first.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "features/cpu_gather.h"

namespace tg::test {
namespace {

std::vector<uint8_t> plain_gather(const uint8_t* rows, uint64_t row_bytes, uint64_t stride,
                                  const std::vector<int64_t>& ids) {
  std::vector<uint8_t> out;
  for (int64_t id : ids)
    for (uint64_t b = 0; b < row_bytes; ++b) out.push_back(rows[static_cast<uint64_t>(id) * stride + b]);
  return out;
}

TEST(CpuGather, CopiesTheRowsAPlainLoopCopies) {
  std::mt19937_64 rng(5);
  for (uint64_t element : {1, 2, 4, 8})
    for (uint64_t cols : {1, 3, 32, 37, 128, 1000})
      for (uint64_t offset : {0, 1, 6})
        for (uint64_t pad : {0, 5}) {
          const uint64_t rows = 97, row_bytes = element * cols, stride = row_bytes + pad;
          std::vector<uint8_t> storage(rows * stride + offset);
          for (uint8_t& b : storage) b = static_cast<uint8_t>(rng());
          const uint8_t* table = storage.data() + offset;
          // Random ids, each row at least once in some runs, the last row and repeats.
          std::vector<int64_t> ids(cols == 1000 ? 300 : 5000);
          for (size_t i = 0; i < ids.size(); ++i) ids[i] = i % 7 == 0 ? rows - 1 : static_cast<int64_t>(rng() % rows);
          std::vector<uint8_t> got(ids.size() * row_bytes, 0xA5);
          features::gather_rows_cpu(table, row_bytes, stride, ids, got.data());
          ASSERT_EQ(got, plain_gather(table, row_bytes, stride, ids))
              << element << " B x " << cols << ", offset " << offset << ", pad " << pad;
        }
}

TEST(CpuGather, NothingToGatherWritesNothing) {
  std::vector<uint8_t> table(16, 1), out(8, 0xA5);
  features::gather_rows_cpu(table.data(), 4, 4, {}, out.data());
  EXPECT_EQ(out, std::vector<uint8_t>(8, 0xA5));
}

std::string message_of(std::span<const int64_t> ids, uint64_t rows) {
  try {
    features::check_row_ids(ids, rows);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    return e.what();
  }
  return "";
}

TEST(CheckRowIds, NamesTheFirstBadId) {
  const std::vector<int64_t> good = {0, 9, 3, 3};
  EXPECT_EQ(message_of(good, 10), "");
  const std::vector<int64_t> high = {0, 10, -1};
  EXPECT_EQ(message_of(high, 10), "ids[1] = 10 is out of range: the table has 10 rows");
  const std::vector<int64_t> negative = {4, -3, 11};
  EXPECT_EQ(message_of(negative, 10), "ids[1] = -3 is negative: the table has 10 rows");
  EXPECT_EQ(message_of(good, 0), "ids[0] = 0 is out of range: the table has 0 rows");
  // Past the size where the check runs in parallel, the bad id near the end.
  std::vector<int64_t> many(200000, 1);
  many[199999] = 1 << 20;
  EXPECT_EQ(message_of(many, 10), "ids[199999] = 1048576 is out of range: the table has 10 rows");
}

}  // namespace
}  // namespace tg::test
