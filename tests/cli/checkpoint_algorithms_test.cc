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

#include "support/run_program.h"

namespace {

using tg::test::count_lines;
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
    {"bfs_kron", "run bfs --graph kron:11 --engine cpu --threads 2"},
    {"bfs_urand_undirected", "run bfs --graph urand:11:ef=2 -u --engine cpu --threads 2"},
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

std::string fresh_dir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "/tg_ckpt_algo_" + name;
  std::filesystem::remove_all(dir);
  return dir;
}

nlohmann::json record_of(const ProgramResult& r, const std::string& what) {
  EXPECT_EQ(r.exit_code, 0) << what << ": " << r.err;
  if (r.exit_code != 0) return nlohmann::json::object({{"iterations", -1}, {"edges_traversed", 0}});
  return nlohmann::json::parse(r.out);
}

// The iteration a checkpoint file holds (checkpoint/checkpoint.h's format:
// magic, two strings, three numbers, then the iteration).
int saved_iteration(const std::string& file) {
  const std::string bytes = read_text_file(file);
  size_t at = 8;
  auto u64 = [&]() {
    uint64_t v = 0;
    for (int i = 0; i < 8 && at + i < bytes.size(); ++i) v |= uint64_t{static_cast<uint8_t>(bytes[at + i])} << (8 * i);
    at += 8;
    return v;
  };
  for (int s = 0; s < 2; ++s) at += u64();
  for (int k = 0; k < 3; ++k) u64();
  return static_cast<int>(u64());
}

void expect_exit(const ProgramResult& r, int code, const std::string& fragment) {
  EXPECT_EQ(r.exit_code, code) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
}

class CheckpointAlgorithms : public ::testing::TestWithParam<Case> {};

TEST_P(CheckpointAlgorithms, KilledAndResumedEqualsUninterrupted) {
  const Case& c = GetParam();
  const std::string name = c.name;
  // Checkpointing changes no result: a run with checkpoints after every
  // iteration writes what a run without writes, and its last checkpoint
  // names the run's iterations.
  const std::string plain = ::testing::TempDir() + "/tg_ckpt_algo_plain_" + name + ".txt";
  ASSERT_EQ(run_tiergraph(c.run + " --output " + plain).exit_code, 0);
  const std::string all_dir = fresh_dir(name + "_all");
  const std::string full = all_dir + "/full.txt";
  record_of(run_tiergraph(c.run + " --json --checkpoint " + all_dir + " --checkpoint-every 1 --output " + full), name);
  ASSERT_EQ(read_text_file(full), read_text_file(plain)) << name;
  const int last = saved_iteration(all_dir + "/checkpoint.tgc");
  ASSERT_GE(last, 1) << name;

  std::mt19937 rng(2026);
  for (int round = 0; round < 4; ++round) {
    // Three at random, then right after the last iteration.
    int every = 1 + static_cast<int>(rng() % 3);
    if (every > last) every = 1;
    int kill_at = every * (1 + static_cast<int>(rng() % (last / every)));
    if (round == 3) every = 1, kill_at = last;
    const std::string what = name + ", every " + std::to_string(every) + ", killed after " + std::to_string(kill_at) +
                             " of " + std::to_string(last);
    // The uninterrupted run saving as often (sssp and sswp rebuild their
    // waiting vertices at each checkpoint, which orders later steps).
    const std::string ref_dir = fresh_dir(name + "_ref" + std::to_string(round));
    const nlohmann::json ref = record_of(
        run_tiergraph(c.run + " --json --checkpoint " + ref_dir + " --checkpoint-every " + std::to_string(every)), what);

    const std::string dir = fresh_dir(name + "_kill" + std::to_string(round));
    setenv("TG_CHECKPOINT_KILL_AFTER", std::to_string(kill_at).c_str(), 1);  // the child inherits it
    const ProgramResult killed = run_tiergraph(c.run + " --checkpoint " + dir + " --checkpoint-every " +
                                               std::to_string(every) + " --output " + dir + "/never.txt");
    unsetenv("TG_CHECKPOINT_KILL_AFTER");
    EXPECT_EQ(killed.exit_code, 128 + 9) << what << ": " << killed.err;
    EXPECT_FALSE(std::filesystem::exists(dir + "/never.txt")) << what;
    ASSERT_TRUE(std::filesystem::exists(dir + "/checkpoint.tgc")) << what;
    EXPECT_EQ(saved_iteration(dir + "/checkpoint.tgc"), kill_at) << what;

    const std::string resumed = dir + "/resumed.txt";
    const nlohmann::json r = record_of(run_tiergraph(c.run + " --json --resume " + dir + " --checkpoint-every " +
                                                     std::to_string(every) + " --output " + resumed),
                                       what);
    EXPECT_EQ(read_text_file(resumed), read_text_file(full)) << what;
    EXPECT_EQ(r.at("iterations").get<int>(), ref.at("iterations").get<int>()) << what;
    // It did resume: it read fewer edges than the whole run, none after the last iteration.
    const uint64_t edges = r.at("edges_traversed").get<uint64_t>();
    EXPECT_LT(edges, ref.at("edges_traversed").get<uint64_t>()) << what;
    if (kill_at == last) EXPECT_EQ(edges, 0u) << what;
  }
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
