// The text readers on good and bad inputs: edge lists (plain and compressed),
// Matrix Market, DIMACS; exact line numbers with chunked, parallel parsing.
#include <gtest/gtest.h>
#include <omp.h>
#include <sys/stat.h>

#include <limits>
#include <random>
#include <string>
#include <vector>

#include "format_test_util.h"
#include "formats/readers.h"
#include "formats/text_parse.h"

namespace tg {
namespace {

using test::expect_error;
using test::ScratchDir;
using test::write_bytes;

EdgeList read_el(const ScratchDir& dir, const std::string& name, const std::string& text, bool weighted = false) {
  write_bytes(dir.path(name), text);
  return read_edge_list(dir.path(name), weighted);
}

void expect_el_error(const std::string& name, const std::string& text, std::initializer_list<std::string> parts,
                     bool weighted = false) {
  ScratchDir dir;
  write_bytes(dir.path(name), text);
  expect_error([&] { read_edge_list(dir.path(name), weighted); }, parts);
}

// Restores the default chunk size after a test shrinks it.
struct ChunkSize {
  explicit ChunkSize(size_t bytes) { formats::set_text_chunk_bytes(bytes); }
  ~ChunkSize() { formats::set_text_chunk_bytes(0); }
};

// ---- Edge lists ----------------------------------------------------------

TEST(EdgeListReader, ParsesCommentsBlanksTabsAndCrlf) {
  ScratchDir dir;
  EdgeList el = read_el(dir, "g.el", "# header\n0 1\n1\t2\r\n\n   \n% other comment\n  5   3  \n7 7");
  EXPECT_EQ(el.src, (std::vector<uint64_t>{0, 1, 5, 7}));
  EXPECT_EQ(el.dst, (std::vector<uint64_t>{1, 2, 3, 7}));
  EXPECT_EQ(el.num_vertices, 8u);
  EXPECT_TRUE(el.directed);
  EXPECT_EQ(el.id_base, 0);
  EXPECT_FALSE(el.weighted());
  EXPECT_EQ(el.name, "g.el");
}

TEST(EdgeListReader, CommentsOnlyIsAnEmptyGraph) {
  ScratchDir dir;
  EdgeList el = read_el(dir, "g.el", "# nothing here\n\n");
  EXPECT_EQ(el.num_edges(), 0u);
  EXPECT_EQ(el.num_vertices, 0u);
}

TEST(EdgeListReader, IgnoresExtraNumericColumns) {
  ScratchDir dir;
  EdgeList el = read_el(dir, "g.el", "0 1 1217567877\n1 2 3.5 -7\n");
  EXPECT_EQ(el.src, (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(el.dst, (std::vector<uint64_t>{1, 2}));
  EXPECT_FALSE(el.weighted());
}

TEST(EdgeListReader, LargestIdIsAccepted) {
  ScratchDir dir;
  EdgeList el = read_el(dir, "g.el", "0 9223372036854775807\n");
  EXPECT_EQ(el.dst[0], 9223372036854775807ull);
  EXPECT_EQ(el.num_vertices, 9223372036854775808ull);
}

TEST(EdgeListReader, Weighted) {
  ScratchDir dir;
  EdgeList el = read_el(dir, "g.wel", "0 1 2.5\n1 2 -3\n2 0 1e2\n3 1 +4 99\n", true);
  EXPECT_EQ(el.num_vertices, 4u);
  ASSERT_TRUE(el.weighted());
  EXPECT_EQ(el.weights, (std::vector<weight_t>{2.5f, -3.0f, 100.0f, 4.0f}));
}

TEST(EdgeListReader, Errors) {
  expect_el_error("e.el", "", {"e.el", "empty file"});
  expect_el_error("e.el", "0 1\nabc 2\n", {"e.el:2:", "source vertex id", "'abc'"});
  expect_el_error("e.el", "0 1\n2\n", {"e.el:2:", "expected 2 fields", "found 1"});
  expect_el_error("e.el", "0 1\n2 x\n", {"e.el:2:", "destination vertex id", "'x'"});
  expect_el_error("e.el", "0 -1\n", {"e.el:1:", "negative", "'-1'"});
  expect_el_error("e.el", "-4 1\n", {"e.el:1:", "negative"});
  expect_el_error("e.el", "0 9223372036854775808\n", {"e.el:1:", "too large", "2^63"});
  expect_el_error("e.el", "0 99999999999999999999999\n", {"e.el:1:", "too large"});
  expect_el_error("e.el", "0 1.5\n", {"e.el:1:", "'1.5'"});
  expect_el_error("e.el", "0 1e3\n", {"e.el:1:", "'1e3'"});
  expect_el_error("e.el", "0,1\n", {"e.el:1:", "'0,1'"});
  expect_el_error("e.el", "0 1 abc\n", {"e.el:1:", "expected 2 fields", "extra column", "'abc'"});
  expect_el_error("e.el", "0 1 # trailing comment\n", {"e.el:1:", "'#'"});
  expect_el_error("e.el", std::string("0 1\n0\0 1\n", 9), {"e.el:2:", "\\x00"});
  expect_el_error("e.wel", "0 1 1\n0 1\n", {"e.wel:2:", "expected 3 fields", "missing the weight"}, true);
  expect_el_error("e.wel", "0 1 x\n", {"e.wel:1:", "weight", "'x'"}, true);
  expect_el_error("e.wel", "0 1 nan\n", {"e.wel:1:", "weight", "'nan'"}, true);
  expect_el_error("e.wel", "0 1 1e99\n", {"e.wel:1:", "out of the range"}, true);
  expect_el_error("e.wel", "0 1 2 zz\n", {"e.wel:1:", "'zz'"}, true);
}

TEST(EdgeListReader, InfIsAWeightInAnySpelling) {
  ScratchDir dir;
  const float inf = std::numeric_limits<float>::infinity();
  EdgeList el = read_el(dir, "g.wel", "0 1 inf\n1 2 +inf\n2 3 Infinity\n3 0 INF\n0 2 -inf\n1 3 1.5 inf\n", true);
  EXPECT_EQ(el.weights, (std::vector<weight_t>{inf, inf, inf, inf, -inf, 1.5f}));
  EdgeList unweighted = read_el(dir, "g.el", "0 1 inf\n");  // an ignored numeric column
  EXPECT_EQ(unweighted.num_edges(), 1u);
}

TEST(EdgeListReader, NanIsRefusedInAnySpellingWithFileAndLine) {
  for (const char* nan : {"nan", "NaN", "-nan", "+NAN", "nan(0x7fc)"}) {
    SCOPED_TRACE(nan);
    expect_el_error("e.wel", std::string("0 1 2\n1 2 ") + nan + "\n", {"e.wel:2:", "weight", "is NaN"}, true);
  }
  expect_el_error("e.wel", "0 1 nanx\n", {"e.wel:1:", "weight", "'nanx'"}, true);
  expect_el_error("e.wel", "0 1 infin\n", {"e.wel:1:", "weight", "'infin'"}, true);
  expect_el_error("e.el", "0 1 nan\n", {"e.el:1:", "extra column", "'nan'"});
}

TEST(EdgeListReader, ErrorsAreInputErrors) {
  ScratchDir dir;
  for (const std::string& text : {std::string("0 x\n"), std::string("0 1 nan\n"), std::string("")}) {
    write_bytes(dir.path("k.wel"), text);
    try {
      read_edge_list(dir.path("k.wel"), true);
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInput) << e.what();
    }
  }
  try {
    read_edge_list(dir.path("none.wel"), true);
    ADD_FAILURE() << "read a missing file";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput) << e.what();
  }
}

TEST(EdgeListReader, MissingFileDirectoryAndPermission) {
  ScratchDir dir;
  expect_error([&] { read_edge_list(dir.path("none.el"), false); }, {"none.el", "no such file"});
  expect_error([&] { read_edge_list(dir.path(""), false); }, {"is a directory"});
  write_bytes(dir.path("locked.el"), "0 1\n");
  ::chmod(dir.path("locked.el").c_str(), 0);
  if (::access(dir.path("locked.el").c_str(), R_OK) != 0)  // root reads anything
    expect_error([&] { read_edge_list(dir.path("locked.el"), false); }, {"locked.el", "permission denied"});
}

std::string random_edge_list(size_t lines, uint64_t seed, bool weighted, std::vector<uint64_t>* src,
                             std::vector<uint64_t>* dst) {
  std::mt19937_64 rng(seed);
  std::string text;
  for (size_t i = 0; i < lines; ++i) {
    switch (rng() % 16) {
      case 0: text += "# comment line " + std::to_string(i) + "\n"; continue;
      case 1: text += "\n"; continue;
      default: break;
    }
    uint64_t u = rng() % 1000000, v = rng() % 1000;
    src->push_back(u);
    dst->push_back(v);
    text += std::to_string(u) + (rng() % 2 ? "\t" : " ") + std::to_string(v);
    if (weighted) text += " " + std::to_string(rng() % 100) + ".5";
    text += (rng() % 4 == 0) ? "\r\n" : "\n";
  }
  return text;
}

// Small chunks cut lines everywhere; large files are split across threads.
TEST(EdgeListReader, ChunkBoundariesAndThreadsGiveTheSameEdges) {
  ScratchDir dir;
  std::vector<uint64_t> src, dst;
  std::string text = random_edge_list(300000, 7, false, &src, &dst);
  write_bytes(dir.path("big.el"), text);
  for (size_t chunk : {size_t{0}, size_t{1} << 21, size_t{3000001}}) {
    for (int threads : {1, 2, 3}) {
      ChunkSize cs(chunk);
      omp_set_num_threads(threads);
      EdgeList el = read_edge_list(dir.path("big.el"), false);
      EXPECT_EQ(el.src, src) << "chunk " << chunk << " threads " << threads;
      EXPECT_EQ(el.dst, dst) << "chunk " << chunk << " threads " << threads;
    }
  }
  omp_set_num_threads(omp_get_num_procs());
  // Tiny chunks: every line is cut somewhere.
  src.clear();
  dst.clear();
  write_bytes(dir.path("small.el"), random_edge_list(3000, 9, false, &src, &dst));
  for (size_t chunk : {size_t{1}, size_t{2}, size_t{17}, size_t{4096}}) {
    ChunkSize cs(chunk);
    EdgeList el = read_edge_list(dir.path("small.el"), false);
    EXPECT_EQ(el.src, src) << "chunk " << chunk;
    EXPECT_EQ(el.dst, dst) << "chunk " << chunk;
  }
}

TEST(EdgeListReader, LineNumbersAreExactWithParallelChunks) {
  ScratchDir dir;
  std::vector<uint64_t> src, dst;
  std::string text = random_edge_list(400000, 11, false, &src, &dst);
  // Put the error on a line far into the file.
  size_t target_line = 345678, line = 1, pos = 0;
  while (line < target_line) pos = text.find('\n', pos) + 1, ++line;
  text.insert(pos, "12 oops\n");
  write_bytes(dir.path("bad.el"), text);
  for (size_t chunk : {size_t{0}, size_t{1} << 21, size_t{1234567}}) {
    for (int threads : {1, 2, 4}) {
      ChunkSize cs(chunk);
      omp_set_num_threads(threads);
      expect_error([&] { read_edge_list(dir.path("bad.el"), false); }, {"bad.el:345678:", "'oops'"});
    }
  }
  omp_set_num_threads(omp_get_num_procs());
}

// Every chunk size and thread count on small files, parallel blocks forced.
TEST(EdgeListReader, TinyChunksAndForcedParallelBlocks) {
  ScratchDir dir;
  std::vector<uint64_t> src, dst;
  std::string good = random_edge_list(60, 21, false, &src, &dst);
  write_bytes(dir.path("good.el"), good);
  std::string bad = good;
  size_t pos = 0;
  for (int line = 1; line < 37; ++line) pos = bad.find('\n', pos) + 1;
  bad.insert(pos, "1 2 x\n");  // line 37
  write_bytes(dir.path("bad.el"), bad);
  formats::set_text_parallel_min_bytes(1);
  for (size_t chunk : {1, 2, 3, 5, 8, 13, 21, 34, 55}) {
    for (int threads : {1, 2, 3}) {
      if (threads == 3 && chunk % 2 == 0) continue;  // oversubscribed spinning is slow
      ChunkSize cs(chunk);
      omp_set_num_threads(threads);
      EdgeList el = read_edge_list(dir.path("good.el"), false);
      EXPECT_EQ(el.src, src) << "chunk " << chunk << " threads " << threads;
      EXPECT_EQ(el.dst, dst) << "chunk " << chunk << " threads " << threads;
      expect_error([&] { read_edge_list(dir.path("bad.el"), false); }, {"bad.el:37:", "'x'"});
    }
  }
  formats::set_text_parallel_min_bytes(0);
  omp_set_num_threads(omp_get_num_procs());
}

TEST(EdgeListReader, LongLineAcrossManyChunks) {
  ScratchDir dir;
  ChunkSize cs(8);
  EdgeList el = read_el(dir, "g.el", "# " + std::string(100, 'x') + "\n" + "123456789 987654321" + std::string(50, ' ') + "\n1 2");
  EXPECT_EQ(el.src, (std::vector<uint64_t>{123456789, 1}));
  EXPECT_EQ(el.dst, (std::vector<uint64_t>{987654321, 2}));
}

// ---- Compressed input ----------------------------------------------------

TEST(CompressedInput, GzipZstdXzReadLikePlainText) {
  ScratchDir dir;
  std::vector<uint64_t> src, dst;
  std::string text = random_edge_list(200000, 3, true, &src, &dst);
  write_bytes(dir.path("g.wel"), text);
  write_bytes(dir.path("g.wel.gz"), test::gzip_bytes(text));
  write_bytes(dir.path("g.wel.zst"), test::zstd_bytes(text));
  write_bytes(dir.path("g.wel.xz"), test::xz_bytes(text));
  EdgeList plain = read_edge_list(dir.path("g.wel"), true);
  EXPECT_EQ(plain.src, src);
  for (size_t chunk : {size_t{0}, size_t{100003}}) {
    ChunkSize cs(chunk);
    for (const char* ext : {".gz", ".zst", ".xz"}) {
      EdgeList el = read_edge_list(dir.path(std::string("g.wel") + ext), true);
      EXPECT_EQ(el.src, plain.src) << ext;
      EXPECT_EQ(el.dst, plain.dst) << ext;
      EXPECT_EQ(el.weights, plain.weights) << ext;
      EXPECT_EQ(el.name, std::string("g.wel") + ext);
    }
  }
}

TEST(CompressedInput, ConcatenatedMembersAndFrames) {
  ScratchDir dir;
  write_bytes(dir.path("g.el.gz"), test::gzip_bytes("0 1\n1 2\n") + test::gzip_bytes("2 3\n"));
  write_bytes(dir.path("g.el.zst"), test::zstd_bytes("0 1\n1 2\n") + test::zstd_bytes("2 3\n"));
  write_bytes(dir.path("g.el.xz"), test::xz_bytes("0 1\n1 2\n") + test::xz_bytes("2 3\n"));
  for (const char* ext : {".gz", ".zst", ".xz"}) {
    EdgeList el = read_edge_list(dir.path(std::string("g.el") + ext), false);
    EXPECT_EQ(el.src, (std::vector<uint64_t>{0, 1, 2})) << ext;
  }
}

TEST(CompressedInput, TruncatedAndCorruptStreamsAreErrors) {
  ScratchDir dir;
  std::vector<uint64_t> src, dst;
  std::string text = random_edge_list(50000, 5, false, &src, &dst);
  struct Case {
    const char* ext;
    std::string bytes;
    const char* name;
  };
  std::vector<Case> cases = {{".gz", test::gzip_bytes(text), "gzip"},
                             {".zst", test::zstd_bytes(text), "zstd"},
                             {".xz", test::xz_bytes(text), "xz"}};
  for (const Case& c : cases) {
    std::string file = std::string("t.el") + c.ext;
    for (size_t keep : {c.bytes.size() - 1, c.bytes.size() / 2, size_t{10}}) {
      write_bytes(dir.path(file), c.bytes.substr(0, keep));
      expect_error([&] { read_edge_list(dir.path(file), false); }, {file, c.name});
    }
    std::string corrupt = c.bytes;
    for (size_t i = corrupt.size() / 3; i < corrupt.size() / 3 + 64; ++i) corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
    write_bytes(dir.path(file), corrupt);
    expect_error([&] { read_edge_list(dir.path(file), false); }, {file});
    // Compressed empty content.
    write_bytes(dir.path(file), c.ext == std::string(".gz") ? test::gzip_bytes("") : c.ext == std::string(".zst") ? test::zstd_bytes("") : test::xz_bytes(""));
    expect_error([&] { read_edge_list(dir.path(file), false); }, {file, "empty file"});
  }
}

// ---- Matrix Market -------------------------------------------------------

EdgeList read_mtx(const ScratchDir& dir, const std::string& text) {
  write_bytes(dir.path("m.mtx"), text);
  return read_matrix_market(dir.path("m.mtx"));
}

void expect_mtx_error(const std::string& text, std::initializer_list<std::string> parts) {
  ScratchDir dir;
  write_bytes(dir.path("m.mtx"), text);
  expect_error([&] { read_matrix_market(dir.path("m.mtx")); }, parts);
}

TEST(MatrixMarketReader, PatternGeneral) {
  ScratchDir dir;
  EdgeList el = read_mtx(dir, "%%MatrixMarket matrix coordinate pattern general\n% comment\n\n3 5 3\n1 2\n3 5\n2 1\n");
  EXPECT_EQ(el.src, (std::vector<uint64_t>{0, 2, 1}));
  EXPECT_EQ(el.dst, (std::vector<uint64_t>{1, 4, 0}));
  EXPECT_EQ(el.num_vertices, 5u);
  EXPECT_TRUE(el.directed);
  EXPECT_EQ(el.id_base, 1);
  EXPECT_FALSE(el.weighted());
}

TEST(MatrixMarketReader, RealSymmetricAndIntegerCaseInsensitive) {
  ScratchDir dir;
  EdgeList el = read_mtx(dir, "%%MatrixMarket matrix coordinate real symmetric\n4 4 2\n2 1 0.5\n4 3 -1e1\n");
  EXPECT_FALSE(el.directed);
  EXPECT_EQ(el.weights, (std::vector<weight_t>{0.5f, -10.0f}));
  EdgeList el2 = read_mtx(dir, "%%MatrixMarket Matrix Coordinate Integer General\n2 2 1\n1 2 7\n");
  EXPECT_EQ(el2.weights, (std::vector<weight_t>{7.0f}));
  EdgeList el3 = read_mtx(dir, "%%MatrixMarket matrix coordinate pattern general\n0 0 0\n");
  EXPECT_EQ(el3.num_edges(), 0u);
}

TEST(MatrixMarketReader, InfValuesAndNanRefused) {
  ScratchDir dir;
  const float inf = std::numeric_limits<float>::infinity();
  EdgeList real = read_mtx(dir, "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 inf\n2 3 0.5\n");
  EXPECT_EQ(real.weights, (std::vector<weight_t>{inf, 0.5f}));
  EdgeList integer = read_mtx(dir, "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 Infinity\n");
  EXPECT_EQ(integer.weights, (std::vector<weight_t>{inf}));
  expect_mtx_error("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n2 3 NaN\n",
                   {"m.mtx:4:", "value", "'NaN'", "is NaN"});
  expect_mtx_error("%%MatrixMarket matrix coordinate integer symmetric\n3 3 1\n% c\n2 1 nan\n", {"m.mtx:4:", "is NaN"});
}

TEST(MatrixMarketReader, Errors) {
  const std::string banner = "%%MatrixMarket matrix coordinate pattern general\n";
  expect_mtx_error("", {"m.mtx", "empty file"});
  expect_mtx_error("3 3 1\n1 2\n", {"m.mtx:1:", "banner"});
  expect_mtx_error("%%MatrixMarket matrix coordinate pattern\n", {"m.mtx:1:", "5 words"});
  expect_mtx_error("%%MatrixMarket matrix array real general\n3 3\n", {"m.mtx:1:", "'array'"});
  expect_mtx_error("%%MatrixMarket matrix coordinate complex general\n", {"m.mtx:1:", "'complex'"});
  expect_mtx_error("%%MatrixMarket matrix coordinate real hermitian\n", {"m.mtx:1:", "'hermitian'"});
  expect_mtx_error("%%MatrixMarket matrix coordinate real skew-symmetric\n", {"m.mtx:1:", "'skew-symmetric'"});
  expect_mtx_error("%%MatrixMarket vector coordinate real general\n", {"m.mtx:1:", "'vector'"});
  expect_mtx_error(banner + "% only comments\n", {"m.mtx:2:", "missing the size line"});
  expect_mtx_error(banner + "3 3\n", {"m.mtx:2:", "number of entries"});
  expect_mtx_error(banner + "3 x 1\n", {"m.mtx:2:", "number of columns", "'x'"});
  expect_mtx_error(banner + "3 3 1 4\n", {"m.mtx:2:", "extra column"});
  expect_mtx_error(banner + "3 3 3\n1 2\n2 3\n", {"m.mtx:4:", "expected 3 entries", "found 2", "truncated"});
  expect_mtx_error(banner + "3 3 1\n1 2\n2 3\n", {"m.mtx:4:", "more entries than the 1"});
  expect_mtx_error(banner + "3 3 1\n0 2\n", {"m.mtx:3:", "row index 0 out of range 1..3"});
  expect_mtx_error(banner + "3 3 1\n1 4\n", {"m.mtx:3:", "column index 4 out of range 1..3"});
  expect_mtx_error(banner + "3 3 1\n1\n", {"m.mtx:3:", "expected 2 fields", "missing the column"});
  expect_mtx_error(banner + "3 3 1\n1 2 3\n", {"m.mtx:3:", "extra column"});
  expect_mtx_error(banner + "3 3 1\n1 -2\n", {"m.mtx:3:", "negative"});
  expect_mtx_error("%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2\n", {"m.mtx:3:", "missing the value"});
  expect_mtx_error("%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 abc\n", {"m.mtx:3:", "'abc'"});
}

TEST(MatrixMarketReader, TooManyEntriesFoundInALaterParallelBlock) {
  ScratchDir dir;
  std::string text = "%%MatrixMarket matrix coordinate pattern general\n1000 1000 150000\n";
  for (int i = 0; i < 200000; ++i) text += std::to_string(i % 1000 + 1) + " " + std::to_string(i % 997 + 1) + "\n";
  write_bytes(dir.path("m.mtx"), text);
  ChunkSize cs(1 << 20);
  omp_set_num_threads(2);
  expect_error([&] { read_matrix_market(dir.path("m.mtx")); }, {"m.mtx:150003:", "more entries than the 150000"});
  omp_set_num_threads(omp_get_num_procs());
}

// ---- DIMACS --------------------------------------------------------------

void expect_gr_error(const std::string& text, std::initializer_list<std::string> parts) {
  ScratchDir dir;
  write_bytes(dir.path("r.gr"), text);
  expect_error([&] { read_dimacs(dir.path("r.gr")); }, parts);
}

TEST(DimacsReader, Good) {
  ScratchDir dir;
  write_bytes(dir.path("r.gr"), "c road\nc\n\np sp 4 3\nc arcs\na 1 2 10\na 4 1 3.5\na 2 2 0\n");
  EdgeList el = read_dimacs(dir.path("r.gr"));
  EXPECT_EQ(el.num_vertices, 4u);
  EXPECT_EQ(el.src, (std::vector<uint64_t>{0, 3, 1}));
  EXPECT_EQ(el.dst, (std::vector<uint64_t>{1, 0, 1}));
  EXPECT_EQ(el.weights, (std::vector<weight_t>{10.0f, 3.5f, 0.0f}));
  EXPECT_TRUE(el.directed);
  EXPECT_EQ(el.id_base, 1);
}

TEST(DimacsReader, InfWeightsAndNanRefused) {
  ScratchDir dir;
  write_bytes(dir.path("r.gr"), "p sp 3 2\na 1 2 inf\na 2 3 +Infinity\n");
  EdgeList el = read_dimacs(dir.path("r.gr"));
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(el.weights, (std::vector<weight_t>{inf, inf}));
  expect_gr_error("c x\np sp 3 2\na 1 2 4\na 2 3 nan\n", {"r.gr:4:", "weight W", "'nan'", "is NaN"});
}

TEST(DimacsReader, Errors) {
  expect_gr_error("", {"r.gr", "empty file"});
  expect_gr_error("c only\n", {"r.gr:1:", "missing the problem line"});
  expect_gr_error("c x\na 1 2 3\n", {"r.gr:2:", "before the problem line"});
  expect_gr_error("p max 3 2\n", {"r.gr:1:", "'p sp N M'"});
  expect_gr_error("p sp 3\n", {"r.gr:1:", "number of arcs"});
  expect_gr_error("p sp 3 1\na 1 4 2\n", {"r.gr:2:", "node id 4 out of range 1..3"});
  expect_gr_error("p sp 3 1\na 0 1 2\n", {"r.gr:2:", "node id 0 out of range"});
  expect_gr_error("p sp 3 2\na 1 2 2\n", {"r.gr:2:", "expected 2 arcs", "found 1"});
  expect_gr_error("p sp 3 1\na 1 2 2\na 2 3 1\n", {"r.gr:3:", "more arcs than the 1"});
  expect_gr_error("p sp 3 1\np sp 3 1\n", {"r.gr:2:", "second problem line"});
  expect_gr_error("p sp 3 1\na 1 2\n", {"r.gr:2:", "missing the weight"});
  expect_gr_error("p sp 3 1\na 1 2 w\n", {"r.gr:2:", "weight", "'w'"});
  expect_gr_error("p sp 3 1\na 1 2 3 4\n", {"r.gr:2:", "extra column"});
  expect_gr_error("p sp 3 1\nx 1 2 3\n", {"r.gr:2:", "expected an arc"});
  expect_gr_error("p sp 3 1\na1 2 3\n", {"r.gr:2:", "expected an arc"});
}

}  // namespace
}  // namespace tg
