// --checkpoint / --resume on the GPU engine and the hybrid engine, end to end
// as tests/cli/checkpoint_algorithms_test.cc does on the CPU engine: runs
// killed by SIGKILL right after a checkpoint and resumed write the
// uninterrupted run's result byte for byte (the state crosses by the engines'
// copies, engines/engine.h CopiesArrays). bc is left out: its dependencies are
// summed by atomic adds in an order that differs between GPU runs.
#include <gtest/gtest.h>

#include <string>

#include "gpu/gpu_checks.h"
#include "support/checkpoint_runs.h"

namespace tg::test {
namespace {

struct GpuCase {
  std::string name;
  std::string run;
  bool exact_steps;
};
void PrintTo(const GpuCase& c, std::ostream* os) { *os << c.name; }

std::vector<GpuCase> cases() {
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"pagerank", "run pagerank --graph kron:11 --tolerance 1e-10"},
      {"bfs_kron", "run bfs --graph kron:11"},
      {"bfs_urand_undirected", "run bfs --graph urand:11:ef=2 -u"},
      {"cc_sampled", "run cc --graph kron:11 -u"},
      {"cc_link_all", "run cc --graph kron:11"},
      {"sssp_float", "run sssp --graph kron:11 --weights 1:255"},
      {"sssp_double", "run sssp --graph urand:11 --weights 1:64 --delta 3"},
      {"sswp", "run sswp --graph kron:11 -u --weights 1:255"},
      {"ssnsp_kron", "run ssnsp --graph kron:11"},
  };
  std::vector<GpuCase> all;
  for (const auto& [name, run] : runs) {
    // The GPU's threads improve a bucket's vertices in an order of their own: the steps vary, the distances not.
    const bool exact = name.rfind("sssp", 0) != 0 && name.rfind("sswp", 0) != 0;
    all.push_back({"gpu_device_" + name, run + " --engine gpu --placement device", exact});
    all.push_back({"gpu_subgraph_" + name, run + " --engine gpu --placement subgraph --gpu-mem 64K", exact});
    // A fixed share: each vertex is summed by one side, the same side in every run.
    all.push_back({"hybrid_" + name, run + " --engine hybrid --cpu-share 0.5 --threads 2", exact});
  }
  return all;
}

class CheckpointGpu : public ::testing::TestWithParam<GpuCase> {};

TEST_P(CheckpointGpu, KilledAndResumedEqualsUninterrupted) {
  if (!gpu::have_gpu()) GTEST_SKIP() << "no usable GPU";
  expect_killed_and_resumed_equal(GetParam().name, GetParam().run, GetParam().exact_steps);
}

// The subgraph placement runs SSSP at a quarter of the device placement's
// bucket width (GpuEngine::bucket_width_scale): its checkpoint, resumed on
// the device placement, names a bucket of the other width, and the resumed
// run starts from every reached vertex (settle_in_order_checkpointed); its
// distances equal the uninterrupted device run's, byte for byte.
TEST(CheckpointGpuWidths, SubgraphCheckpointResumedOnDevice) {
  if (!gpu::have_gpu()) GTEST_SKIP() << "no usable GPU";
  const std::string run = "run sssp --graph kron:11 --weights 1:255 --engine gpu";
  const std::string plain = ::testing::TempDir() + "/tg_ckpt_widths_plain.txt";
  ASSERT_EQ(run_tiergraph(run + " --placement device --output " + plain).exit_code, 0);
  for (int kill_at : {1, 3, 6}) {
    const std::string what = "killed after bucket " + std::to_string(kill_at);
    const std::string dir = fresh_dir("widths" + std::to_string(kill_at));
    run_killed_after(run + " --placement subgraph --gpu-mem 64K", dir, 1, kill_at, what);
    if (::testing::Test::HasFatalFailure()) return;
    const std::string resumed = dir + "/resumed.txt";
    record_of(run_tiergraph(run + " --placement device --json --resume " + dir + " --output " + resumed), what);
    EXPECT_EQ(read_text_file(resumed), read_text_file(plain)) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, CheckpointGpu, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<GpuCase>& info) { return info.param.name; });

}  // namespace
}  // namespace tg::test
