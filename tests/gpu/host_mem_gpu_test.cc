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
#include <filesystem>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/error.h"
#include "engines/paged/edge_file.h"
#include "engines/paged/host_mem.h"
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
          // Without the host cache, then with all of the edges it can take.
          for (bool cache : {false, true}) {
            GpuOptions options = from_file(s->path, s->graph, 1ull << 30);
            options.host_edge_cache = cache;
            const std::vector<RunOutput> gpu = run_batch_on_gpu(s->graph, requests, options);
            expect_as_on_cpu(s->graph, requests, gpu, what + (cache ? ", host cache" : ""));
            uint64_t disk = 0, moved = 0, partitions = 0;
            for (const RunOutput& out : gpu) {
              ASSERT_TRUE(out.stats.stream.has_value());
              EXPECT_GT(out.stats.stream->host_buffer_bytes, 0u);
              if (!cache) EXPECT_EQ(out.stats.stream->host_cache_bytes, 0u);
              // Counted over the placement's life.
              disk = std::max(disk, out.stats.stream->disk_bytes);
              moved = std::max(moved, out.stats.bytes_moved);
              partitions = std::max(partitions, out.stats.stream->partitions);
            }
            // Without the cache every partition a run copied came from the
            // file: at least its bytes were read (whole pages). With all of
            // the streamed edges cached, each page once: no more than the
            // file holds, but for the pages two partitions share (the
            // resident ones', read whole) and the granule where the cache
            // starts, for each of two streamed arrays.
            if (!cache) EXPECT_GE(disk, moved) << what;
            if (cache)
              EXPECT_LE(disk, std::filesystem::file_size(s->path) + 2 * (partitions + 2) * paged::kPageBytes * 2) << what;
          }
        }
  }
}

// The host cache (file_partitions.h): what the offsets and page buffers
// leave of --host-mem keeps the edges past those resident in GPU memory in
// host memory once read. PageRank on kron:14 cut in many partitions, with no
// room for a cache, room for part of the streamed edges, and room for all:
// the same values each time, the cache within the rest of the budget, and
// the disk read less as it grows, down to each page once.
TEST(GpuHostMem, TheRestOfTheBudgetKeepsEdgesInHostMemory) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  LoadOptions lo;
  lo.build.undirected = true;
  const std::unique_ptr<Stored> s = stored(load_graph("kron:14", lo), "host_cache");
  const RunRequest r = prepare_request(s->graph, make_request(a, Sources{}, {}));
  const VertexValues reference = run_on_cpu(s->graph, r).values;
  const uint64_t offsets = (num_vertices(s->graph) + 1) * sizeof(eid_t);
  const uint64_t edge_bytes = num_edges(s->graph) * sizeof(uint32_t);
  auto run_with = [&](uint64_t host_budget) {
    GpuOptions g = from_file(s->path, s->graph, host_budget);
    g.memory_budget = 256u << 10;  // slots of 32 KiB: most partitions stream
    return run_batch_on_gpu(s->graph, {r}, g).front();
  };
  const RunOutput first = run_with(1ull << 30);
  ASSERT_TRUE(first.stats.stream);
  const uint64_t buffers = first.stats.stream->host_buffer_bytes;
  uint64_t last_disk = UINT64_MAX;
  for (uint64_t room : {uint64_t{0}, edge_bytes / 3, uint64_t{1} << 30}) {
    SCOPED_TRACE("room " + std::to_string(room));
    const RunOutput out = room == (uint64_t{1} << 30) ? first : run_with(offsets + buffers + room);
    EXPECT_TRUE(agrees(a, out.values, reference));
    ASSERT_TRUE(out.stats.stream);
    const uint64_t cache = out.stats.stream->host_cache_bytes;
    EXPECT_LE(cache, room);
    if (room == 0) EXPECT_EQ(cache, 0u);
    if (room > 0) EXPECT_GT(cache, 0u);
    EXPECT_LT(out.stats.stream->disk_bytes, last_disk) << "a larger cache, fewer bytes from the disk";
    last_disk = out.stats.stream->disk_bytes;
    EXPECT_GT(out.stats.iterations, 2u);
  }
  EXPECT_LE(last_disk, edge_bytes + 2 * paged::kPageBytes * first.stats.stream->partitions)
      << "every edge cached: each page read once (a partition's first and last pages perhaps twice)";
}

// A batch's runs share the host cache (subgraph::KeptSpan) and the GPU's
// resident partitions (subgraph::ResidentPartitions): a later PageRank finds
// every resident partition loaded, copies the cached part of the streamed
// edges from host memory, and reads from the file only the rest. A BFS
// between them (its own streamer, budget and spans) releases the gatherer's
// span and partitions, and the PageRank after it reads and copies as much as
// the first. kron:14 cut in many partitions, room for a third of its edges
// past the offsets and PageRank's buffers; each run equals the CPU's.
TEST(GpuHostMem, ABatchsLaterRunsCopyTheCacheFromMemory) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  LoadOptions lo;
  lo.build.undirected = true;
  const std::unique_ptr<Stored> s = stored(load_graph("kron:14", lo), "batch_cache");
  const RunRequest pr = prepare_request(s->graph, make_request(algorithm("pagerank"), Sources{}, {}));
  const RunRequest bfs = prepare_request(s->graph, make_request(algorithm("bfs"), Sources{0}, {}));
  GpuOptions g = from_file(s->path, s->graph, 1ull << 30);
  g.memory_budget = 256u << 10;  // slots of 32 KiB: most partitions stream
  const RunOutput alone = run_batch_on_gpu(s->graph, {pr}, g).front();
  ASSERT_TRUE(alone.stats.stream);
  const uint64_t offsets = (num_vertices(s->graph) + 1) * sizeof(eid_t);
  g.host_mem_budget = offsets + alone.stats.stream->host_buffer_bytes + num_edges(s->graph) * sizeof(uint32_t) / 3;
  const std::vector<RunOutput> out = run_batch_on_gpu(s->graph, {pr, pr, bfs, pr}, g);
  ASSERT_EQ(out.size(), 4u);
  const VertexValues pr_reference = run_on_cpu(s->graph, pr).values;
  for (size_t i : {0, 1, 3}) {
    SCOPED_TRACE("run " + std::to_string(i));
    EXPECT_TRUE(agrees(algorithm("pagerank"), out[i].values, pr_reference));
    ASSERT_TRUE(out[i].stats.stream);
    EXPECT_GT(out[i].stats.stream->host_cache_bytes, 0u);
  }
  EXPECT_TRUE(agrees(algorithm("bfs"), out[2].values, run_on_cpu(s->graph, bfs).values));
  const StreamStats &s0 = *out[0].stats.stream, &s1 = *out[1].stats.stream, &s3 = *out[3].stats.stream;
  ASSERT_GT(s0.resident_partitions, 0u);
  EXPECT_EQ(s0.resident_carried, 0u);
  EXPECT_EQ(s1.resident_carried, s1.resident_partitions) << "a PageRank loads every resident partition";
  EXPECT_EQ(s1.copies + s0.resident_partitions, s0.copies) << "the resident partitions not copied again";
  EXPECT_EQ(s1.resident_hits, s0.resident_hits + s0.resident_partitions);
  EXPECT_LT(s1.disk_bytes + s0.host_cache_bytes, s0.disk_bytes)
      << "neither the cache's pages nor the resident partitions read again";
  EXPECT_EQ(out[2].stats.stream->resident_carried, 0u) << "the BFS pushes: nothing of its array was carried";
  EXPECT_EQ(s3.resident_carried, 0u) << "the BFS between released the gatherer's partitions";
  EXPECT_EQ(s3.copies, s0.copies);
  EXPECT_EQ(s3.disk_bytes, s0.disk_bytes) << "the BFS between released the gatherer's span";
  for (const RunOutput& o : out) EXPECT_GT(o.stats.phase("setup"), 0.0) << "each run's engine setup is timed";
}

// The hybrid engine with --host-mem: the GPU's stream placement from the file
// and the paged CPU engine as its CPU side, PageRank's gathers split between
// them. kron:14 (1 MiB an edge array) with a budget of the offsets and 1 MiB:
// the GPU's partitions are small (a 64 KiB device budget), so its page
// buffers are too; its host cache takes the rest but the CPU side's largest
// page buffers, and the CPU side, planned in what the GPU left, reads windows
// of the largest size from the file; the two sides together hold no more than
// the budget.
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
    GpuOptions g = from_file(s->path, s->graph, offsets + (1u << 20));
    g.memory_budget = 64u << 10;
    HybridOptions h;
    h.cpu_share = 0.5;
    RunOutput out = run_on_hybrid(s->graph, r, g, h);
    EXPECT_TRUE(agrees(a, out.values, run_on_cpu(s->graph, r).values));
    EXPECT_TRUE(passes_verifier(a, s->graph, r.sources, out.values, r.options));
    ASSERT_TRUE(out.stats.hybrid);
    EXPECT_GT(out.stats.hybrid->edges_cpu, 0u);
    EXPECT_GT(out.stats.hybrid->edges_gpu, 0u);
    ASSERT_TRUE(out.stats.paging) << "the CPU side holds less than the edges: paged";
    EXPECT_TRUE(out.stats.paging->paged);
    EXPECT_GT(out.stats.paging->disk_bytes, 0u);
    ASSERT_TRUE(out.stats.stream);
    EXPECT_GT(out.stats.stream->disk_bytes, 0u);
    const uint64_t gpu_bytes = out.stats.stream->host_buffer_bytes + out.stats.stream->host_cache_bytes;
    EXPECT_GT(out.stats.stream->host_buffer_bytes, 0u);
    EXPECT_GT(out.stats.stream->host_cache_bytes, 0u) << "the GPU keeps streamed edges in the rest";
    EXPECT_EQ(out.stats.paging->budget_bytes, g.host_mem_budget - gpu_bytes) << "the CPU side planned in what is left";
    EXPECT_LE(out.stats.paging->resident_bytes + gpu_bytes, g.host_mem_budget);
    const uint64_t cpu_offsets = (num_vertices(s->graph) + 1) * sizeof(eid_t) * (undirected ? 1 : 2);
    const uint64_t largest_window = std::visit(
        [&](const auto& graph) {
          const EdgeReads reads = edge_reads(r);
          return paged::plan_host_memory(graph, reads, cpu_offsets + paged::largest_buffers_bytes(graph, reads))
              .window_edges;
        },
        s->graph);
    EXPECT_EQ(out.stats.paging->window_edges, largest_window) << "the cache left the CPU side its largest windows";
  }
}

// The hybrid's budget: the GPU's stream placement checks its offsets and page
// buffers against the whole of it, as alone, and the CPU side is planned in
// what its buffers leave. kron:14 with a 2 MiB device budget (slots of 256
// KiB): a budget a byte short of the offsets and the GPU's buffers is refused
// by the placement; one that holds them with a page to spare leaves the CPU
// side less than its smallest buffers, and the hybrid says what the GPU took.
TEST(GpuHostMem, TheHybridNamesWhatItsGpuTookOfTheBudget) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const AlgorithmInfo& a = algorithm("pagerank");
  LoadOptions lo;
  lo.build.undirected = true;
  lo.build.in_edges = true;
  const std::unique_ptr<Stored> s = stored(load_graph("kron:14", lo), "hybrid_budget");
  const RunRequest r = prepare_request(s->graph, make_request(a, Sources{}, {}));
  const uint64_t offsets = (num_vertices(s->graph) + 1) * sizeof(eid_t);  // undirected: one CSR's
  GpuOptions alone = from_file(s->path, s->graph, 1ull << 30);
  alone.memory_budget = 2u << 20;
  const RunOutput measured = run_batch_on_gpu(s->graph, {r}, alone).front();
  ASSERT_TRUE(measured.stats.stream);
  const uint64_t gpu_buffers = measured.stats.stream->host_buffer_bytes;
  ASSERT_GT(gpu_buffers, 0u);
  auto refusal = [&](uint64_t budget) {
    GpuOptions g = alone;
    g.host_mem_budget = budget;
    try {
      run_on_hybrid(s->graph, r, g, HybridOptions{});
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUsage) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
      return std::string(e.what());
    }
    ADD_FAILURE() << "--host-mem " << budget << " was taken";
    return std::string();
  };
  EXPECT_NE(refusal(offsets + gpu_buffers - 1).find("too small for the stream placement"), std::string::npos);
  const uint64_t budget = offsets + gpu_buffers + 4096;
  const std::string what = refusal(budget);
  EXPECT_NE(what.find("--engine hybrid: the GPU's page buffers and host cache take " + std::to_string(gpu_buffers) +
                      " bytes of --host-mem " + std::to_string(budget)),
            std::string::npos)
      << what;
  EXPECT_NE(what.find("too small for this graph"), std::string::npos) << what;
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
