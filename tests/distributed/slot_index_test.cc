// The slot index (distributed/slot_index.h) that the several-GPU BFS reads in
// place of local_of_slot: for every slot of every rank, on every test shape
// and a Kronecker graph large enough for the builder's parallel loops, over
// 1-5 ranks and thresholds that leave no delegate, some and every vertex one.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "distributed/partition.h"
#include "distributed/slot_index.h"
#include "generators/generators.h"
#include "graph/builder.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

void expect_index_matches(const AnyGraph& graph, const std::string& name) {
  for (int p : {1, 2, 3, 4, 5})
    for (uint64_t th : {uint64_t{0}, uint64_t{2}, uint64_t{8}, std::numeric_limits<uint64_t>::max()}) {
      const dist::Partition part = dist::partition_graph(graph, p, dist::PartitionOptions{.threshold = th});
      for (const dist::RankGraph& rank : part.ranks) {
        const std::span<const uint32_t> locals(rank.local_of_slot.data(), rank.local_of_slot.size());
        const dist::SlotIndex index = dist::make_slot_index(locals);
        ASSERT_EQ(index.delegate_bits.size(), (locals.size() + 31) / 32);
        uint64_t mismatches = 0, normals = 0;
        for (uint64_t s = 0; s < locals.size(); ++s) {
          mismatches += dist::local_of(index.view(), s) != locals[s];
          normals += locals[s] != dist::kNoLocalId;
        }
        EXPECT_EQ(mismatches, 0u) << name << ", " << p << " ranks, TH " << th << ", rank " << rank.rank;
        EXPECT_EQ(normals, rank.num_normals()) << name << ", " << p << " ranks, TH " << th;
        // The slots past the last, in the last word, hold no normal.
        if (!locals.empty() && locals.size() % 32 != 0)
          EXPECT_NE(index.delegate_bits.back() >> (locals.size() % 32), 0u) << name;
      }
    }
}

TEST(SlotIndex, EqualsLocalOfSlotOnEveryShape) {
  for (const std::string& name : shape_names())
    expect_index_matches(build_variant(find_shape(name).edges, Orientation::kUndirected, false), name);
}

TEST(SlotIndex, EqualsLocalOfSlotOnALargeKronecker) {
  GeneratorSpec spec;
  spec.scale = 17;
  spec.edge_factor = 4;
  spec.seed = 5;
  expect_index_matches(build_graph(generate(spec), BuildOptions{}), "kron17");
}

TEST(SlotIndex, LocalIdsOutOfOrderAreRefused) {
  const std::vector<uint32_t> swapped{0, 2, 1, dist::kNoLocalId, 3};
  EXPECT_THROW(dist::make_slot_index(swapped), Error);
  const std::vector<uint32_t> gap{0, 1, 3};
  EXPECT_THROW(dist::make_slot_index(gap), Error);
  const std::vector<uint32_t> fine{dist::kNoLocalId, 0, 1, dist::kNoLocalId, 2};
  EXPECT_NO_THROW(dist::make_slot_index(fine));
}

}  // namespace
}  // namespace tg::test
