// --checkpoint / --resume end to end (issue 12, part 4): a PageRank run
// killed with SIGKILL right after a checkpoint (TG_CHECKPOINT_KILL_AFTER, at
// iterations picked at random with a fixed seed) and resumed gives exactly
// the uninterrupted run's result file and iteration count; a run killed
// before its first checkpoint resumes from the start; a checkpoint of
// another graph, other options, or a corrupt or torn one is refused in one
// line, as are the runs that cannot checkpoint yet. The other algorithms:
// checkpoint_algorithms_test.cc.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "support/checkpoint_runs.h"
#include "support/run_program.h"

namespace {

using tg::test::expect_exit;
using tg::test::fresh_dir;
using tg::test::run_killed_after;
using tg::test::ProgramResult;
using tg::test::run_tiergraph;

const std::string kRun = "run pagerank --graph kron:12 --engine cpu --threads 2 --tolerance 1e-10 ";

int iterations_of(const ProgramResult& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out).at("iterations").get<int>();
}

TEST(Checkpoint, KilledAndResumedEqualsUninterrupted) {
  const std::string full = ::testing::TempDir() + "/tg_ckpt_full.txt";
  const int total = iterations_of(run_tiergraph(kRun + "--json --output " + full));
  ASSERT_GT(total, 12);
  std::mt19937 rng(2026);
  for (int round = 0; round < 3; ++round) {
    const int every = 1 + static_cast<int>(rng() % 3);
    const int kill_at = every * (1 + static_cast<int>(rng() % ((total - 1) / every)));
    const std::string dir = fresh_dir("kill" + std::to_string(round));
    const std::string what = "every " + std::to_string(every) + ", killed after " + std::to_string(kill_at);
    run_killed_after(kRun, dir, every, kill_at, what);
    const std::string resumed = dir + "/resumed.txt";
    const ProgramResult r = run_tiergraph(kRun + "--json --resume " + dir + " --checkpoint-every " +
                                          std::to_string(every) + " --output " + resumed);
    EXPECT_EQ(iterations_of(r), total) << what;
    EXPECT_EQ(tg::test::read_text_file(resumed), tg::test::read_text_file(full)) << what;
    // It did resume: it read the edges of the iterations after the kill only.
    const nlohmann::json record = nlohmann::json::parse(r.out);
    EXPECT_EQ(record.at("edges_traversed").get<uint64_t>(),
              static_cast<uint64_t>(total - kill_at) * record.at("graph").at("edges").get<uint64_t>())
        << what;
  }
}

TEST(Checkpoint, NothingSavedYetStartsFromTheBeginning) {
  const std::string full = ::testing::TempDir() + "/tg_ckpt_full2.txt";
  run_tiergraph(kRun + "--output " + full);
  const std::string dir = fresh_dir("empty");
  const ProgramResult r = run_tiergraph(kRun + "--resume " + dir + " --output " + dir + "/out.txt");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(tg::test::read_text_file(dir + "/out.txt"), tg::test::read_text_file(full));
  EXPECT_TRUE(std::filesystem::exists(dir + "/checkpoint.tgc"));  // and it saved as it went
}

TEST(Checkpoint, ACheckpointOfAnotherRunIsRefused) {
  const std::string dir = fresh_dir("other");
  ASSERT_EQ(run_tiergraph(kRun + "--checkpoint " + dir + " --checkpoint-every 4").exit_code, 0);
  expect_exit(run_tiergraph("run pagerank --graph kron:11 --engine cpu --tolerance 1e-10 --resume " + dir), 3,
              "another graph");
  expect_exit(run_tiergraph("run pagerank --graph kron:12 --seed 5 --engine cpu --tolerance 1e-10 --resume " + dir),
              3, "another graph");
  expect_exit(run_tiergraph("run pagerank --graph kron:12 --engine cpu --tolerance 1e-9 --resume " + dir), 3,
              "other options");
  // One byte flipped in the middle, then the file cut short.
  const std::string file = dir + "/checkpoint.tgc";
  std::string bytes = tg::test::read_text_file(file);
  bytes[bytes.size() / 2] ^= 0x40;
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  expect_exit(run_tiergraph(kRun + "--resume " + dir), 3, "checksum");
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes.substr(0, 12);
  expect_exit(run_tiergraph(kRun + "--resume " + dir), 3, "checkpoint");
}

TEST(Checkpoint, RunsThatCannotCheckpointAreRefused) {
  const std::string dir = fresh_dir("refused");
  expect_exit(run_tiergraph(kRun + "--accumulative --checkpoint " + dir), 2, "--accumulative");
  expect_exit(run_tiergraph(kRun + "--checkpoint " + dir + " --resume " + dir + "x"), 2, "give one folder");
  // The bound is a count a user can read, not a double's largest value.
  expect_exit(run_tiergraph(kRun + "--checkpoint " + dir + " --checkpoint-every 0"), 2,
              "--checkpoint-every: Value 0 not in range 1 to 1073741824");
}

}  // namespace
