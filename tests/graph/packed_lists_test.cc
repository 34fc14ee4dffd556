// graph/packed_lists.h: neighbour lists in blocks of bit-packed gaps, each
// decoded back to the sorted list by the reference decoder.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "core/error.h"
#include "graph/packed_lists.h"
#include "support/kronecker.h"

namespace tg {
namespace {

// A CSR of the given lists, as given (not sorted).
Csr<uint32_t> csr_of(const std::vector<std::vector<uint32_t>>& lists) {
  std::vector<eid_t> offsets{0};
  std::vector<uint32_t> ids;
  for (const auto& l : lists) {
    ids.insert(ids.end(), l.begin(), l.end());
    offsets.push_back(ids.size());
  }
  Csr<uint32_t> csr;
  csr.offsets = Array<eid_t>::from(offsets);
  csr.neighbors = Array<uint32_t>::from(ids);
  return csr;
}

std::vector<uint32_t> list_of(const PackedCsr& p, uint64_t v, uint64_t degree) {
  return unpack_list(p.words.data() + p.offsets[v], degree);
}

// Degrees around every boundary of the format (a block, a chunk), gaps from 0
// (repeats) to 2^26, ids up to the largest a header holds.
TEST(PackedLists, DecodesEveryListToItsSortedEntries) {
  std::mt19937_64 rng(7);
  std::vector<std::vector<uint32_t>> lists;
  for (uint64_t degree : {0, 1, 2, 31, 32, 33, 63, 64, 65, 1023, 1024, 1025, 1056, 2048, 2049, 5000}) {
    for (uint32_t spread : {0u, 1u, 100u, 1u << 20, 1u << 26}) {
      std::vector<uint32_t> l(degree);
      std::uniform_int_distribution<uint32_t> gap(0, spread);
      uint64_t id = rng() % 1000;
      for (auto& x : l) {
        x = static_cast<uint32_t>(std::min<uint64_t>(id, kPackedMaxVertices - 1));
        id += gap(rng);
      }
      std::shuffle(l.begin(), l.end(), rng);  // the encoder sorts
      lists.push_back(std::move(l));
    }
  }
  lists.push_back({static_cast<uint32_t>(kPackedMaxVertices - 1), 0});
  const Csr<uint32_t> csr = csr_of(lists);
  const PackedCsr p = pack_csr(csr, lists.size());
  ASSERT_EQ(p.offsets.size(), lists.size() + 1);
  EXPECT_EQ(p.words.size(), p.offsets.back());
  for (uint64_t v = 0; v < lists.size(); ++v) {
    std::vector<uint32_t> want = lists[v];
    std::sort(want.begin(), want.end());
    ASSERT_EQ(list_of(p, v, want.size()), want) << "list " << v << " of " << want.size();
  }
}

// The words the format's description counts: headers, then a chunk table
// past 1024 entries, then ceil((entries - 1) * width / 32) a block.
TEST(PackedLists, TakesTheWordsTheFormatCounts) {
  std::vector<uint32_t> run33(33), run1025(1025), wide{0, 1u << 20, (1u << 20) + 1};
  for (uint32_t i = 0; i < 33; ++i) run33[i] = 100 + i;
  for (uint32_t i = 0; i < 1025; ++i) run1025[i] = 3 * i;
  const PackedCsr p = pack_csr(csr_of({run33, run1025, wide, {}}), 4);
  // 33 entries: 2 headers, 31 gaps of 1 bit in one word, the second block's one entry none.
  EXPECT_EQ(p.offsets[1] - p.offsets[0], 3u);
  EXPECT_EQ(p.words[p.offsets[0]], packed_header(100, 1));
  EXPECT_EQ(p.words[p.offsets[0] + 2], 0x7fffffffu);
  // 1025 entries: 2 chunk words, 33 headers, 32 blocks of 31 two-bit gaps (2 words each).
  EXPECT_EQ(p.offsets[2] - p.offsets[1], 2u + 33u + 64u);
  EXPECT_EQ(p.words[p.offsets[1]], 0u);
  EXPECT_EQ(p.words[p.offsets[1] + 1], 64u);  // block 32's gaps, after 32 blocks of 2 words
  // Gaps of 2^20 and 1: 21 bits each, 42 bits, 2 words.
  EXPECT_EQ(p.offsets[3] - p.offsets[2], 3u);
  EXPECT_EQ(packed_width(p.words[p.offsets[2]]), 21u);
  EXPECT_EQ(p.offsets[4], p.offsets[3]);
}

// Byte weights ride at each list's end, in the order of its sorted ids
// (equal ids keep their weights' order), and cost ceil(d / 4) words a list.
TEST(PackedLists, ByteWeightsFollowTheirIds) {
  std::mt19937_64 rng(11);
  std::vector<std::vector<uint32_t>> lists;
  std::vector<weight_t> weights;
  for (uint64_t degree : {0, 1, 2, 3, 4, 5, 31, 32, 33, 1024, 1025, 3000}) {
    std::vector<uint32_t> l(degree);
    for (auto& x : l) x = static_cast<uint32_t>(rng() % (degree < 40 ? 8 : 100000));  // repeats in short lists
    for (uint64_t i = 0; i < degree; ++i) weights.push_back(static_cast<weight_t>(rng() % 256));
    lists.push_back(std::move(l));
  }
  Csr<uint32_t> csr = csr_of(lists);
  csr.weights = Array<weight_t>::from(weights);
  ASSERT_TRUE(weights_fit_bytes(csr));
  const PackedCsr plain = pack_csr(csr, lists.size());
  const PackedCsr p = pack_csr(csr, lists.size(), true);
  for (uint64_t v = 0; v < lists.size(); ++v) {
    const uint64_t d = lists[v].size();
    const uint64_t words = p.offsets[v + 1] - p.offsets[v];
    ASSERT_EQ(words, plain.offsets[v + 1] - plain.offsets[v] + packed_weight_words(d)) << v;
    // (id, weight) pairs, sorted by id and stably by position: what the decoder must give.
    std::vector<std::pair<uint32_t, uint32_t>> want;
    for (uint64_t i = 0; i < d; ++i)
      want.emplace_back(lists[v][i], static_cast<uint32_t>(weights[csr.offsets[v] + i]));
    std::stable_sort(want.begin(), want.end(), [](auto& a, auto& b) { return a.first < b.first; });
    const std::vector<uint32_t> ids = unpack_list(p.words.data() + p.offsets[v], d);
    const std::vector<uint32_t> ws = unpack_weights(p.words.data() + p.offsets[v], words, d);
    ASSERT_EQ(ids.size(), d);
    ASSERT_EQ(ws.size(), d);
    for (uint64_t i = 0; i < d; ++i) {
      ASSERT_EQ(ids[i], want[i].first) << v << " " << i;
      ASSERT_EQ(ws[i], want[i].second) << v << " " << i;
    }
  }
}

// Only whole weights from 0 to 255 fit a byte; asking for bytes otherwise is an error.
TEST(PackedLists, ByteWeightsOnlyForWholeWeightsUnder256) {
  Csr<uint32_t> csr = csr_of({{1, 2}, {0}});
  EXPECT_FALSE(weights_fit_bytes(csr));  // no weights
  for (weight_t bad : {256.0f, -1.0f, 0.5f, std::numeric_limits<weight_t>::quiet_NaN()}) {
    csr.weights = Array<weight_t>::from(std::vector<weight_t>{1, bad, 255});
    EXPECT_FALSE(weights_fit_bytes(csr)) << bad;
    EXPECT_THROW(packed_offsets(csr, 2, true), Error) << bad;
  }
  csr.weights = Array<weight_t>::from(std::vector<weight_t>{0, 7, 255});
  EXPECT_TRUE(weights_fit_bytes(csr));
}

TEST(PackedLists, RefusesIdsOverTheHeadersBits) {
  Csr<uint32_t> none;
  EXPECT_THROW(packed_offsets(none, kPackedMaxVertices + 1), Error);
  EXPECT_NO_THROW(packed_offsets(none, 10));
}

// A Kronecker graph's lists, close and skewed, pack to well under 4 bytes an
// entry (offline on kron:25, 1.68x past the top degrees; docs/PERF.md).
TEST(PackedLists, KroneckerListsTakeFewerWordsThanEntries) {
  const AnyGraph any = test::kronecker(14, 3, true);
  const auto& g = std::get<Graph<vid32_t>>(any);
  const PackedCsr p = pack_csr(g.out, g.num_vertices);
  EXPECT_GT(double(g.out.num_edges()) / double(p.offsets.back()), 1.3);
  for (uint64_t v = 0; v < g.num_vertices; v += 97) {
    const std::vector<uint32_t> want(g.out.neighbors.data() + g.out.offsets[v],
                                     g.out.neighbors.data() + g.out.offsets[v + 1]);
    ASSERT_EQ(list_of(p, v, want.size()), want);
  }
}

// The planner's estimate from every 16th list, against the whole packed.
TEST(PackedLists, ASampleOfListsEstimatesTheWhole) {
  for (uint64_t seed : {1, 2}) {
    const AnyGraph any = test::kronecker(15, seed, true);
    const auto& g = std::get<Graph<vid32_t>>(any);
    const double whole = double(packed_offsets(g.out, g.num_vertices).back());
    EXPECT_NEAR(double(estimate_packed_words(g.out, g.num_vertices, 16)) / whole, 1.0, 0.05) << seed;
    EXPECT_EQ(estimate_packed_words(g.out, g.num_vertices, 1), packed_offsets(g.out, g.num_vertices).back());
  }
  EXPECT_EQ(estimate_packed_words(Csr<uint32_t>{}, 10, 16), 0u);
}

}  // namespace
}  // namespace tg
