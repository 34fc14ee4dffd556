// --host-mem on the GPU (docs/HOST-MEM.md): the stream placement reading its
// partitions from the graph's .tgb file (mapped, its edges never touched by
// the engine) into pinned page buffers, against the CPU engine, on every
// shape directed (with its CSC) and undirected, both id widths, with a GPU
// budget that cuts the graphs into many partitions; the bytes it read from
// the file are counted; a host budget too small for its buffers is refused
// in one line, as are the other placements.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "formats/load_graph.h"
#include "formats/readers.h"
#include "gpu/gpu_checks.h"

namespace tg::test::gpu {
namespace {

// The graph stored as a .tgb and mapped back, as `run --host-mem` loads it.
struct Stored {
  std::string path;
  AnyGraph graph;
  ~Stored() { std::remove(path.c_str()); }
};

std::unique_ptr<Stored> stored(const AnyGraph& graph, const std::string& name) {
  auto s = std::make_unique<Stored>();
  s->path = ::testing::TempDir() + "/tg_host_mem_gpu_" + std::to_string(::getpid()) + "_" + name + ".tgb";
  write_binary_graph(graph, s->path, false);
  s->graph = read_binary_graph(s->path, TgbLoad::kMap);
  return s;
}

GpuOptions from_file(const std::string& path, const AnyGraph& graph, uint64_t host_budget) {
  GpuOptions o;
  o.placement = Placement::kStream;
  o.memory_budget = std::max<uint64_t>(8192, num_edges(graph) * 12 / 8);  // many partitions
  o.edge_file = path;
  o.host_mem_budget = host_budget;
  return o;
}

TEST(GpuHostMem, StreamFromTheFileMatchesCpuOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  uint64_t seed = 1;
  for (const char* name : {"bfs", "sssp", "cc", "pagerank", "sswp"}) {
    const AlgorithmInfo& a = algorithm(name);
    for (const std::string& shape : gpu_shapes())
      for (Orientation o : {Orientation::kDirected, Orientation::kUndirected})
        for (bool ids64 : {false, true}) {
          const std::string what = std::string(name) + ", " + shape + ", " + orientation_name(o) + (ids64 ? ", 64-bit" : "");
          SCOPED_TRACE(what);
          const std::unique_ptr<Stored> s = stored(gpu_graph(shape, a, o, ids64), "shape");
          if (num_edges(s->graph) == 0) continue;
          const std::vector<RunRequest> requests = gpu_requests(s->graph, a, seed++);
          if (requests.empty()) continue;
          const std::vector<RunOutput> gpu = run_batch_on_gpu(s->graph, requests, from_file(s->path, s->graph, 1ull << 30));
          expect_as_on_cpu(s->graph, requests, gpu, what);
          for (const RunOutput& out : gpu) {
            ASSERT_TRUE(out.stats.stream.has_value());
            EXPECT_GT(out.stats.stream->host_buffer_bytes, 0u);
          }
          // Every partition a run copied came from the file: at least its
          // bytes were read (whole pages; counted over the placement's life).
          uint64_t disk = 0, moved = 0;
          for (const RunOutput& out : gpu) {
            disk = std::max(disk, out.stats.stream->disk_bytes);
            moved = std::max(moved, out.stats.bytes_moved);
          }
          EXPECT_GE(disk, moved) << what;
        }
  }
}

// The hybrid engine with --host-mem: the GPU's stream placement from the file
// and the paged CPU engine as its CPU side (half the budget each), PageRank's
// gathers split between them. kron:14 (2 MB of edges): each half holds the
// offsets and a megabyte, so the CPU side reads windows from the file, and
// the GPU's partitions are small (a 64 KiB device budget), so its page
// buffers fit its half.
TEST(GpuHostMem, HybridGathersFromTheFileOnBothSides) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  for (bool undirected : {false, true}) {
    LoadOptions lo;
    lo.build.undirected = undirected;
    lo.build.in_edges = true;
    const std::unique_ptr<Stored> s = stored(load_graph("kron:14", lo), undirected ? "hybrid_u" : "hybrid_d");
    SCOPED_TRACE(undirected ? "undirected" : "directed");
    const RunRequest r = prepare_request(s->graph, make_request(a, Sources{}, {}));
    const uint64_t offsets = (num_vertices(s->graph) + 1) * sizeof(eid_t) * 2;
    GpuOptions g = from_file(s->path, s->graph, 2 * (offsets + (1u << 20)));
    g.memory_budget = 64u << 10;
    HybridOptions h;
    h.cpu_share = 0.5;
    RunOutput out = run_on_hybrid(s->graph, r, g, h);
    EXPECT_TRUE(agrees(a, out.values, run_on_cpu(s->graph, r).values));
    EXPECT_TRUE(passes_verifier(a, s->graph, r.sources, out.values, r.options));
    ASSERT_TRUE(out.stats.hybrid);
    EXPECT_GT(out.stats.hybrid->edges_cpu, 0u);
    EXPECT_GT(out.stats.hybrid->edges_gpu, 0u);
    ASSERT_TRUE(out.stats.paging) << "the CPU half holds less than the edges: paged";
    EXPECT_TRUE(out.stats.paging->paged);
    EXPECT_GT(out.stats.paging->disk_bytes, 0u);
    ASSERT_TRUE(out.stats.stream);
    EXPECT_GT(out.stats.stream->disk_bytes, 0u);
  }
}

// The hybrid's GPU half too small for its partitions' page buffers: a 2 MiB
// device budget (slots of 256 KiB, the 1.9 MB graph streamed through two of
// them) against a half of the offsets and 256 KiB. The stream placement alone
// refuses that half naming only it; the hybrid says the budget was halved.
TEST(GpuHostMem, TheHybridNamesTheHalfItGaveTheGpu) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  LoadOptions lo;
  lo.build.undirected = true;
  lo.build.in_edges = true;
  const std::unique_ptr<Stored> s = stored(load_graph("kron:14", lo), "hybrid_half");
  const RunRequest r = prepare_request(s->graph, make_request(a, Sources{}, {}));
  const uint64_t half = (num_vertices(s->graph) + 1) * sizeof(eid_t) * 2 + (256u << 10);
  GpuOptions alone = from_file(s->path, s->graph, half);
  alone.memory_budget = 2u << 20;
  try {
    run_batch_on_gpu(s->graph, {r}, alone);
    FAIL() << "the stream placement's page buffers fit " << half << " bytes: the test's sizes are off";
  } catch (const Error& e) {
    ASSERT_NE(std::string(e.what()).find("too small for the stream placement"), std::string::npos) << e.what();
  }
  try {
    GpuOptions g = from_file(s->path, s->graph, 2 * half);
    g.memory_budget = 2u << 20;
    run_on_hybrid(s->graph, r, g, HybridOptions{});
    ADD_FAILURE() << "the GPU's half of " << 2 * half << " bytes held what the placement alone refused";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::kUsage) << what;
    EXPECT_NE(what.find("--engine hybrid gives half of --host-mem " + std::to_string(2 * half)), std::string::npos) << what;
    EXPECT_NE(what.find("too small for the stream placement"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
}

TEST(GpuHostMem, TooSmallABudgetAndOtherPlacementsAreRefused) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const std::unique_ptr<Stored> s = stored(gpu_graph("kron_large", algorithm("bfs"), Orientation::kUndirected, false), "refuse");
  const std::vector<RunRequest> bfs = gpu_requests(s->graph, algorithm("bfs"), 3);
  try {
    run_batch_on_gpu(s->graph, bfs, from_file(s->path, s->graph, 4096));
    ADD_FAILURE() << "a host budget of one page was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("too small for the stream placement"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
  GpuOptions zero_copy = from_file(s->path, s->graph, 1ull << 30);
  zero_copy.placement = Placement::kZeroCopyAligned;
  try {
    run_batch_on_gpu(s->graph, bfs, zero_copy);
    ADD_FAILURE() << "zero-copy from the file was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--placement stream only"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tg::test::gpu
