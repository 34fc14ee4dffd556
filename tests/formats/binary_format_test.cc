// The .tgb format: exact round trips (32/64-bit ids, weights, CSC, empty
// graphs), arrays mapped in place, and every kind of damage reported.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <limits>
#include <random>

#include "format_test_util.h"
#include "formats/binary_format.h"
#include "formats/checksum.h"
#include "formats/readers.h"
#include "graph/builder.h"

namespace tg {
namespace {

using formats::TgbHeader;
using test::expect_error;
using test::read_bytes;
using test::ScratchDir;
using test::write_bytes;

EdgeList random_edges(uint64_t n, uint64_t m, bool weighted, uint64_t seed) {
  std::mt19937_64 rng(seed);
  EdgeList el;
  el.num_vertices = n;
  el.name = "random-" + std::to_string(seed);
  for (uint64_t i = 0; i < m; ++i) {
    el.src.push_back(rng() % n);
    el.dst.push_back(rng() % n);
    if (weighted) el.weights.push_back(static_cast<weight_t>(rng() % 1000) / 8);
  }
  return el;
}

template <typename T>
void expect_same_array(const Array<T>& a, const Array<T>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  if (a.size() > 0) EXPECT_EQ(std::memcmp(a.data(), b.data(), a.bytes()), 0) << what;
}

template <typename V>
void expect_same_graph(const Graph<V>& a, const Graph<V>& b) {
  EXPECT_EQ(a.num_vertices, b.num_vertices);
  EXPECT_EQ(a.directed, b.directed);
  EXPECT_EQ(a.id_base, b.id_base);
  EXPECT_EQ(a.name, b.name);
  expect_same_array(a.out.offsets, b.out.offsets, "out.offsets");
  expect_same_array(a.out.neighbors, b.out.neighbors, "out.neighbors");
  expect_same_array(a.out.weights, b.out.weights, "out.weights");
  expect_same_array(a.in.offsets, b.in.offsets, "in.offsets");
  expect_same_array(a.in.neighbors, b.in.neighbors, "in.neighbors");
  expect_same_array(a.in.weights, b.in.weights, "in.weights");
}

void expect_round_trip(const AnyGraph& g, const std::string& path) {
  write_binary_graph(g, path);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  for (TgbLoad how : {TgbLoad::kRead, TgbLoad::kMap}) {
    SCOPED_TRACE(how == TgbLoad::kRead ? "read" : "mapped");
    AnyGraph back = read_binary_graph(path, how);
    ASSERT_EQ(back.index(), g.index());
    std::visit(
        [&](const auto& a) {
          using G = std::decay_t<decltype(a)>;
          const G& b = std::get<G>(back);
          expect_same_graph(a, b);
          // In place in the file's image: every array starts on a page of it.
          EXPECT_EQ(reinterpret_cast<uintptr_t>(b.out.offsets.data()) % 4096, 0u);
          if (b.num_edges() > 0) EXPECT_EQ(reinterpret_cast<uintptr_t>(b.out.neighbors.data()) % 4096, 0u);
        },
        g);
  }
}

TEST(BinaryFormat, RoundTrips) {
  ScratchDir dir;
  struct Case {
    const char* name;
    bool weighted, in_edges, wide, undirected;
    uint64_t n, m;
  };
  const Case cases[] = {
      {"plain32", false, false, false, false, 1000, 5000},
      {"weighted32_csc", true, true, false, false, 1000, 5000},
      {"plain64_csc", false, true, true, false, 70000, 400000},  // several checksum blocks
      {"weighted64_undirected", true, false, true, true, 5000, 20000},
      {"isolated", false, false, false, false, 100000, 10},
      {"no_edges", true, true, false, false, 7, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    BuildOptions b;
    b.in_edges = c.in_edges;
    b.force_64bit_ids = c.wide;
    b.undirected = c.undirected;
    AnyGraph g = build_graph(random_edges(c.n, c.m, c.weighted, c.n + c.m), b);
    ASSERT_EQ(vertex_id_bytes(g), c.wide ? 8 : 4);
    expect_round_trip(g, dir.path(std::string(c.name) + ".tgb"));
  }
}

TEST(BinaryFormat, EmptyGraphAndOneBasedIds) {
  ScratchDir dir;
  EdgeList empty;
  empty.name = "empty";
  expect_round_trip(build_graph(std::move(empty), BuildOptions{}), dir.path("empty.tgb"));
  Graph<vid32_t> bare;  // offsets never built
  bare.name = "bare";
  write_binary_graph(AnyGraph(bare), dir.path("bare.tgb"));
  AnyGraph back = read_binary_graph(dir.path("bare.tgb"));
  EXPECT_EQ(num_vertices(back), 0u);
  EXPECT_EQ(std::get<Graph<vid32_t>>(back).out.offsets.size(), 1u);

  EdgeList one = random_edges(50, 200, true, 3);
  one.id_base = 1;
  one.name = std::string(5000, 'n');  // a name longer than the first page
  expect_round_trip(build_graph(std::move(one), BuildOptions{}), dir.path("one.tgb"));
}

TEST(BinaryFormat, MappedArraysAreWritableWithoutChangingTheFile) {
  ScratchDir dir;
  AnyGraph g = build_graph(random_edges(100, 1000, false, 5), BuildOptions{});
  write_binary_graph(g, dir.path("g.tgb"));
  std::string before = read_bytes(dir.path("g.tgb"));
  {
    AnyGraph m = read_binary_graph(dir.path("g.tgb"));
    auto& x = std::get<Graph<vid32_t>>(m);
    x.out.neighbors[0] = 99;
  }
  EXPECT_EQ(read_bytes(dir.path("g.tgb")), before);
}

TEST(BinaryFormat, OverwritesAtomicallyAndFailsCleanly) {
  ScratchDir dir;
  AnyGraph a = build_graph(random_edges(10, 20, false, 1), BuildOptions{});
  AnyGraph b = build_graph(random_edges(30, 90, true, 2), BuildOptions{});
  write_binary_graph(a, dir.path("g.tgb"));
  write_binary_graph(b, dir.path("g.tgb"));
  EXPECT_EQ(num_edges(read_binary_graph(dir.path("g.tgb"))), 90u);
  expect_error([&] { write_binary_graph(a, dir.path("no/such/dir/g.tgb")); }, {"cannot write", "g.tgb"});
  EXPECT_FALSE(std::filesystem::exists(dir.path("no/such/dir/g.tgb.tmp")));
  Graph<vid32_t> broken = std::get<Graph<vid32_t>>(a);
  broken.num_vertices += 1;  // offsets no longer match
  expect_error([&] { write_binary_graph(AnyGraph(broken), dir.path("broken.tgb")); }, {"cannot write", "broken.tgb"});
  EXPECT_FALSE(std::filesystem::exists(dir.path("broken.tgb")));
  EXPECT_FALSE(std::filesystem::exists(dir.path("broken.tgb.tmp")));
}

// ---- Damage ---------------------------------------------------------------

class DamagedBinary : public ::testing::Test {
 protected:
  void SetUp() override {
    BuildOptions b;
    b.in_edges = true;
    AnyGraph g = build_graph(random_edges(3000, 20000, true, 9), b);
    write_binary_graph(g, dir_.path("good.tgb"));
    good_ = read_bytes(dir_.path("good.tgb"));
    std::memcpy(&header_, good_.data(), sizeof header_);
  }
  void expect_damage(const std::string& bytes, std::initializer_list<std::string> parts) {
    write_bytes(dir_.path("bad.tgb"), bytes);
    expect_error([&] { read_binary_graph(dir_.path("bad.tgb"), TgbLoad::kRead); }, parts);
    expect_error([&] { read_binary_graph(dir_.path("bad.tgb"), TgbLoad::kMap); }, parts);
  }
  // Rewrites the checksums, so that only the semantic checks can object.
  std::string with_valid_checksums(std::string bytes) {
    TgbHeader h;
    std::memcpy(&h, bytes.data(), sizeof h);
    for (auto& s : h.sections)
      s.checksum = formats::section_checksum(s.bytes > 0 ? bytes.data() + s.offset : nullptr, s.bytes);
    h.header_checksum = 0;
    std::memcpy(bytes.data(), &h, sizeof h);
    h.header_checksum = formats::xxh64(bytes.data(), h.header_bytes, 0);
    std::memcpy(bytes.data(), &h, sizeof h);
    return bytes;
  }
  template <typename T>
  void put(std::string& bytes, uint64_t offset, T value) {
    std::memcpy(bytes.data() + offset, &value, sizeof value);
  }

  ScratchDir dir_;
  std::string good_;
  TgbHeader header_;
};

TEST_F(DamagedBinary, EmptyAndBadMagic) {
  expect_damage("", {"bad.tgb", "empty file"});
  expect_damage("TIERG", {"bad.tgb", "truncated"});
  expect_damage("hello world, this is text\n", {"bad.tgb", "not a tiergraph binary graph (bad magic)"});
  std::string wrong = good_;
  wrong[3] = 'x';
  expect_damage(wrong, {"bad.tgb", "bad magic"});
}

TEST_F(DamagedBinary, Truncated) {
  for (size_t keep : {size_t{8}, size_t{100}, size_t{255}, size_t{4096}, good_.size() / 2, good_.size() - 1}) {
    SCOPED_TRACE(keep);
    expect_damage(good_.substr(0, keep), {"bad.tgb", "truncated"});
  }
}

TEST_F(DamagedBinary, TrailingData) { expect_damage(good_ + "x", {"bad.tgb", "trailing data"}); }

TEST_F(DamagedBinary, VersionAndHeaderFields) {
  std::string v = good_;
  put<uint32_t>(v, offsetof(TgbHeader, version), 7);
  expect_damage(v, {"bad.tgb", "unsupported .tgb version 7"});
  std::string n = good_;
  put<uint64_t>(n, offsetof(TgbHeader, num_vertices), header_.num_vertices + 1);
  expect_damage(n, {"bad.tgb", "header checksum mismatch"});
  expect_damage(with_valid_checksums(n), {"bad.tgb", "out_offsets", "expected"});
  std::string id = good_;
  put<uint32_t>(id, offsetof(TgbHeader, id_bytes), 3);
  expect_damage(with_valid_checksums(id), {"bad.tgb", "3 bytes wide"});
  std::string flags = good_;
  put<uint32_t>(flags, offsetof(TgbHeader, flags), 64 | header_.flags);
  expect_damage(with_valid_checksums(flags), {"bad.tgb", "unknown flags"});
  std::string misplaced = good_;
  put<uint64_t>(misplaced, offsetof(TgbHeader, sections) + formats::kOutNeighbors * 24, header_.sections[formats::kOutNeighbors].offset + 8);
  expect_damage(with_valid_checksums(misplaced), {"bad.tgb", "out_neighbors", "misplaced"});
}

// An empty section (no weights here) whose offset lies past the file: refused, not turned into an address
// (the fuzzer's 2^64 - 7 overflowed the reader's pointer arithmetic).
TEST_F(DamagedBinary, EmptySectionBeyondTheEnd) {
  AnyGraph g = build_graph(random_edges(300, 2000, false, 4), BuildOptions{});
  write_binary_graph(g, dir_.path("plain.tgb"));
  std::string plain = read_bytes(dir_.path("plain.tgb"));
  TgbHeader h;
  std::memcpy(&h, plain.data(), sizeof h);
  ASSERT_EQ(h.sections[formats::kOutWeights].bytes, 0u);
  put<uint64_t>(plain, offsetof(TgbHeader, sections) + formats::kOutWeights * 24, ~uint64_t{0} - 6);
  expect_damage(with_valid_checksums(plain), {"bad.tgb", "empty section out_weights", "beyond the end of the file"});
}

TEST_F(DamagedBinary, ChecksumsCatchFlippedBytes) {
  for (int sec = 0; sec < formats::kTgbSections; ++sec) {
    const auto& s = header_.sections[sec];
    ASSERT_GT(s.bytes, 0u) << formats::tgb_section_name(sec);
    std::string bad = good_;
    bad[s.offset + s.bytes / 2] ^= 0x10;
    expect_damage(bad, {"bad.tgb", "checksum mismatch", formats::tgb_section_name(sec)});
  }
}

TEST_F(DamagedBinary, SemanticChecksBehindValidChecksums) {
  const auto& nbr = header_.sections[formats::kInNeighbors];
  std::string id = good_;
  put<uint32_t>(id, nbr.offset + 4 * 1234, static_cast<uint32_t>(header_.num_vertices));
  expect_damage(with_valid_checksums(id), {"bad.tgb", "in_neighbors[1234] = 3000 is not below the number of vertices 3000"});

  const auto& off = header_.sections[formats::kOutOffsets];
  std::string dec = good_;
  put<uint64_t>(dec, off.offset + 8 * 100, header_.num_edges);  // vertex 100 starts past vertex 101
  expect_damage(with_valid_checksums(dec), {"bad.tgb", "out_offsets decrease at vertex 100"});

  std::string last = good_;
  put<uint64_t>(last, off.offset + 8 * header_.num_vertices, header_.num_edges - 1);
  expect_damage(with_valid_checksums(last), {"bad.tgb", "out_offsets[3000]", "expected the number of edges 20000"});

  std::string first = good_;
  put<uint64_t>(first, off.offset, 1);
  expect_damage(with_valid_checksums(first), {"bad.tgb", "out_offsets[0] is 1"});
}

// A decrease between the last offset of one 1 MiB checksum block and the first of
// the next: each block is checked alone (as it arrives), the seams after.
TEST_F(DamagedBinary, OffsetsDecreaseAcrossABlockSeam) {
  write_binary_graph(build_graph(random_edges(200000, 400000, false, 3), BuildOptions{}), dir_.path("big.tgb"));
  std::string bytes = read_bytes(dir_.path("big.tgb"));
  TgbHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  const uint64_t seam = formats::kChecksumBlockBytes / 8;  // the first offset of the second block
  uint64_t before = 0;
  std::memcpy(&before, bytes.data() + h.sections[formats::kOutOffsets].offset + 8 * (seam - 1), 8);
  ASSERT_GT(before, 0u);
  put<uint64_t>(bytes, h.sections[formats::kOutOffsets].offset + 8 * seam, before - 1);
  expect_damage(with_valid_checksums(bytes), {"bad.tgb", "out_offsets decrease at vertex " + std::to_string(seam - 1)});
}

TEST_F(DamagedBinary, NanWeightIsRefusedInfIsNot) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (int sec : {formats::kOutWeights, formats::kInWeights}) {
    SCOPED_TRACE(formats::tgb_section_name(sec));
    std::string bytes = good_;
    put<float>(bytes, header_.sections[sec].offset + 4 * 77, nan);
    expect_damage(with_valid_checksums(bytes), {"bad.tgb", std::string(formats::tgb_section_name(sec)) + "[77] is NaN"});
  }
  std::string bytes = good_;
  put<float>(bytes, header_.sections[formats::kOutWeights].offset + 4 * 5, inf);
  put<float>(bytes, header_.sections[formats::kOutWeights].offset + 4 * 6, -inf);
  write_bytes(dir_.path("inf.tgb"), with_valid_checksums(bytes));
  AnyGraph g = read_binary_graph(dir_.path("inf.tgb"));
  const auto& w = std::get<Graph<vid32_t>>(g).out.weights;
  EXPECT_EQ(w[5], inf);
  EXPECT_EQ(w[6], -inf);
}

TEST_F(DamagedBinary, ErrorsAreInputErrors) {
  write_bytes(dir_.path("bad.tgb"), "hello world, this is text\n");
  try {
    read_binary_graph(dir_.path("bad.tgb"));
    ADD_FAILURE() << "accepted text";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput) << e.what();
  }
}

}  // namespace
}  // namespace tg
