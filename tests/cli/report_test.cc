// The text summary of a run (cli/report.h): what `tiergraph run` prints
// without --json, here the several-GPU block (Graph500's per-level report).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "algorithms/algorithm.h"
#include "cli/report.h"
#include "engines/run.h"
#include "engines/run_stats.h"
#include "support/shapes.h"

namespace tg::test {
namespace {

std::string summary_of(const AnyGraph& graph, const RunReport& report) {
  char* text = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&text, &size);
  cli::print_summary(out, graph, report);
  std::fclose(out);
  std::string s(text, size);
  std::free(text);
  return s;
}

RunReport bfs_report(const AnyGraph& graph) {
  RunReport r;
  r.algorithm = find_algorithm("bfs");
  r.sources = {0};
  r.output = run_on_cpu(graph, prepare_request(graph, make_request(*r.algorithm, {0})));
  return r;
}

// A BFS on the grid whose record says it ran as `d` says.
std::string summary_with(const DistributedStats& d) {
  const AnyGraph graph = build_variant(find_shape("grid").edges, Orientation::kUndirected, false);
  RunReport r = bfs_report(graph);
  r.output.stats.distributed = d;
  return summary_of(graph, r);
}

TEST(RunSummary, SeveralGpusListTheirLevels) {
  DistributedStats d;
  d.gpus = 4;
  d.threshold = 32;
  d.delegates = 1234;
  d.bytes_exchanged = 3'000'000;
  d.levels.resize(3);
  d.levels[1].compute_s = 0.004;
  d.levels[1].communication_s = 0.0005;
  d.levels[1].bytes_exchanged = 2'500'000;
  d.levels[1].normals_exchanged = 777;
  d.levels[1].delegate_frontier = 55;
  d.levels[1].ranks_pulling = 3;
  d.levels[2].normals_pulled = true;
  const std::string s = summary_with(d);
  EXPECT_NE(s.find("  gpus       4, degree separation: TH 32"), std::string::npos) << s;
  EXPECT_NE(s.find("parts in GPU memory; levels: compute"), std::string::npos) << s;
  EXPECT_NE(s.find("3.00 MB exchanged"), std::string::npos) << s;
  EXPECT_NE(s.find("  level 1    compute 0.0040 s, communication 0.0005 s, 2.50 MB exchanged, 777 normals sent, "
                   "55 frontier delegates, bottom-up on 3 of 4"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("0 frontier delegates, normals bottom-up\n"), std::string::npos) << s;
  EXPECT_EQ(s.find("  level 3 "), std::string::npos) << s;
}

// A GPU run whose gather staged the hubs' values (engines/gpu/staged_values.h)
// says so in a line of its own and in the JSON details; one that staged none
// says nothing.
TEST(RunSummary, StagedValuesHaveALine) {
  const AnyGraph graph = build_variant(find_shape("grid").edges, Orientation::kUndirected, false);
  RunReport r = bfs_report(graph);
  r.output.stats.gpu.emplace();
  EXPECT_EQ(summary_of(graph, r).find("  staged "), std::string::npos);
  EXPECT_FALSE(details_json(r.output.stats).contains("staged_values"));
  r.output.stats.gpu->staged_values = 65536;
  const std::string s = summary_of(graph, r);
  EXPECT_NE(s.find("  staged     the first 65536 sources' values read from shared memory"), std::string::npos) << s;
  EXPECT_EQ(details_json(r.output.stats)["staged_values"], 65536);
}

// --host-mem's paging line: the CPU engine's budget, or the hybrid's CPU
// side's share of it (what the GPU's stream placement left).
TEST(RunSummary, PagingSaysWhoseBudget) {
  const AnyGraph graph = build_variant(find_shape("grid").edges, Orientation::kUndirected, false);
  RunReport r = bfs_report(graph);
  PagingStats p;
  p.paged = true;
  p.budget_bytes = 3u << 20;
  p.edge_bytes = 8u << 20;
  r.output.stats.paging = p;
  std::string s = summary_of(graph, r);
  EXPECT_NE(s.find("  host-mem   3.15 MB budget, 8.39 MB of edges paged from the file"), std::string::npos) << s;
  r.output.stats.hybrid.emplace();
  s = summary_of(graph, r);
  EXPECT_NE(s.find("  host-mem   CPU side: 3.15 MB of the budget, 8.39 MB of edges paged from the file"), std::string::npos)
      << s;
}

TEST(RunSummary, ManyLevelsAreCut) {
  DistributedStats d;
  d.gpus = 2;
  d.parts_in_host_memory = 2;
  d.levels.resize(40);
  const std::string s = summary_with(d);
  EXPECT_NE(s.find("parts in host memory (zero-copy); levels: compute"), std::string::npos) << s;
  EXPECT_NE(s.find("  level 31 "), std::string::npos) << s;
  EXPECT_EQ(s.find("  level 32 "), std::string::npos) << s;
  EXPECT_NE(s.find("... 8 more (--json lists every level)"), std::string::npos) << s;
}

TEST(RunSummary, PartsInHostMemoryReportTheirReadRate) {
  DistributedStats d;
  d.gpus = 4;
  d.parts_in_host_memory = 4;
  d.levels.resize(3);
  for (DistributedLevel& l : d.levels) {
    l.host_bytes_read = 40'000'000'000;
    l.host_read_s = 0.25;
  }
  d.levels[2].host_read_s = 0.5;
  EXPECT_EQ(d.host_bytes_read(), 120'000'000'000u);
  EXPECT_DOUBLE_EQ(d.host_read_s(), 1.0);
  const std::string s = summary_with(d);
  EXPECT_NE(s.find("  host reads 120.00 GB of lists over the links in 1.0000 s: at least 120.0 GB/s"), std::string::npos)
      << s;
  RunStats stats;
  stats.distributed = d;
  const nlohmann::json j = details_json(stats)["distributed"];
  EXPECT_EQ(j["host_read"]["bytes"], 120'000'000'000u);
  EXPECT_DOUBLE_EQ(j["host_read"]["gb_per_s"].get<double>(), 120.0);
  EXPECT_EQ(j["levels"][2]["host_bytes_read"], 40'000'000'000u);
  // In GPU memory nothing is read over the links: no line, no key.
  const std::string in_gpu = summary_with(DistributedStats{.gpus = 2, .levels = std::vector<DistributedLevel>(2)});
  EXPECT_EQ(in_gpu.find("host reads"), std::string::npos) << in_gpu;
  RunStats in_gpu_stats;
  in_gpu_stats.distributed = DistributedStats{.gpus = 2};
  EXPECT_FALSE(details_json(in_gpu_stats)["distributed"].contains("host_read"));
}

TEST(RunSummary, OneGpuHasNoGpusBlock) {
  const AnyGraph graph = build_variant(find_shape("grid").edges, Orientation::kUndirected, false);
  const std::string s = summary_of(graph, bfs_report(graph));
  EXPECT_EQ(s.find("  gpus "), std::string::npos) << s;
  EXPECT_NE(s.find("  result "), std::string::npos) << s;
}

}  // namespace
}  // namespace tg::test
