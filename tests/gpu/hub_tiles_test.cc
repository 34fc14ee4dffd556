// The hubs' in-lists gathered tile by tile (engines/gpu/hub_tiles.h): the
// shape's rule and its TG_HUB_TILES form (no GPU needed), then PageRank with
// small tiles forced (every list over 4 entries a hub, tiles of 16 values,
// and wider ones) on every GPU shape, orientation and id width, in both
// contribution widths, on the graph as built and renumbered hubs first,
// against the CPU engine and the verifier; and a hub whose list is not
// sorted, which must turn the tiles off. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.h"
#include "engines/gpu/hub_tile_rule.h"
#include "engines/vertex_order.h"
#include "gpu/gpu_checks.h"

namespace tg::test::gpu {
namespace {

using tg::gpu::hub_tile_shape;

TEST(GpuHubTiles, ShapeIsOnWhereTheIdsRunHubsFirst) {
  EXPECT_EQ(hub_tile_shape(true, nullptr).above, 4096u);
  EXPECT_EQ(hub_tile_shape(true, nullptr).tile_bytes, 128u * 1024);
  EXPECT_EQ(hub_tile_shape(false, nullptr).above, 0u);
  EXPECT_EQ(hub_tile_shape(true, "off").above, 0u);
  EXPECT_EQ(hub_tile_shape(false, "4:64").above, 4u);
  EXPECT_EQ(hub_tile_shape(false, "4:64").tile_bytes, 64u);
  for (const char* bad : {"", "4", "4:", ":64", "x:64", "4:0", "4:204801", "4:64x", "on"})
    EXPECT_THROW(hub_tile_shape(true, bad), tg::Error) << bad;
}

// An environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) { setenv(name, value.c_str(), 1); }
  ~ScopedEnv() { unsetenv(name_); }

 private:
  const char* name_;
};

GpuOptions device() {
  GpuOptions o;
  o.placement = Placement::kDevice;
  o.source_blocks = 1;  // one pass: the tiles' (a blocked gather has none)
  return o;
}

// Whether a run built tiles: the engine's trace names them.
bool built_tiles(const AnyGraph& graph, const RunRequest& r) {
  ScopedEnv trace("TG_GPU_TRACE", "1");
  testing::internal::CaptureStderr();
  run_on_gpu(graph, r, device());
  const std::string err = testing::internal::GetCapturedStderr();
  return err.find("hub tiles: ") != std::string::npos && err.find(" hubs (lists over") != std::string::npos;
}

TEST(GpuHubTiles, PageRankMatchesCpuOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  for (const char* shape_env : {"4:64", "1:4", "100:1024"}) {
    ScopedEnv tiles("TG_HUB_TILES", shape_env);
    for (bool ids64 : {false, true})
      for (const std::string& shape : gpu_shapes())
        for (Orientation o : all_orientations()) {
          if (o == Orientation::kDirectedNoCsc) continue;  // the gather reads the CSC
          AnyGraph graph = gpu_graph(shape, a, o, ids64);
          std::vector<RunRequest> requests;
          for (Contributions c : {Contributions::kFloat, Contributions::kDouble}) {
            AlgorithmOptions options;
            options.contributions = c;
            for (const RunRequest& r : gpu_requests(graph, a, 1, options)) requests.push_back(r);
          }
          const std::string what = shape + ", " + orientation_name(o);
          SCOPED_TRACE(what + ", TG_HUB_TILES=" + shape_env + (ids64 ? ", 64-bit ids" : ""));
          std::vector<RunOutput> gpu = run_batch_on_gpu(graph, requests, device());
          expect_as_on_cpu(graph, requests, gpu, what);
          const uint64_t in_edges = std::visit([](const auto& g) { return uint64_t(g.in_edges().num_edges()); }, graph);
          for (const RunOutput& out : gpu) EXPECT_EQ(out.stats.edges_traversed, out.stats.iterations * in_edges);
        }
  }
}

TEST(GpuHubTiles, BuiltForLongListsOnlyAndHubsFirstByDefault) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  AnyGraph graph = gpu_graph("kron_large", a, Orientation::kUndirected, false);
  const RunRequest r = prepare_request(graph, make_request(a, Sources{}, {}));
  {
    ScopedEnv tiles("TG_HUB_TILES", "4:64");
    EXPECT_TRUE(built_tiles(graph, r));
  }
  {
    ScopedEnv tiles("TG_HUB_TILES", "1000000000:64");
    EXPECT_FALSE(built_tiles(graph, r)) << "no list that long";
  }
  EXPECT_FALSE(built_tiles(graph, r)) << "ids not hubs first";
  // A star of 2^13 leaves renumbered hubs first: its centre's list (8191
  // entries) is over the default's 4096.
  EdgeList e;
  e.num_vertices = uint64_t{1} << 13;
  for (uint64_t v = 1; v < e.num_vertices; ++v) e.src.push_back(v), e.dst.push_back(0);
  const AnyGraph star = build_variant(e, Orientation::kUndirected, false);
  const Renumbering renumbered = renumber(star, VertexOrder::kDegree);
  const RunRequest sr = prepare_request(renumbered.graph, make_request(a, Sources{}, {}));
  EXPECT_TRUE(built_tiles(renumbered.graph, sr));
  RunOutput out = run_on_gpu(renumbered.graph, sr, device());
  EXPECT_TRUE(agrees(a, out.values, run_on_cpu(renumbered.graph, sr).values));
}

// The tiles' binary searches need sorted lists: a hub's list out of order is
// found while building, and the gather reads the lists as they are.
TEST(GpuHubTiles, UnsortedHubListTurnsThemOff) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  AnyGraph graph = gpu_graph("kron_large", a, Orientation::kUndirected, false);
  auto& g = std::get<Graph<uint32_t>>(graph);
  uint64_t swapped = 0;
  for (uint64_t v = 0; v < g.num_vertices && swapped < 10; ++v) {
    const eid_t b = g.out.offsets[v], e = g.out.offsets[v + 1];
    if (e - b >= 64 && g.out.neighbors[b] != g.out.neighbors[e - 1]) {
      std::swap(g.out.neighbors[b], g.out.neighbors[e - 1]);
      ++swapped;
    }
  }
  ASSERT_GT(swapped, 0u);
  ScopedEnv tiles("TG_HUB_TILES", "4:64");
  const RunRequest r = prepare_request(graph, make_request(a, Sources{}, {}));
  EXPECT_FALSE(built_tiles(graph, r));
  RunOutput out = run_on_gpu(graph, r, device());
  EXPECT_TRUE(agrees(a, out.values, run_on_cpu(graph, r).values));
  EXPECT_TRUE(passes_verifier(a, graph, r.sources, out.values, r.options));
}

}  // namespace
}  // namespace tg::test::gpu
