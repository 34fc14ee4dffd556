// GAP's .sg/.wsg files, written here in the layout of GAP's
// WriterBase::WriteSerializedGraph (GAP itself is not installed), read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <random>

#include "format_test_util.h"
#include "formats/readers.h"
#include "graph/builder.h"

namespace tg {
namespace {

using test::expect_error;
using test::read_bytes;
using test::ScratchDir;
using test::write_bytes;

template <typename T>
void append(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// As GAP writes it: directed flag (bool), int64 edge count (entries of one
// neighbor array), int64 node count, int64 offsets, then int32 ids or
// (int32 id, int32 weight) pairs; for directed graphs the in-arrays follow.
std::string gap_bytes(const Graph<vid32_t>& g) {
  std::string out;
  append<bool>(out, g.directed);
  append<int64_t>(out, static_cast<int64_t>(g.num_edges()));
  append<int64_t>(out, static_cast<int64_t>(g.num_vertices));
  auto write_csr = [&](const Csr<vid32_t>& c) {
    for (uint64_t v = 0; v <= g.num_vertices; ++v) append<int64_t>(out, static_cast<int64_t>(c.offsets[v]));
    for (uint64_t i = 0; i < c.neighbors.size(); ++i) {
      append<int32_t>(out, static_cast<int32_t>(c.neighbors[i]));
      if (g.weighted()) append<int32_t>(out, static_cast<int32_t>(c.weights[i]));
    }
  };
  write_csr(g.out);
  if (g.directed) write_csr(g.in);
  return out;
}

Graph<vid32_t> random_graph(bool directed, bool weighted, uint64_t n, uint64_t m, uint64_t seed) {
  std::mt19937_64 rng(seed);
  EdgeList el;
  el.num_vertices = n;
  for (uint64_t i = 0; i < m; ++i) {
    el.src.push_back(rng() % n);
    el.dst.push_back(rng() % n);
    if (weighted) el.weights.push_back(static_cast<weight_t>(rng() % 255 + 1));
  }
  BuildOptions b;
  b.undirected = !directed;
  b.in_edges = directed;
  return std::get<Graph<vid32_t>>(build_graph(std::move(el), b));
}

template <typename T>
std::vector<T> vec(const Array<T>& a) {
  return a.to_vector();
}

TEST(GapReader, RoundTrips) {
  ScratchDir dir;
  for (bool directed : {true, false}) {
    for (bool weighted : {false, true}) {
      SCOPED_TRACE(std::string(directed ? "directed" : "undirected") + (weighted ? " weighted" : ""));
      Graph<vid32_t> g = random_graph(directed, weighted, 5000, 40000, directed * 2 + weighted);
      std::string file = dir.path(weighted ? "g.wsg" : "g.sg");
      write_bytes(file, gap_bytes(g));
      AnyGraph back = read_gap_graph(file, weighted);
      const auto& b = std::get<Graph<vid32_t>>(back);
      EXPECT_EQ(b.num_vertices, g.num_vertices);
      EXPECT_EQ(b.directed, directed);
      EXPECT_EQ(b.name, weighted ? "g.wsg" : "g.sg");
      EXPECT_EQ(b.id_base, 0);
      EXPECT_EQ(vec(b.out.offsets), vec(g.out.offsets));
      EXPECT_EQ(vec(b.out.neighbors), vec(g.out.neighbors));
      EXPECT_EQ(vec(b.out.weights), vec(g.out.weights));
      EXPECT_EQ(b.in.built(), directed);
      EXPECT_EQ(vec(b.in.offsets), vec(g.in.offsets));
      EXPECT_EQ(vec(b.in.neighbors), vec(g.in.neighbors));
      EXPECT_EQ(vec(b.in.weights), vec(g.in.weights));
    }
  }
}

TEST(GapReader, EmptyGraph) {
  ScratchDir dir;
  std::string bytes;
  append<bool>(bytes, false);
  append<int64_t>(bytes, 0);
  append<int64_t>(bytes, 0);
  append<int64_t>(bytes, 0);
  write_bytes(dir.path("e.sg"), bytes);
  AnyGraph g = read_gap_graph(dir.path("e.sg"), false);
  EXPECT_EQ(num_vertices(g), 0u);
  EXPECT_EQ(num_edges(g), 0u);
}

class DamagedGap : public ::testing::Test {
 protected:
  void SetUp() override {
    g_ = random_graph(true, false, 100, 500, 4);
    good_ = gap_bytes(g_);
  }
  void expect_damage(const std::string& bytes, std::initializer_list<std::string> parts, bool weighted = false) {
    std::string file = dir_.path(weighted ? "bad.wsg" : "bad.sg");
    write_bytes(file, bytes);
    expect_error([&] { read_gap_graph(file, weighted); }, parts);
  }
  template <typename T>
  void put(std::string& bytes, uint64_t offset, T value) {
    std::memcpy(bytes.data() + offset, &value, sizeof value);
  }
  ScratchDir dir_;
  Graph<vid32_t> g_;
  std::string good_;
};

TEST_F(DamagedGap, SizesAndHeader) {
  expect_damage("", {"bad.sg", "empty file"});
  expect_damage(good_.substr(0, 10), {"bad.sg", "truncated", "17 bytes"});
  expect_damage(good_.substr(0, good_.size() - 1), {"bad.sg", "truncated", "100 nodes, 500 edges, directed"});
  expect_damage(good_ + "xyz", {"bad.sg", "trailing data"});
  expect_damage(good_, {"bad.wsg", "size fits an unweighted .sg"}, true);
  std::string flag = good_;
  flag[0] = 7;
  expect_damage(flag, {"bad.sg", "directed flag", "7"});
  std::string neg = good_;
  put<int64_t>(neg, 9, -5);
  expect_damage(neg, {"bad.sg", "negative sizes"});
  std::string huge = good_;
  put<int64_t>(huge, 1, int64_t{1} << 62);
  expect_damage(huge, {"bad.sg", "truncated"});
  std::string undirected = good_;
  undirected[0] = 0;  // then the in-arrays are trailing data
  expect_damage(undirected, {"bad.sg", "trailing data"});
}

TEST_F(DamagedGap, Contents) {
  const uint64_t offsets_at = 17, n = 100, m = 500;
  const uint64_t neighbors_at = offsets_at + (n + 1) * 8;
  std::string id = good_;
  put<int32_t>(id, neighbors_at + 4 * 7, 100);
  expect_damage(id, {"bad.sg", "out-edge neighbor 7 is 100", "0..99"});
  std::string negative = good_;
  put<int32_t>(negative, neighbors_at + (m + n + 1) * 4 + (n + 1) * 4 + 4 * 3, -2);  // in-neighbors
  expect_damage(negative, {"bad.sg", "in-edge neighbor 3 is -2"});
  std::string dec = good_;
  put<int64_t>(dec, offsets_at + 8 * 50, 499);
  expect_damage(dec, {"bad.sg", "out-edge offsets decrease at vertex 50"});
  std::string last = good_;
  put<int64_t>(last, offsets_at + 8 * n, 499);
  expect_damage(last, {"bad.sg", "out-edge offsets[100] is 499", "500"});
}

// The writer (gap_writer.cc) against gap_bytes above, GAP's layout written by
// hand: byte for byte.
TEST(GapWriter, WritesGapsOwnLayout) {
  ScratchDir dir;
  for (bool directed : {true, false}) {
    for (bool weighted : {false, true}) {
      SCOPED_TRACE(std::string(directed ? "directed" : "undirected") + (weighted ? " weighted" : ""));
      Graph<vid32_t> g = random_graph(directed, weighted, 3000, 20000, 10 + directed * 2 + weighted);
      const std::string expected = gap_bytes(g);
      AnyGraph any = std::move(g);
      const std::string file = dir.path(weighted ? "w.wsg" : "w.sg");
      write_gap_graph(any, file, weighted);
      EXPECT_EQ(read_bytes(file), expected);
      EXPECT_FALSE(std::ifstream(file + ".tmp").good());
    }
  }
}

TEST(GapWriter, SixtyFourBitIdsUnweightedCopiesAndInEdges) {
  ScratchDir dir;
  // 8-byte ids written as GAP's int32.
  EdgeList el;
  el.num_vertices = 6;
  el.src = {0, 1, 2, 5, 5};
  el.dst = {1, 2, 3, 0, 4};
  el.weights = {1, 2, 3, 4, 5};
  BuildOptions b;
  b.force_64bit_ids = true;
  AnyGraph wide = build_graph(EdgeList(el), b);  // directed, no in-edges yet
  ASSERT_EQ(wide.index(), 1u);
  write_gap_graph(wide, dir.path("wide.wsg"), true);
  b.force_64bit_ids = false;
  b.in_edges = true;
  Graph<vid32_t> narrow = std::get<Graph<vid32_t>>(build_graph(EdgeList(el), b));
  EXPECT_EQ(read_bytes(dir.path("wide.wsg")), gap_bytes(narrow));
  // .sg of a weighted graph: the same lists, no weights.
  write_gap_graph(wide, dir.path("wide.sg"), false);
  const auto back = std::get<Graph<vid32_t>>(read_gap_graph(dir.path("wide.sg"), false));
  EXPECT_EQ(vec(back.out.neighbors), vec(narrow.out.neighbors));
  EXPECT_EQ(vec(back.in.neighbors), vec(narrow.in.neighbors));
  EXPECT_FALSE(back.weighted());
}

TEST(GapWriter, RefusesWhatGapCannotHold) {
  ScratchDir dir;
  AnyGraph plain = random_graph(false, false, 50, 200, 7);
  expect_error([&] { write_gap_graph(plain, dir.path("p.wsg"), true); }, {"p.wsg", "the graph has none", "--weights"});
  Graph<vid32_t> g = random_graph(true, true, 50, 200, 8);
  g.out.weights[17] = 2.5f;
  const uint64_t owner = static_cast<uint64_t>(
      std::upper_bound(g.out.offsets.data(), g.out.offsets.data() + 51, eid_t{17}) - g.out.offsets.data() - 1);
  AnyGraph fractional = std::move(g);
  expect_error([&] { write_gap_graph(fractional, dir.path("f.wsg"), true); },
               {"f.wsg", "out-edge entry 17", "of vertex " + std::to_string(owner) + ")", "2.5", "integer weights"});
  EXPECT_FALSE(std::ifstream(dir.path("f.wsg")).good());
  Graph<vid32_t> h = random_graph(false, true, 50, 200, 9);
  h.out.weights[3] = 3e9f;
  AnyGraph large = std::move(h);
  expect_error([&] { write_gap_graph(large, dir.path("l.wsg"), true); }, {"l.wsg", "entry 3", "int32"});
  AnyGraph ok = random_graph(false, false, 50, 200, 7);
  expect_error([&] { write_gap_graph(ok, dir.path("no-such-dir/x.sg"), false); }, {"cannot write", "x.sg"});
}

}  // namespace
}  // namespace tg
