// The stream placement's partitions read from a .tgb file (--host-mem,
// engines/gpu/subgraph/file_partitions.h): what each read hands back, in
// chunks, equals the graph's own arrays, at any start inside a page, for
// both id widths, with weights; a kept span is read from the file once; a
// changed file's id out of range is refused.
#include "engines/gpu/subgraph/file_partitions.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/error.h"
#include "formats/binary_format.h"
#include "formats/load_graph.h"
#include "formats/readers.h"

namespace tg::subgraph {
namespace {

std::string stored(const AnyGraph& graph, const std::string& name) {
  const std::string path = ::testing::TempDir() + "/tg_file_partitions_" + std::to_string(::getpid()) + "_" + name + ".tgb";
  write_binary_graph(graph, path, false);
  return path;
}

AnyGraph weighted_kron(bool ids64) {
  LoadOptions options;
  options.build.random_weights = WeightRange{1, 255};
  options.build.force_64bit_ids = ids64;
  return load_graph("kron:10", options);
}

// What one read of [begin, end) handed over: its pieces in order, each
// checked against the graph's own arrays as it came (a chunk buffer is
// refilled by the next piece but one), and the buffers it was told to fill.
struct ReadLog {
  std::vector<FilePartitions::Piece> pieces;
  std::vector<int> filled;
};

template <typename G>
ReadLog read_checked(FilePartitions& parts, const G& g, eid_t begin, eid_t end) {
  using V = typename G::vertex_t;
  ReadLog log;
  parts.read(
      begin, end, [&](int b) { log.filled.push_back(b); },
      [&](const FilePartitions::Piece& p) {
        const eid_t at = log.pieces.empty() ? begin : log.pieces.back().first + log.pieces.back().count;
        EXPECT_EQ(p.first, at) << "pieces in order, none missing";
        EXPECT_GT(p.count, 0u);
        EXPECT_LE(p.count, parts.chunk_edges());
        if (p.buffer >= 0) EXPECT_EQ(p.buffer, log.filled.back()) << "a chunk is read after its buffer is waited for";
        EXPECT_EQ(std::memcmp(p.neighbors, g.out.neighbors.data() + p.first, p.count * sizeof(V)), 0) << p.first;
        if (parts.weighted())
          EXPECT_EQ(std::memcmp(p.weights, g.out.weights.data() + p.first, p.count * sizeof(weight_t)), 0) << p.first;
        else
          EXPECT_EQ(p.weights, nullptr);
        log.pieces.push_back(p);
      });
  const eid_t reached = log.pieces.empty() ? begin : log.pieces.back().first + log.pieces.back().count;
  EXPECT_EQ(reached, end) << begin << ".." << end;
  return log;
}

TEST(FilePartitions, ReadsWhatTheFileHoldsInChunks) {
  for (bool ids64 : {false, true}) {
    const AnyGraph any = weighted_kron(ids64);
    const std::string path = stored(any, ids64 ? "ids64" : "ids32");
    std::visit(
        [&](const auto& g) {
          using V = typename std::decay_t<decltype(g)>::vertex_t;
          const uint64_t m = g.num_edges();
          ASSERT_GT(m, 5000u);
          auto file = std::make_shared<const paged::EdgeFile>(path, g.num_vertices, m, sizeof(V), false);
          constexpr uint64_t kPartition = 1000;
          FilePartitions parts({file, formats::kOutNeighbors, formats::kOutWeights, g.num_vertices}, sizeof(V), m,
                               kPartition);
          EXPECT_TRUE(parts.weighted());
          EXPECT_EQ(parts.chunk_edges(), FilePartitions::kGranuleEdges) << "a partition rounded up to a granule";
          // Inside a chunk's window, across one (1024), at the array's end,
          // empty, and longer than a partition (five windows).
          const std::vector<std::pair<eid_t, eid_t>> ranges = {{0, kPartition}, {1, 1000}, {777, 1777}, {1023, 1024},
                                                               {m - 5, m}, {m - kPartition, m}, {4096, 4096},
                                                               {100, 4200}};
          for (const auto& [begin, end] : ranges) {
            const uint64_t w = parts.chunk_edges();
            const uint64_t windows = end > begin ? (end - 1) / w - begin / w + 1 : 0;
            const ReadLog log = read_checked(parts, g, begin, end);
            EXPECT_EQ(log.pieces.size(), windows) << "a piece a chunk's window: " << begin << ".." << end;
            EXPECT_EQ(log.filled.size(), windows);
          }
          EXPECT_GE(parts.bytes_read(), (kPartition + 999 + 1000 + 1 + 5 + kPartition + 4100) * (sizeof(V) + sizeof(weight_t)));
          EXPECT_EQ(parts.memory().size(), 4u);  // two buffers, neighbours and weights each
          for (const auto& [p, bytes] : parts.memory()) {
            EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % paged::kPageBytes, 0u);
            EXPECT_EQ(bytes % paged::kPageBytes, 0u);
          }
          EXPECT_EQ(parts.host_bytes(), 2 * parts.chunk_edges() * (sizeof(V) + sizeof(weight_t)));
          // A large partition's chunks stop at kChunkBytes of ids, and at the
          // array (in whole granules).
          FilePartitions large({file, formats::kOutNeighbors, -1, g.num_vertices}, sizeof(V), uint64_t{1} << 40,
                               uint64_t{1} << 40);
          EXPECT_EQ(large.chunk_edges(), FilePartitions::kChunkBytes / sizeof(V));
          FilePartitions whole({file, formats::kOutNeighbors, -1, g.num_vertices}, sizeof(V), m, uint64_t{1} << 40);
          EXPECT_EQ(whole.chunk_edges(), (m + 1023) / 1024 * 1024);
          read_checked(whole, g, 0, m);
          // Without weights, none are read or held.
          FilePartitions bare({file, formats::kOutNeighbors, -1, g.num_vertices}, sizeof(V), m, kPartition);
          EXPECT_FALSE(bare.weighted());
          read_checked(bare, g, 10, 2000);
          EXPECT_EQ(bare.memory().size(), 2u);
          EXPECT_LT(bare.host_bytes(), parts.host_bytes());
        },
        any);
    std::remove(path.c_str());
  }
}

// The host cache: a span of the array kept once read. Its pieces come from
// the span (buffer -1), the file is read there once, and reads that cross
// its edges take chunks outside it.
TEST(FilePartitions, AKeptSpanIsReadOnce) {
  for (bool ids64 : {false, true}) {
    const AnyGraph any = weighted_kron(ids64);
    const std::string path = stored(any, ids64 ? "kept64" : "kept32");
    std::visit(
        [&](const auto& g) {
          using V = typename std::decay_t<decltype(g)>::vertex_t;
          const uint64_t m = g.num_edges();
          auto file = std::make_shared<const paged::EdgeFile>(path, g.num_vertices, m, sizeof(V), false);
          FilePartitions parts({file, formats::kOutNeighbors, formats::kOutWeights, g.num_vertices}, sizeof(V), m, 3000);
          parts.keep(1500, 3000);  // from its granule's start: [1024, 4024)
          EXPECT_EQ(parts.kept(), (std::pair<eid_t, eid_t>{1024, 4024}));
          EXPECT_EQ(parts.kept_bytes(), 3072 * (sizeof(V) + sizeof(weight_t)));
          EXPECT_EQ(parts.memory().size(), 6u);
          EXPECT_THROW(parts.keep(0, 10), Error) << "set once";
          const ReadLog inside = read_checked(parts, g, 2000, 3500);
          for (const FilePartitions::Piece& p : inside.pieces) EXPECT_EQ(p.buffer, -1);
          EXPECT_TRUE(inside.filled.empty());
          const uint64_t once = parts.bytes_read();
          EXPECT_GT(once, 0u);
          read_checked(parts, g, 2000, 3500);
          EXPECT_EQ(parts.bytes_read(), once) << "read again from the span, not the file";
          // Across both edges: chunks before and after, the span between.
          const ReadLog across = read_checked(parts, g, 500, 5000);
          int kept = 0;
          for (const FilePartitions::Piece& p : across.pieces) {
            const bool in_span = p.first >= 1024 && p.first + p.count <= 4024;
            EXPECT_EQ(p.buffer == -1, in_span) << p.first;
            kept += p.buffer == -1;
          }
          EXPECT_GT(kept, 0);
          // The span's end at the array's.
          FilePartitions tail({file, formats::kOutNeighbors, -1, g.num_vertices}, sizeof(V), m, 3000);
          tail.keep(m - 10, 1u << 20);
          EXPECT_EQ(tail.kept().second, m);
          read_checked(tail, g, m - 2000, m);
          read_checked(tail, g, m - 2000, m);
          // Nothing kept.
          FilePartitions none({file, formats::kOutNeighbors, -1, g.num_vertices}, sizeof(V), m, 3000);
          none.keep(100, 0);
          EXPECT_EQ(none.kept_bytes(), 0u);
          EXPECT_EQ(none.memory().size(), 2u);
          read_checked(none, g, 0, 3000);
          EXPECT_THROW(none.keep(0, 10), Error) << "after a read";
        },
        any);
    std::remove(path.c_str());
  }
}

// A span carried from reader to reader (FileArrays::kept, a batch's runs):
// the next reader that keeps the same span takes it over with its pages, and
// reads nothing from the file for them; one that keeps another span, or
// releases it first (release_carried_unless), frees the old one before
// making its own; without weights read, a span with them is another span.
TEST(FilePartitions, ACarriedSpanIsReadOnceForTheBatch) {
  const AnyGraph any = weighted_kron(false);
  const std::string path = stored(any, "carried");
  const auto& g = std::get<Graph<vid32_t>>(any);
  const uint64_t m = g.num_edges();
  auto file = std::make_shared<const paged::EdgeFile>(path, g.num_vertices, m, 4, false);
  auto carried = std::make_shared<KeptSpan>();
  const FileArrays arrays{file, formats::kOutNeighbors, formats::kOutWeights, g.num_vertices, carried};
  uint64_t rest_bytes = 0;  // what the first reader read outside the span
  {
    FilePartitions first(arrays, 4, m, 3000);
    first.release_carried_unless(1024, 3000);  // nothing carried yet
    first.keep(1024, 3000);
    ASSERT_TRUE(carried->edges);
    read_checked(first, g, 1024, 4024);
    EXPECT_GT(first.bytes_read(), 0u);
    const uint64_t span = first.bytes_read();
    read_checked(first, g, 0, 1024);
    read_checked(first, g, 4024, m);
    rest_bytes = first.bytes_read() - span;
  }
  ASSERT_TRUE(carried->edges) << "outlives its reader";
  const std::weak_ptr<paged::ResidentEdges> old = carried->edges;
  {
    FilePartitions again(arrays, 4, m, 3000);
    again.release_carried_unless(1024, 3000);
    again.keep(1024, 3000);
    EXPECT_EQ(carried->edges.get(), old.lock().get()) << "taken over";
    read_checked(again, g, 1024, 4024);
    EXPECT_EQ(again.bytes_read(), 0u) << "its pages read by the first reader";
    read_checked(again, g, 0, 1024);
    read_checked(again, g, 4024, m);
    EXPECT_EQ(again.bytes_read(), rest_bytes) << "the rest from the file, as the first reader read it";
  }
  {
    FilePartitions other(arrays, 4, m, 3000);
    other.release_carried_unless(0, 2048);
    EXPECT_TRUE(old.expired()) << "released before another is made";
    other.keep(0, 2048);
    EXPECT_EQ(other.kept(), (std::pair<eid_t, eid_t>{0, 2048}));
    ASSERT_TRUE(carried->edges);
    FileArrays bare = arrays;
    bare.weights_section = -1;
    FilePartitions ids_only(bare, 4, m, 3000);
    ids_only.keep(0, 2048);
    EXPECT_EQ(ids_only.kept_bytes(), 2048 * 4u) << "its own span: the carried one holds weights too";
  }
  std::remove(path.c_str());
}

TEST(FilePartitions, RefusesIdsOutOfRange) {
  const AnyGraph any = weighted_kron(false);
  const std::string path = stored(any, "refusals");
  const auto& g = std::get<Graph<vid32_t>>(any);
  auto file = std::make_shared<const paged::EdgeFile>(path, g.num_vertices, g.num_edges(), 4, false);
  auto ignore = [](const auto&) {};
  // As if the file named vertices the loaded graph does not have: through a
  // chunk and through the kept span.
  for (bool kept : {false, true}) {
    FilePartitions small({file, formats::kOutNeighbors, -1, g.num_vertices / 4}, 4, g.num_edges(), 1000);
    if (kept) small.keep(0, 4096);
    try {
      small.read(0, 1000, ignore, ignore);
      ADD_FAILURE() << "an id out of range was read";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("outside the graph"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(FilePartitions({nullptr, formats::kOutNeighbors, -1, 1}, 4, 10, 10), Error);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace tg::subgraph
