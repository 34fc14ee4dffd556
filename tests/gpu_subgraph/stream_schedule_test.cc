// PT / PT-Opt: budget split and per-iteration schedules (stream_schedule.h).
#include "engines/gpu/subgraph/stream_schedule.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "core/error.h"
#include "subgraph_test_graphs.h"

namespace tg::subgraph {
namespace {

using testing::csr_with_degrees;
using testing::random_active;
using testing::skewed_degrees;
using Load = StreamStep::Load;
using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;

// Four partitions of 4 edges each: vertex v has 2 edges, 2 vertices per partition.
std::vector<EdgeRange> four_partitions() {
  std::vector<eid_t> offsets(9);
  for (int v = 0; v <= 8; ++v) offsets[v] = 2 * v;
  return plan_partitions(offsets, 4);
}

StreamConfig opt_config(uint64_t resident_edges, uint64_t staging = 2) {
  StreamConfig c;
  c.mode = StreamMode::kPtOpt;
  c.staging_buffers = staging;
  c.partition_edges = 4;
  c.resident_edges = resident_edges;
  return c;
}

TEST(StreamConfig, PtUsesTheWholeBudgetForOneBuffer) {
  StreamConfig c = stream_config(64 * 1000, EdgeEntry{4, false}, StreamMode::kPt, "--gpu-mem");
  EXPECT_EQ(c.staging_buffers, 1u);
  EXPECT_EQ(c.partition_edges, 16000u);
  EXPECT_EQ(c.resident_edges, 0u);
}

TEST(StreamConfig, PtOptSlots) {
  StreamConfig c = stream_config(8 * 64 * 100 * 8, EdgeEntry{4, true}, StreamMode::kPtOpt, "--gpu-mem", 2, 8);
  EXPECT_EQ(c.staging_buffers, 2u);
  EXPECT_EQ(c.partition_edges, 6400u);
  EXPECT_EQ(c.resident_edges, 6u * 6400);
  StreamConfig three = stream_config(8 * 64 * 100 * 8, EdgeEntry{4, true}, StreamMode::kPtOpt, "--gpu-mem", 3, 3);
  EXPECT_EQ(three.resident_edges, 0u);
}

TEST(StreamConfig, BadSplitsAreClearErrors) {
  EdgeEntry e{4, false};
  EXPECT_THROW(stream_config(1 << 20, e, StreamMode::kPtOpt, "x", 0), Error);
  EXPECT_THROW(stream_config(1 << 20, e, StreamMode::kPtOpt, "x", 4), Error);
  EXPECT_THROW(stream_config(1 << 20, e, StreamMode::kPtOpt, "x", 3, 2), Error);
  EXPECT_THROW(stream_config(8 * 64 * 4 - 1, e, StreamMode::kPtOpt, "x", 2, 8), Error);
  EXPECT_THROW(stream_config(64 * 4 - 1, e, StreamMode::kPt, "x"), Error);
  EXPECT_NO_THROW(stream_config(64 * 4, e, StreamMode::kPt, "x"));
}

TEST(StreamSchedule, RejectsPartitionsThatDoNotFitOrLeaveGaps) {
  StreamConfig c = opt_config(0);
  std::vector<EdgeRange> too_big{{0, 1, 0, 5, false}};
  EXPECT_THROW(StreamSchedule(too_big, c), Error);
  std::vector<EdgeRange> gap{{0, 1, 0, 2, false}, {1, 2, 3, 4, false}};
  EXPECT_THROW(StreamSchedule(gap, c), Error);
  StreamSchedule ok(four_partitions(), c);
  Ranges wrong_size(3);
  EXPECT_THROW(ok.plan_iteration(wrong_size), Error);
}

TEST(StreamSchedule, PtCopiesEveryPartitionEveryIteration) {
  StreamConfig c = opt_config(0, 1);
  c.mode = StreamMode::kPt;
  StreamSchedule s(four_partitions(), c);
  EXPECT_EQ(s.resident_count(), 0u);
  Ranges active{{0, 0}, {0, 1}, {1, 1}, {1, 1}};  // only partition 1 active
  for (int iteration = 0; iteration < 2; ++iteration) {
    StreamIteration it = s.plan_iteration(active);
    ASSERT_EQ(it.steps.size(), 4u);
    for (uint64_t p = 0; p < 4; ++p) {
      EXPECT_EQ(it.steps[p].partition, p);
      EXPECT_EQ(it.steps[p].load, Load::kStaging);
      EXPECT_EQ(it.steps[p].staging_buffer, 0u);
      EXPECT_EQ(it.steps[p].copy_edges, 4u);
    }
    EXPECT_EQ(it.steps[1].active_lo, 0u);
    EXPECT_EQ(it.steps[1].active_hi, 1u);
    EXPECT_EQ(it.copied_edges, 16u);
    EXPECT_EQ(it.copies, 4u);
    EXPECT_EQ(it.skipped, 0u);
  }
}

TEST(StreamSchedule, PtOptSkipsInactivePartitions) {
  StreamSchedule s(four_partitions(), opt_config(0));
  Ranges active{{0, 0}, {0, 2}, {2, 2}, {2, 3}};
  StreamIteration it = s.plan_iteration(active);
  ASSERT_EQ(it.steps.size(), 2u);
  EXPECT_EQ(it.steps[0].partition, 1u);
  EXPECT_EQ(it.steps[0].staging_buffer, 0u);
  EXPECT_EQ(it.steps[1].partition, 3u);
  EXPECT_EQ(it.steps[1].staging_buffer, 1u);
  EXPECT_EQ(it.skipped, 2u);
  EXPECT_EQ(it.copied_edges, 8u);
}

TEST(StreamSchedule, NothingActiveCopiesNothing) {
  StreamSchedule s(four_partitions(), opt_config(8));
  Ranges none(4, {0, 0});
  StreamIteration it = s.plan_iteration(none);
  EXPECT_TRUE(it.steps.empty());
  EXPECT_EQ(it.copied_edges, 0u);
  EXPECT_EQ(it.skipped, 4u);
}

TEST(StreamSchedule, StagingBuffersRotate) {
  StreamSchedule s(four_partitions(), opt_config(0, 3));
  Ranges all{{0, 2}, {2, 4}, {4, 6}, {6, 8}};
  StreamIteration it = s.plan_iteration(all);
  ASSERT_EQ(it.steps.size(), 4u);
  EXPECT_EQ(it.steps[0].staging_buffer, 0u);
  EXPECT_EQ(it.steps[1].staging_buffer, 1u);
  EXPECT_EQ(it.steps[2].staging_buffer, 2u);
  EXPECT_EQ(it.steps[3].staging_buffer, 0u);
}

TEST(StreamSchedule, FirstPartitionsStayResident) {
  // Room for 9 edges: partitions 0 and 1 (8 edges) stay; 2 would not fit.
  StreamSchedule s(four_partitions(), opt_config(9));
  EXPECT_EQ(s.resident_count(), 2u);
  EXPECT_EQ(s.resident_edges_used(), 8u);
  Ranges all{{0, 2}, {2, 4}, {4, 6}, {6, 8}};

  StreamIteration first = s.plan_iteration(all);
  ASSERT_EQ(first.steps.size(), 4u);
  EXPECT_EQ(first.steps[0].load, Load::kResident);
  EXPECT_EQ(first.steps[1].load, Load::kResident);
  EXPECT_EQ(first.steps[2].load, Load::kStaging);
  EXPECT_EQ(first.steps[2].staging_buffer, 0u);
  EXPECT_EQ(first.copied_edges, 16u);
  EXPECT_TRUE(s.is_loaded(0));
  EXPECT_TRUE(s.is_loaded(1));
  EXPECT_FALSE(s.is_loaded(2));

  // Later: residents run first, without copies; only 2 and 3 are copied.
  Ranges some{{0, 1}, {1, 1}, {1, 2}, {2, 3}};
  StreamIteration second = s.plan_iteration(some);
  ASSERT_EQ(second.steps.size(), 3u);
  EXPECT_EQ(second.steps[0].partition, 0u);
  EXPECT_EQ(second.steps[0].load, Load::kNone);
  EXPECT_EQ(second.steps[0].copy_edges, 0u);
  EXPECT_EQ(second.steps[1].partition, 2u);
  EXPECT_EQ(second.steps[2].partition, 3u);
  EXPECT_EQ(second.copied_edges, 8u);
  EXPECT_EQ(second.resident_hits, 1u);
  EXPECT_EQ(second.skipped, 1u);

  s.reset();
  StreamIteration after_reset = s.plan_iteration(all);
  EXPECT_EQ(after_reset.steps[0].load, Load::kResident);
}

TEST(StreamSchedule, ResidentPartitionFirstActiveLaterIsLoadedThen) {
  StreamSchedule s(four_partitions(), opt_config(8));
  Ranges only_three{{0, 0}, {0, 0}, {0, 0}, {0, 1}};
  StreamIteration a = s.plan_iteration(only_three);
  EXPECT_FALSE(s.is_loaded(0));
  ASSERT_EQ(a.steps.size(), 1u);
  Ranges zero_and_one{{0, 1}, {1, 2}, {2, 2}, {2, 2}};
  StreamIteration b = s.plan_iteration(zero_and_one);
  ASSERT_EQ(b.steps.size(), 2u);
  EXPECT_EQ(b.steps[0].load, Load::kResident);
  EXPECT_EQ(b.steps[1].load, Load::kResident);
}

TEST(StreamSchedule, RandomIterationsVisitEachActivePartitionOnce) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 30; ++trial) {
    uint64_t n = 1 + rng() % 400;
    auto g = csr_with_degrees<uint32_t>(skewed_degrees(n, rng(), 700, rng() % n));
    StreamConfig opt;
    opt.mode = StreamMode::kPtOpt;
    opt.partition_edges = 64 + rng() % 200;
    opt.staging_buffers = 1 + rng() % 3;
    opt.resident_edges = rng() % (4 * opt.partition_edges);
    StreamConfig pt = opt;
    pt.mode = StreamMode::kPt;
    pt.staging_buffers = 1;
    auto parts = plan_partitions(g.offsets, opt.partition_edges);
    StreamSchedule s_opt(parts, opt), s_pt(parts, pt);
    eid_t copied_opt = 0, copied_pt = 0;
    for (int iteration = 0; iteration < 5; ++iteration) {
      auto active = random_active<uint32_t>(n, (rng() % 60) / 100.0, rng());
      auto ranges = active_ranges<uint32_t>(parts, active);
      StreamIteration a = s_opt.plan_iteration(ranges), b = s_pt.plan_iteration(ranges);
      std::set<uint64_t> seen;
      for (const StreamStep& st : a.steps) {
        EXPECT_TRUE(seen.insert(st.partition).second) << "partition twice";
        EXPECT_LT(st.active_lo, st.active_hi) << "inactive partition scheduled";
        EXPECT_EQ(st.load == Load::kStaging, !s_opt.is_resident(st.partition));
      }
      for (size_t p = 0; p < parts.size(); ++p)
        EXPECT_EQ(seen.count(p) == 1, ranges[p].first < ranges[p].second);
      EXPECT_EQ(b.steps.size(), parts.size());
      copied_opt += a.copied_edges;
      copied_pt += b.copied_edges;
    }
    EXPECT_EQ(copied_pt, 5 * g.edges());
    EXPECT_LE(copied_opt, copied_pt);
  }
}

}  // namespace
}  // namespace tg::subgraph
