// How the ranks' level records combine into the run's levels
// (distributed/level_record.h): the slowest rank's times, the fastest's
// compute and communication, counts summed, what every rank holds alike from
// one; the same through the in-process communicator's allreduces as through
// the loop, as the two drivers use them.
#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "distributed/in_process_communicator.h"
#include "distributed/level_record.h"

namespace tg::dist {
namespace {

gpu::LevelRecord level(double base, uint64_t count, bool pulled) {
  gpu::LevelRecord l;
  l.compute_s = base;
  l.communication_s = base / 2;
  l.normals_s = base / 3;
  l.delegates_s = base / 4;
  l.visit_s = base / 5;
  l.settle_s = base / 6;
  l.normals_exchange_s = base / 7;
  l.delegates_exchange_s = base / 8;
  l.frontier_share_s = base / 9;
  l.host_read_s = base / 10;
  l.bytes_sent = count;
  l.normals_received = 2 * count;
  l.pulled = pulled;
  l.delegate_frontier_edges = 3 * count;
  l.host_bytes_read = 4 * count;
  l.delegate_frontier = 77;
  l.normals_pulled = true;
  l.normal_frontier_edges = 99;
  return l;
}

// Three ranks, two levels; rank 1 the slowest at level 0, rank 2 at level 1.
std::vector<std::vector<gpu::LevelRecord>> three_ranks() {
  return {{level(1.0, 10, false), level(2.0, 1, true)},
          {level(3.0, 20, true), level(1.0, 2, false)},
          {level(2.0, 30, true), level(4.0, 3, true)}};
}

void expect_combined(const std::vector<DistributedLevel>& got) {
  ASSERT_EQ(got.size(), 2u);
  EXPECT_DOUBLE_EQ(got[0].compute_s, 3.0);
  EXPECT_DOUBLE_EQ(got[0].communication_s, 1.5);
  EXPECT_DOUBLE_EQ(got[0].compute_min_s, 1.0);
  EXPECT_DOUBLE_EQ(got[0].communication_min_s, 0.5);
  EXPECT_DOUBLE_EQ(got[0].normals_s, 1.0);
  EXPECT_DOUBLE_EQ(got[0].delegates_s, 0.75);
  EXPECT_DOUBLE_EQ(got[0].visit_s, 0.6);
  EXPECT_DOUBLE_EQ(got[0].settle_s, 0.5);
  EXPECT_DOUBLE_EQ(got[0].normals_exchange_s, 3.0 / 7);
  EXPECT_DOUBLE_EQ(got[0].delegates_exchange_s, 3.0 / 8);
  EXPECT_DOUBLE_EQ(got[0].frontier_share_s, 3.0 / 9);
  EXPECT_DOUBLE_EQ(got[0].host_read_s, 0.3);
  EXPECT_EQ(got[0].bytes_exchanged, 60u);
  EXPECT_EQ(got[0].normals_exchanged, 120u);
  EXPECT_EQ(got[0].ranks_pulling, 2);
  EXPECT_EQ(got[0].delegate_frontier_edges, 180u);
  EXPECT_EQ(got[0].host_bytes_read, 240u);
  EXPECT_EQ(got[0].delegate_frontier, 77u);
  EXPECT_TRUE(got[0].normals_pulled);
  EXPECT_EQ(got[0].normal_frontier_edges, 99u);
  EXPECT_DOUBLE_EQ(got[1].compute_s, 4.0);
  EXPECT_DOUBLE_EQ(got[1].compute_min_s, 1.0);
  EXPECT_EQ(got[1].bytes_exchanged, 6u);
  EXPECT_EQ(got[1].ranks_pulling, 2);
}

TEST(LevelRecords, CombineByLoop) {
  const auto ranks = three_ranks();
  PackedLevels packed = pack_levels(ranks[0]);
  for (size_t r = 1; r < ranks.size(); ++r) reduce_levels(packed, pack_levels(ranks[r]));
  expect_combined(unpack_levels(packed, ranks[0]));
}

TEST(LevelRecords, CombineByAllreduce) {
  const auto ranks = three_ranks();
  std::vector<std::vector<DistributedLevel>> got(ranks.size());
  run_ranks(static_cast<int>(ranks.size()), [&](Communicator& host) {
    const int r = host.rank();
    PackedLevels packed = pack_levels(ranks[r]);
    host.allreduce(std::span<double>(packed.slowest), ReduceOp::kMax);
    host.allreduce(std::span<double>(packed.fastest), ReduceOp::kMin);
    host.allreduce(std::span<uint64_t>(packed.summed), ReduceOp::kSum);
    got[r] = unpack_levels(packed, ranks[r]);
  });
  for (const auto& g : got) expect_combined(g);
}

// A rank with fewer levels adds nothing past its last.
TEST(LevelRecords, ShorterRankAddsNothingBeyondItsLevels) {
  PackedLevels packed = pack_levels({level(1.0, 10, false), level(2.0, 5, false)});
  reduce_levels(packed, pack_levels({level(3.0, 1, true)}));
  const std::vector<DistributedLevel> got = unpack_levels(packed, {level(1.0, 10, false), level(2.0, 5, false)});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_DOUBLE_EQ(got[0].compute_s, 3.0);
  EXPECT_EQ(got[0].bytes_exchanged, 11u);
  EXPECT_DOUBLE_EQ(got[1].compute_s, 2.0);
  EXPECT_EQ(got[1].bytes_exchanged, 5u);
}

}  // namespace
}  // namespace tg::dist
