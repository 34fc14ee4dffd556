// The GPU sampler's in-edges split over GPUs (sampling/edge_pieces.h): the
// cut keeps every list whole, covers every vertex once, and gives each piece
// about 1/P of the entries (at most one list more); bad lists of GPUs are
// one-line usage errors. The pieces on GPUs: tests/gpu/sampler_gpu_test.cc.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "sampling/edge_pieces.h"

namespace {

using tg::eid_t;
using tg::sampling::check_edge_devices;
using tg::sampling::cut_lists;

std::vector<eid_t> offsets_of(const std::vector<eid_t>& degrees) {
  std::vector<eid_t> offsets{0};
  for (eid_t d : degrees) offsets.push_back(offsets.back() + d);
  return offsets;
}

void expect_good_cut(const std::vector<eid_t>& degrees, int pieces) {
  const std::vector<eid_t> offsets = offsets_of(degrees);
  const std::vector<uint64_t> bounds = cut_lists(offsets, pieces);
  const uint64_t n = degrees.size(), edges = offsets.back();
  const std::string what = std::to_string(n) + " vertices, " + std::to_string(pieces) + " pieces";
  ASSERT_EQ(bounds.size(), static_cast<size_t>(pieces) + 1) << what;
  EXPECT_EQ(bounds.front(), 0u) << what;
  EXPECT_EQ(bounds.back(), n) << what;
  eid_t largest = 0;
  for (eid_t d : degrees) largest = std::max(largest, d);
  for (int k = 0; k < pieces; ++k) {
    ASSERT_LE(bounds[k], bounds[k + 1]) << what;
    const eid_t held = offsets[bounds[k + 1]] - offsets[bounds[k]];
    EXPECT_LE(held, edges / pieces + largest + 1) << what << ", piece " << k;
  }
}

TEST(EdgePieces, ListsStayWholeAndPiecesHoldAboutAShareEach) {
  expect_good_cut({}, 1);
  expect_good_cut({}, 3);
  expect_good_cut({0, 0, 0}, 2);
  expect_good_cut({5}, 4);
  expect_good_cut({1, 1, 1, 1, 1, 1, 1, 1}, 8);
  expect_good_cut({100, 1, 1, 1}, 2);  // a hub's piece holds it whole
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<eid_t> degrees(rng() % 300);
    for (eid_t& d : degrees) d = rng() % 4 == 0 ? rng() % 200 : rng() % 5;
    expect_good_cut(degrees, 1 + static_cast<int>(rng() % tg::sampling::kMaxEdgePieces));
  }
}

TEST(EdgePieces, EqualListsSplitEvenly) {
  const std::vector<eid_t> offsets = offsets_of(std::vector<eid_t>(1000, 3));
  EXPECT_EQ(cut_lists(offsets, 4), (std::vector<uint64_t>{0, 250, 500, 750, 1000}));
  EXPECT_EQ(cut_lists(offsets, 1), (std::vector<uint64_t>{0, 1000}));
}

TEST(EdgePieces, BadListsOfGpusAreUsageErrors) {
  auto message = [](std::vector<int> devices, bool zero_copy) {
    try {
      check_edge_devices(devices, zero_copy);
    } catch (const tg::Error& e) {
      EXPECT_EQ(e.kind(), tg::ErrorKind::kUsage);
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message({}, false), "accepted");
  EXPECT_EQ(message({}, true), "accepted");
  EXPECT_EQ(message({0, 1, 0}, false), "accepted");
  EXPECT_EQ(message({1, -2}, false), "edge_devices: device -2 is negative");
  EXPECT_EQ(message(std::vector<int>(9, 0), false), "edge_devices: 9 pieces, at most 8");
  EXPECT_EQ(message({0}, true),
            "edge_devices: the in-edges are split over GPUs or read from host memory (zero_copy), not both");
}

}  // namespace
