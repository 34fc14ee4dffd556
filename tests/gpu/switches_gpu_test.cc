// The GPU engine's TG_* switches (docs/ENVIRONMENT.md) as a user sets them:
// each in the environment of a `tiergraph run ... --verify`, on a generated
// graph, on the placement whose code it changes. Until session 55 most were
// set only by measuring scripts, and one of them (TG_HEADS_GATHER) crashed the
// first time it ran on a GPU; several are read once a process (static), so
// each case is a process of its own. Every run must exit 0 with its result
// passing the algorithm's verifier; the tracers must also print their lines.
// Skipped without a GPU; the CPU engine's switches: tests/cli/switches_test.cc.
#include <gtest/gtest.h>

#include <vector>

#include "gpu/gpu_checks.h"
#include "support/switch_runs.h"

namespace tg::test {
namespace {

const std::vector<SwitchCase>& cases() {
  static const std::vector<SwitchCase> all = {
      // The gather in GPU memory (kernels/gather.cuh, sources/resident_source.cuh): the older ways.
      {"TG_GATHER_GROUPS", "0", "pagerank -p device"},
      {"TG_GATHER_GROUPS", "0", "cc -p device"},
      {"TG_GATHER_WARPS", "1", "pagerank -p device"},
      {"TG_GATHER_WARPS", "1", "bfs -p device"},
      // The direction switch (gpu_engine.cuh): pull at once, almost never, and the push's edge cost.
      {"TG_PULL_DIVISOR", "1", "bfs -p device"},
      {"TG_PULL_DIVISOR", "1000000000", "bfs -p device"},
      {"TG_PULL_DIVISOR", "1", "sssp -p device"},
      {"TG_PUSH_EDGE_COST", "0", "bfs -p device"},
      {"TG_PUSH_EDGE_COST", "1000", "cc -p device"},
      // Garaph's shards (gather_shards.cu): the fewest and most copies, the least and most shared memory.
      {"TG_SHARD_REPLICATION", "1", "pagerank -p device --gather-layout shards"},
      {"TG_SHARD_REPLICATION", "32", "pagerank -p device --gather-layout shards"},
      {"TG_SHARD_SHARED_KIB", "1", "pagerank -p device --gather-layout shards"},
      {"TG_SHARD_SHARED_KIB", "48", "pagerank -e hybrid -p device --gather-layout shards"},
      // The subgraph placement's loads and light lists (subcsr_builder.cu, placed_graph.cu).
      {"TG_LOAD_BLOCKS_PER_SM", "1", "sssp -p subgraph QUARTER"},
      {"TG_LOAD_BLOCKS_PER_SM", "1", "bfs -p subgraph QUARTER"},
      {"TG_LIGHT_LISTS_PERCENT", "1", "sssp -p subgraph QUARTER"},
      {"TG_LIGHT_LISTS_PERCENT", "90", "sssp -p subgraph QUARTER"},
      // The packed lists encoded on the GPU (packed_encoder.cu), pushed and gathered.
      {"TG_GPU_PACK", "1", "bfs -p subgraph QUARTER"},
      {"TG_GPU_PACK", "1", "pagerank -p stream QUARTER"},
      // A memory-mapped .tgb's arrays pinned in place (placed_graph.cu).
      {"TG_GPU_PIN_FILES", "1", "bfs -p zerocopy-aligned"},
      {"TG_GPU_PIN_FILES", "1", "sssp -p zerocopy-merged"},
      // The tracers, on a placement of each kind.
      {"TG_GPU_TRACE", "1", "bfs -p device", "tg-gpu"},
      {"TG_GPU_TRACE", "1", "cc -p subgraph QUARTER", "tg-gpu"},
      {"TG_GPU_TRACE", "1", "pagerank -p stream QUARTER", "tg-gpu"},
      {"TG_HYBRID_TRACE", "1", "pagerank -e hybrid -p device", "tg-hybrid"},
  };
  return all;
}

TEST(SwitchesGpu, EachRunsAndVerifies) {
  if (!gpu::have_gpu()) GTEST_SKIP() << "no usable GPU";
  for (const SwitchCase& c : cases()) expect_run_with_switch(c);
}

}  // namespace
}  // namespace tg::test
