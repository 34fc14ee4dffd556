// --checkpoint / --resume of bfs and ssnsp (an iteration: a level), cc (a
// round or phase), sssp and sswp (a bucket settled), bc (a source), end to end, as
// checkpoint_test.cc does for PageRank: on a few generated graph shapes, runs
// killed by SIGKILL right after a checkpoint (TG_CHECKPOINT_KILL_AFTER, at
// iterations picked at random with a fixed seed) and resumed give the
// uninterrupted run's result file byte for byte and its iteration count, and
// read fewer edges than it (none when killed after the last iteration: they
// did resume); a checkpoint of another algorithm, another graph (edges or
// weights), another source or other options is refused in one line.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <random>
#include <string>

#include "support/checkpoint_runs.h"
#include "support/run_program.h"

namespace {

using tg::test::expect_exit;
using tg::test::expect_killed_and_resumed_equal;
using tg::test::fresh_dir;
using tg::test::ProgramResult;
using tg::test::read_text_file;
using tg::test::run_tiergraph;

struct Case {
  const char* name;
  std::string run;  // the command, without --checkpoint/--resume/--output
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// One thread where the step count depends on the order threads improve
// vertices in (sssp, sswp, cc's hooking rounds); the results never do.
const Case kCases[] = {
    {"pagerank", "run pagerank --graph kron:11 --tolerance 1e-10 --engine cpu --threads 2"},  // killed after the last too
    {"bfs_kron", "run bfs --graph kron:11 --engine cpu --threads 2"},
    {"bfs_urand_undirected", "run bfs --graph urand:11:ef=2 -u --engine cpu --threads 2"},
    {"bfs_push_only", "run bfs --graph kron:11 -u --push-only --engine cpu --threads 2"},
    {"cc_sampled", "run cc --graph kron:11 -u --engine cpu --threads 2"},
    {"cc_link_all", "run cc --graph kron:11 --engine cpu --threads 2"},  // directed, no in-edges: one phase
    {"cc_sv", "run cc --cc-method sv --graph urand:11:ef=2 --engine cpu --threads 1"},
    {"sssp_float", "run sssp --graph kron:11 --weights 1:255 --engine cpu --threads 1"},
    {"sssp_double", "run sssp --graph urand:11 --weights 1:64 --delta 3 --engine cpu --threads 1"},
    {"sswp", "run sswp --graph kron:11 -u --weights 1:255 --engine cpu --threads 1"},
    {"ssnsp_kron", "run ssnsp --graph kron:11 --engine cpu --threads 2"},
    {"ssnsp_urand_undirected", "run ssnsp --graph urand:11:ef=2 -u --engine cpu --threads 2"},
    // bc's dependencies are summed by atomic adds: bit-identical with one thread.
    {"bc_sources", "run bc --graph kron:10 -u --sources 7 --engine cpu --threads 1"},
    {"bc_accumulative", "run bc --graph urand:10 --sources 5 --accumulative --engine cpu --threads 1"},
};

class CheckpointAlgorithms : public ::testing::TestWithParam<Case> {};

TEST_P(CheckpointAlgorithms, KilledAndResumedEqualsUninterrupted) {
  expect_killed_and_resumed_equal(GetParam().name, GetParam().run);
}

INSTANTIATE_TEST_SUITE_P(Shapes, CheckpointAlgorithms, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

TEST(CheckpointAlgorithmsRefusal, ACheckpointOfAnotherRunIsRefused) {
  const std::string bfs = "run bfs --graph kron:11 --engine cpu --source 1 ";
  const std::string dir = fresh_dir("refuse_bfs");
  ASSERT_EQ(run_tiergraph(bfs + "--checkpoint " + dir + " --checkpoint-every 1").exit_code, 0);
  // Another algorithm, on the same graph and source.
  expect_exit(run_tiergraph("run sssp --graph kron:11 --weights 1:9 --engine cpu --source 1 --resume " + dir), 3,
              "a checkpoint of bfs, not of sssp");
  expect_exit(run_tiergraph("run cc --graph kron:11 --engine cpu --resume " + dir), 3, "a checkpoint of bfs, not of cc");
  // Another graph: other edges, same size.
  expect_exit(run_tiergraph("run bfs --graph kron:11:seed=5 --engine cpu --source 1 --resume " + dir), 3,
              "another graph");
  // Another source: the source is part of the key.
  expect_exit(run_tiergraph("run bfs --graph kron:11 --engine cpu --source 2 --resume " + dir), 3, "other options");

  const std::string sssp = "run sssp --graph kron:11 --weights 1:255 --engine cpu --source 1 ";
  const std::string sdir = fresh_dir("refuse_sssp");
  ASSERT_EQ(run_tiergraph(sssp + "--checkpoint " + sdir + " --checkpoint-every 2").exit_code, 0);
  expect_exit(run_tiergraph("run sssp --graph kron:11 --weights 1:255 --engine cpu --source 3 --resume " + sdir), 3,
              "other options");
  expect_exit(run_tiergraph(sssp + "--delta 7 --resume " + sdir), 3, "other options");
  // The same edges with other weights is another graph.
  expect_exit(run_tiergraph(sssp + "--weight-seed 9 --resume " + sdir), 3, "another graph");
  expect_exit(run_tiergraph("run sswp --graph kron:11 --weights 1:255 --engine cpu --source 1 --resume " + sdir), 3,
              "a checkpoint of sssp, not of sswp");

  // bc's key is its sources, in order, and its form.
  const std::string bdir = fresh_dir("refuse_bc");
  ASSERT_EQ(run_tiergraph("run bc --graph kron:10 --sources 3 --engine cpu --checkpoint-every 1 --checkpoint " + bdir)
                .exit_code,
            0);
  expect_exit(run_tiergraph("run bc --graph kron:10 --sources 4 --engine cpu --resume " + bdir), 3, "other options");
  expect_exit(run_tiergraph("run bc --graph kron:10 --sources 3 --accumulative --engine cpu --resume " + bdir), 3,
              "other options");
  expect_exit(run_tiergraph("run ssnsp --graph kron:10 --engine cpu --resume " + bdir), 3,
              "a checkpoint of bc, not of ssnsp");

  const std::string cdir = fresh_dir("refuse_cc");
  ASSERT_EQ(run_tiergraph("run cc --graph kron:11 -u --engine cpu --checkpoint " + cdir + " --checkpoint-every 1")
                .exit_code,
            0);
  expect_exit(run_tiergraph("run cc --cc-method sv --graph kron:11 -u --engine cpu --resume " + cdir), 3,
              "other options");
}

TEST(CheckpointAlgorithmsRefusal, FormsThatCannotResumeExactlyAreRefused) {
  const std::string dir = fresh_dir("refuse_forms");
  expect_exit(run_tiergraph("run bfs --graph kron:10 --engine cpu --accumulative --checkpoint " + dir), 2,
              "--accumulative");
  expect_exit(run_tiergraph("run ssnsp --graph kron:10 --engine cpu --accumulative --checkpoint " + dir), 2,
              "--accumulative");
}

}  // namespace
