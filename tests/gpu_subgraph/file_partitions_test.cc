// The stream placement's partitions read from a .tgb file (--host-mem,
// engines/gpu/subgraph/file_partitions.h): what each read hands back equals
// the graph's own arrays, at any start inside a page, for both id widths,
// with weights; a changed file's id out of range is refused, as is a range
// larger than a buffer.
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

TEST(FilePartitions, ReadsWhatTheFileHolds) {
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
          FilePartitions parts({file, formats::kOutNeighbors, formats::kOutWeights, g.num_vertices}, sizeof(V), kPartition, 2);
          EXPECT_TRUE(parts.weighted());
          const std::vector<std::pair<eid_t, eid_t>> ranges = {{0, kPartition}, {1, 1000}, {777, 1777}, {1023, 1024},
                                                               {m - 5, m}, {m - kPartition, m}, {4096, 4096}};
          int b = 0;
          for (const auto& [begin, end] : ranges) {
            const FilePartitions::Edges e = parts.read(b, begin, end);
            b = 1 - b;
            if (begin == end) continue;
            EXPECT_EQ(std::memcmp(e.neighbors, g.out.neighbors.data() + begin, (end - begin) * sizeof(V)), 0)
                << begin << ".." << end;
            EXPECT_EQ(std::memcmp(e.weights, g.out.weights.data() + begin, (end - begin) * sizeof(weight_t)), 0)
                << begin << ".." << end;
          }
          EXPECT_GE(parts.bytes_read(), (kPartition + 999 + 1000 + 1 + 5 + kPartition) * (sizeof(V) + sizeof(weight_t)));
          EXPECT_EQ(parts.memory().size(), 4u);  // two buffers, neighbours and weights each
          for (const auto& [p, bytes] : parts.memory()) {
            EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % paged::kPageBytes, 0u);
            EXPECT_EQ(bytes % paged::kPageBytes, 0u);
          }
          // Without weights, none are read or held.
          FilePartitions bare({file, formats::kOutNeighbors, -1, g.num_vertices}, sizeof(V), kPartition, 2);
          EXPECT_FALSE(bare.weighted());
          EXPECT_EQ(bare.read(0, 10, 20).weights, nullptr);
          EXPECT_EQ(bare.memory().size(), 2u);
          EXPECT_LT(bare.host_bytes(), parts.host_bytes());
        },
        any);
    std::remove(path.c_str());
  }
}

TEST(FilePartitions, RefusesIdsOutOfRangeAndRangesBeyondABuffer) {
  const AnyGraph any = weighted_kron(false);
  const std::string path = stored(any, "refusals");
  const auto& g = std::get<Graph<vid32_t>>(any);
  auto file = std::make_shared<const paged::EdgeFile>(path, g.num_vertices, g.num_edges(), 4, false);
  // As if the file named vertices the loaded graph does not have.
  FilePartitions small({file, formats::kOutNeighbors, -1, g.num_vertices / 4}, 4, 1000, 1);
  try {
    small.read(0, 0, 1000);
    ADD_FAILURE() << "an id out of range was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("outside the graph"), std::string::npos) << e.what();
  }
  FilePartitions parts({file, formats::kOutNeighbors, -1, g.num_vertices}, 4, 1000, 1);
  EXPECT_THROW(parts.read(0, 0, 2000), Error);
  EXPECT_THROW(FilePartitions({nullptr, formats::kOutNeighbors, -1, 1}, 4, 10, 1), Error);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace tg::subgraph
