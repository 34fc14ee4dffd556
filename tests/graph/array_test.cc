// core/array.h: Array's owned, viewed and reused storage, and the BlockCache
// that hands a freed vertex array's block to the next one of the same size.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/array.h"

namespace tg {
namespace {

constexpr size_t kLarge = (size_t{1} << 21) / sizeof(int32_t) + 5;  // over 2 MiB: cached when reused

TEST(Array, ReusedBlockComesBackForTheSameSize) {
  const int32_t* first;
  {
    Array<int32_t> a = Array<int32_t>::allocate_reused(kLarge);
    first = a.data();
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int32_t>(i);
  }
  Array<int32_t> b = Array<int32_t>::allocate_reused(kLarge);
  EXPECT_EQ(b.data(), first) << "the freed block is handed out again";
  EXPECT_EQ(b.size(), kLarge);
  // Storage only: the caller fills it (the CPU engine's make_array does).
  for (size_t i = 0; i < b.size(); ++i) b[i] = -1;
  EXPECT_EQ(b[kLarge - 1], -1);
}

TEST(Array, LiveArraysNeverShareABlock) {
  std::vector<Array<double>> live;
  for (int i = 0; i < 12; ++i) live.push_back(Array<double>::allocate_reused(kLarge));
  for (size_t i = 0; i < live.size(); ++i)
    for (size_t j = i + 1; j < live.size(); ++j) EXPECT_NE(live[i].data(), live[j].data());
  live.clear();  // more than the cache keeps: the oldest are freed
  Array<double> again = Array<double>::allocate_reused(kLarge);
  EXPECT_NE(again.data(), nullptr);
}

TEST(Array, SmallAndEmptyReusedArrays) {
  Array<float> small = Array<float>::allocate_reused(100);  // under 2 MiB: plain malloc
  small[99] = 1.5f;
  EXPECT_EQ(small[99], 1.5f);
  EXPECT_TRUE(Array<float>::allocate_reused(0).empty());
}

TEST(Array, CopiesShareStorageAndOutliveTheOriginal) {
  Array<int32_t> copy;
  {
    Array<int32_t> a = Array<int32_t>::allocate_reused(kLarge);
    a[7] = 42;
    copy = a;
  }
  EXPECT_EQ(copy[7], 42) << "the block stays with its last owner";
}

}  // namespace
}  // namespace tg
