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

}  // namespace
}  // namespace tg::test
