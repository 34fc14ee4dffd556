// The one push-or-pull policy (engines/direction.h).
#include "engines/direction.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace tg::test {
namespace {

TEST(Direction, FollowsBeamerWithHysteresis) {
  const StepShape base{0, 0, 20000, 1800, true, false};
  StepShape s = base;
  s.frontier_vertices = 10, s.frontier_edges = 500;  // 510 <= 1000: push
  EXPECT_FALSE(choose_pull(Direction::kAuto, s));
  s.frontier_edges = 995;  // 1005 > 1000: pull
  EXPECT_TRUE(choose_pull(Direction::kAuto, s));
  s = base;
  s.pulled_last = true, s.frontier_vertices = 101;  // > 1800 / 18: keep pulling, whatever its edges
  EXPECT_TRUE(choose_pull(Direction::kAuto, s));
  s.frontier_vertices = 100;
  EXPECT_FALSE(choose_pull(Direction::kAuto, s));
  s.can_pull = false, s.frontier_vertices = 1000, s.frontier_edges = 20000;
  EXPECT_FALSE(choose_pull(Direction::kAuto, s));
  EXPECT_THROW(choose_pull(Direction::kPull, s), Error);
  EXPECT_FALSE(choose_pull(Direction::kPush, base));
}

// Where the policy says it does not need the frontier's edges, its choice
// is the same whatever they are; where it says it does, they can change it.
TEST(Direction, SkipsTheDegreeSumOnlyWhereItCannotMatter) {
  int needed = 0, skipped = 0;
  for (Direction asked : {Direction::kAuto, Direction::kPush, Direction::kPull})
    for (bool can_pull : {false, true})
      for (bool pulled_last : {false, true})
        for (uint64_t vertices : {uint64_t{0}, uint64_t{5}, uint64_t{99}, uint64_t{100}, uint64_t{101}, uint64_t{1000},
                                  uint64_t{1799}}) {
          const StepShape s{vertices, 0, 20000, 1800, can_pull, pulled_last};
          auto choice = [&](uint64_t edges) {
            StepShape t = s;
            t.frontier_edges = edges;
            try {
              return choose_pull(asked, t) ? 1 : 0;
            } catch (const Error&) {
              return -1;
            }
          };
          if (needs_frontier_edges(asked, s)) {
            ++needed;
            EXPECT_NE(choice(0), choice(20000)) << vertices << " vertices";
          } else {
            ++skipped;
            EXPECT_EQ(choice(0), choice(20000)) << vertices << " vertices";
          }
        }
  EXPECT_GT(needed, 0);
  EXPECT_GT(skipped, 0);
}

// Over a link (zero-copy), Ligra's threshold is not enough: urand:24's
// fourth level (950 K of 16.7 M vertices, 31 M of 537 M edges) pulls by it,
// but each unvisited vertex would read about 17 entries over the link where
// the push reads the frontier's 31 M; its fifth (most of the graph in the
// frontier) pulls either way, and so does a hub-rich frontier of kron:25.
TEST(Direction, OverALinkPullsOnlyWhereItReadsLessThanThePush) {
  StepShape s{950'000, 31'000'000, 537'000'000, 16'700'000, true, false, true, 4};
  EXPECT_FALSE(choose_pull(Direction::kAuto, s));
  s.pull_over_link = false;
  EXPECT_TRUE(choose_pull(Direction::kAuto, s));  // in GPU memory: Ligra's threshold
  s = StepShape{13'000'000, 420'000'000, 537'000'000, 16'700'000, true, false, true, 4};
  EXPECT_TRUE(choose_pull(Direction::kAuto, s));
  s = StepShape{500'000, 300'000'000, 1'070'000'000, 33'500'000, true, false, true, 3};
  EXPECT_TRUE(choose_pull(Direction::kAuto, s));
  s.link_heads = 0;  // no cache, a frontier with half the edges: every probe crosses, but stops early
  s.frontier_edges = 540'000'000;
  EXPECT_TRUE(choose_pull(Direction::kAuto, s));
  // Below Ligra's threshold the link changes nothing: push.
  s = StepShape{1'000, 30'000, 537'000'000, 16'700'000, true, false, true, 4};
  EXPECT_FALSE(choose_pull(Direction::kAuto, s));
}

// Only the vertices whose lists run past the cached heads can read over the
// link. kron:25 at a quarter budget (H200, source 26472044): the third level,
// 32 K hubs with 151 M of 1.05 G edges, was pushed (259 MB over the link, 23
// ms) because every one of the 33.5 M vertices was counted at the mean
// degree; by class (half without edges, 8.6 M within the 4 heads, 8.4 M past
// them, kron:25's shape) the pull reads less and is taken. Where all
// vertices share one degree (urand), the classes change nothing.
TEST(Direction, OverALinkCountsOnlyTheListsPastTheHeads) {
  StepShape s{32'482, 150'800'000, 1'047'000'000, 33'554'432, true, false, true, 4};
  EXPECT_FALSE(choose_pull(Direction::kAuto, s));  // every vertex at the mean degree: 1.08 GB against 0.61
  const std::vector<DegreeClass> kron{{8'600'000, 2.0}, {8'390'000, 120.0}};
  s.degree_classes = &kron;
  EXPECT_LT(pull_link_bytes(s, 150.8 / 1047), 0.3e9);
  EXPECT_TRUE(choose_pull(Direction::kAuto, s));
  const std::vector<DegreeClass> uniform{{16'700'000, 537.0 / 16.7}};
  for (const std::vector<DegreeClass>* classes : {static_cast<const std::vector<DegreeClass>*>(nullptr), &uniform}) {
    s = StepShape{950'000, 31'000'000, 537'000'000, 16'700'000, true, false, true, 4, classes};
    EXPECT_FALSE(choose_pull(Direction::kAuto, s));  // urand:24's fourth level, as above
    s = StepShape{13'000'000, 420'000'000, 537'000'000, 16'700'000, true, false, true, 4, classes};
    EXPECT_TRUE(choose_pull(Direction::kAuto, s));
  }
  const std::vector<DegreeClass> within_heads{{16'700'000, 3.0}};  // every list cached whole in its heads
  s = StepShape{950'000, 31'000'000, 537'000'000, 16'700'000, true, false, true, 4, &within_heads};
  EXPECT_EQ(pull_link_bytes(s, 31.0 / 537), 0);
  EXPECT_TRUE(choose_pull(Direction::kAuto, s));
}

// In GPU memory a pull past Ligra's threshold must also probe less than
// the push's edges cost (three probes an edge): urand:24's fourth level (1.3 M
// vertices, 42 M of 537 M edges; every vertex of degree 32 would probe
// min(32, 13) entries, 218 M) pushes; its fifth (420 M frontier edges: 2 probes
// a vertex) pulls, and so does a frontier of hubs whose pull stops early.
TEST(Direction, InGpuMemoryPullsOnlyWhereItsProbesCostLessThanThePush) {
  StepShape s{1'300'000, 42'000'000, 537'000'000, 16'700'000, true, false};
  s.push_edge_cost = kGpuPushEdgeCost;
  ASSERT_TRUE(needs_pull_probes(Direction::kAuto, s));
  EXPECT_EQ(pull_probes_cap(s), 13u);
  s.pull_probes = 16'700'000ull * 13;
  EXPECT_FALSE(choose_pull(Direction::kAuto, s));
  s.push_edge_cost = 0;  // Ligra's rule alone
  EXPECT_FALSE(needs_pull_probes(Direction::kAuto, s));
  EXPECT_TRUE(choose_pull(Direction::kAuto, s));
  s = StepShape{13'000'000, 420'000'000, 537'000'000, 16'700'000, true, false};
  s.push_edge_cost = kGpuPushEdgeCost;
  EXPECT_EQ(pull_probes_cap(s), 2u);
  s.pull_probes = 16'700'000ull * 2;
  EXPECT_TRUE(choose_pull(Direction::kAuto, s));
  s = StepShape{79'000, 30'000'000, 520'000'000, 16'700'000, true, false};  // kron's hubs; half the vertices isolated
  s.push_edge_cost = kGpuPushEdgeCost;
  s.pull_probes = 40'000'000;
  EXPECT_TRUE(choose_pull(Direction::kAuto, s));
  // Below the threshold, after a pull (Beamer's hysteresis) and over a link: no probes needed.
  s = StepShape{1'000, 30'000, 537'000'000, 16'700'000, true, false};
  s.push_edge_cost = kGpuPushEdgeCost;
  EXPECT_FALSE(needs_pull_probes(Direction::kAuto, s));
  s = StepShape{13'000'000, 420'000'000, 537'000'000, 16'700'000, true, true};
  s.push_edge_cost = kGpuPushEdgeCost;
  EXPECT_FALSE(needs_pull_probes(Direction::kAuto, s));
  s = StepShape{1'300'000, 42'000'000, 537'000'000, 16'700'000, true, false, true, 4};
  s.push_edge_cost = kGpuPushEdgeCost;
  EXPECT_FALSE(needs_pull_probes(Direction::kAuto, s));
}

}  // namespace
}  // namespace tg::test
