// `tiergraph bench` on a GPU: the hybrid over subgraph places the graph for
// each algorithm apart, as the GPU's subgraph does (cli/bench_runner.cc), so
// CC beside PageRank keeps its heads cache (a batch of both would keep none:
// algorithms/algorithm.h, batch_reads) and reads its sample's heads from GPU
// memory. Skipped without a GPU.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "gpu/gpu_checks.h"
#include "support/run_program.h"

namespace tg::test {
namespace {

TEST(BenchGpu, TheHybridOverSubgraphKeepsCcsHeadsCacheBesidePageRank) {
  if (!gpu::have_gpu()) GTEST_SKIP() << "no usable GPU";
  const std::string graph = temp_path("bench_gpu_hybrid.tgb");
  ASSERT_EQ(run_tiergraph("generate kron:12 " + graph + " -q").exit_code, 0);
  const ProgramResult info = run_tiergraph("info " + graph + " --json");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const uint64_t edges = nlohmann::json::parse(info.out)["edges"].get<uint64_t>();
  const std::string out = temp_path("bench_gpu_hybrid");
  // Half the edge array's bytes: the placement streams, and the heads' two
  // planes fit half of that.
  for (const std::string placement : {"hybrid-subgraph", "subgraph"}) {
    SCOPED_TRACE(placement);
    const ProgramResult r = run_tiergraph("bench " + graph + " -a pagerank,cc -p " + placement +
                                          " -n 1 --threads 2 --gpu-mem " + std::to_string(edges * 2) +
                                          " --no-chart -o " + out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(read_text_file(out + ".json"));
    ASSERT_EQ(j["runs"].size(), 2u) << r.err;
    for (const nlohmann::json& run : j["runs"]) {
      SCOPED_TRACE(run.dump());
      EXPECT_EQ(run["verified"].get<std::string>(), "ok");
      if (run["algorithm"] == "cc") {
        ASSERT_TRUE(run["details"].contains("edge_cache"));
        EXPECT_EQ(run["details"]["edge_cache"]["heads"].get<int>(), 2);
        EXPECT_GT(run["details"]["edge_cache"]["bytes_read"].get<uint64_t>(), 0u);
      }
    }
  }
}

}  // namespace
}  // namespace tg::test
