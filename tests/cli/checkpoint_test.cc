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

#include "checkpoint/checkpoint.h"
#include "core/error.h"
#include "formats/checksum.h"
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
  // Saved at iteration 4 or later: a run that would have stopped at 3 cannot go on from there.
  expect_exit(run_tiergraph(kRun + "--max-iters 3 --resume " + dir), 3, ", past --max-iters 3");
  // One byte flipped in the middle, then the file cut short.
  const std::string file = dir + "/checkpoint.tgc";
  std::string bytes = tg::test::read_text_file(file);
  bytes[bytes.size() / 2] ^= 0x40;
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  expect_exit(run_tiergraph(kRun + "--resume " + dir), 3, "checksum");
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes.substr(0, 12);
  expect_exit(run_tiergraph(kRun + "--resume " + dir), 3, "checkpoint");
}

// Behind a matching checksum (a file made by hand, not torn), each field is
// still checked: the reader stops at the first one out of bounds.
TEST(Checkpoint, EveryFieldBehindTheChecksumIsChecked) {
  const std::string dir = fresh_dir("fields");
  const tg::CheckpointKey key{"pagerank", "tol=1e-10", 10, 20, 30};
  const tg::Checkpointer saving(dir, 1, false, key), resuming(dir, 1, true, key);
  const std::vector<uint8_t> state(40, 7);
  saving.save(3, {0.5}, state);
  const std::string file = dir + "/checkpoint.tgc";
  const std::string good = tg::test::read_text_file(file);
  ASSERT_EQ(resuming.load(40)->iteration, 3);
  // Offsets of the u64 fields after the magic and the two strings.
  const size_t iteration_at = 8 + 8 + key.algorithm.size() + 8 + key.options.size() + 3 * 8;
  const size_t count_at = iteration_at + 8, state_bytes_at = count_at + 16;
  auto rewrite = [&](size_t at, uint64_t value) {
    std::string bytes = good;
    for (int i = 0; i < 8; ++i) bytes[at + i] = static_cast<char>(value >> (8 * i));
    const uint64_t sum = tg::formats::xxh64(bytes.data(), bytes.size() - 8);
    for (int i = 0; i < 8; ++i) bytes[bytes.size() - 8 + i] = static_cast<char>(sum >> (8 * i));
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  };
  auto expect_refused = [&](const std::string& fragment) {
    try {
      resuming.load(tg::Checkpointer::kAnySize);
      ADD_FAILURE() << "no error; expected " << fragment;
    } catch (const tg::Error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
      EXPECT_EQ(e.kind(), tg::ErrorKind::kInput) << e.what();
    }
  };
  rewrite(iteration_at, uint64_t{1} << 40);  // read as an int, it was a negative iteration
  expect_refused("iteration 1099511627776 is not plausible");
  rewrite(iteration_at, 0);
  expect_refused("iteration 0 is not plausible");
  rewrite(count_at, ~uint64_t{0});
  expect_refused("scalar count");
  rewrite(state_bytes_at, 41);
  expect_refused("truncated at state");
  rewrite(state_bytes_at, 39);
  expect_refused("bytes after the state");
  rewrite(8, uint64_t{1} << 62);  // the algorithm's name as long as no file
  expect_refused("truncated at algorithm");
  rewrite(iteration_at, 3);
  EXPECT_EQ(resuming.load(40)->scalars, std::vector<double>{0.5});
}

TEST(Checkpoint, RunsThatCannotCheckpointAreRefused) {
  const std::string dir = fresh_dir("refused");
  expect_exit(run_tiergraph(kRun + "--accumulative --checkpoint " + dir), 2, "--accumulative");
  expect_exit(run_tiergraph(kRun + "--checkpoint " + dir + " --resume " + dir + "x"), 2, "give one folder");
  // The bound is a count a user can read, not a double's largest value.
  expect_exit(run_tiergraph(kRun + "--checkpoint " + dir + " --checkpoint-every 0"), 2,
              "--checkpoint-every: Value 0 not in range 1 to 1073741824");
}

// Two runs given one folder wrote one checkpoint file; the second is refused
// at its start while the first holds the folder, and gets in once it is gone.
TEST(Checkpoint, AFolderInUseByAnotherRunIsRefused) {
  const std::string dir = fresh_dir("in_use");
  const tg::CheckpointKey key{"pagerank", "", 1, 1, 1};
  {
    tg::Checkpointer first(dir, 1, false, key);
    first.lock_folder();
    const tg::Checkpointer copy = first.without_resume();  // copies share the lock
    tg::Checkpointer second(dir, 1, false, key);
    try {
      second.lock_folder();
      ADD_FAILURE() << "a second checkpointer locked " << dir;
    } catch (const tg::Error& e) {
      EXPECT_EQ(std::string(e.what()), "checkpoint folder " + dir + " is in use by another run (it is locked)");
    }
    const auto refused = run_tiergraph(kRun + "--checkpoint " + dir);
    expect_exit(refused, 1, "is in use by another run");
    EXPECT_FALSE(std::filesystem::exists(dir + "/checkpoint.tgc"));
  }
  iterations_of(run_tiergraph(kRun + "--checkpoint " + dir + " --json"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/checkpoint.tgc"));
}

}  // namespace
