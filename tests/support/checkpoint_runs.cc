#include "support/checkpoint_runs.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <random>

namespace tg::test {

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

void run_killed_after(const std::string& run, const std::string& dir, int every, int kill_at, const std::string& what) {
  setenv("TG_CHECKPOINT_KILL_AFTER", std::to_string(kill_at).c_str(), 1);  // the child inherits it
  const ProgramResult killed = run_tiergraph(run + " --checkpoint " + dir + " --checkpoint-every " +
                                             std::to_string(every) + " --output " + dir + "/never.txt");
  unsetenv("TG_CHECKPOINT_KILL_AFTER");
  EXPECT_EQ(killed.exit_code, 128 + 9) << what << ": " << killed.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/never.txt")) << what;
  ASSERT_TRUE(std::filesystem::exists(dir + "/checkpoint.tgc")) << what;
  EXPECT_EQ(saved_iteration(dir + "/checkpoint.tgc"), kill_at) << what;
}

void expect_exit(const ProgramResult& r, int code, const std::string& fragment) {
  EXPECT_EQ(r.exit_code, code) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
}

void expect_killed_and_resumed_equal(const std::string& name, const std::string& run, bool exact_steps) {
  // Checkpointing changes no result: a run with checkpoints after every
  // iteration writes what a run without writes, and its last checkpoint
  // names the run's iterations.
  const std::string plain = ::testing::TempDir() + "/tg_ckpt_algo_plain_" + name + ".txt";
  ASSERT_EQ(run_tiergraph(run + " --output " + plain).exit_code, 0);
  const std::string all_dir = fresh_dir(name + "_all");
  const std::string full = all_dir + "/full.txt";
  record_of(run_tiergraph(run + " --json --checkpoint " + all_dir + " --checkpoint-every 1 --output " + full), name);
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
        run_tiergraph(run + " --json --checkpoint " + ref_dir + " --checkpoint-every " + std::to_string(every)), what);

    const std::string dir = fresh_dir(name + "_kill" + std::to_string(round));
    run_killed_after(run, dir, every, kill_at, what);
    if (::testing::Test::HasFatalFailure()) return;

    const std::string resumed = dir + "/resumed.txt";
    const nlohmann::json r = record_of(run_tiergraph(run + " --json --resume " + dir + " --checkpoint-every " +
                                                     std::to_string(every) + " --output " + resumed),
                                       what);
    EXPECT_EQ(read_text_file(resumed), read_text_file(full)) << what;
    const uint64_t edges = r.at("edges_traversed").get<uint64_t>();
    if (kill_at == last && every == 1) EXPECT_EQ(edges, 0u) << what;
    if (!exact_steps) continue;
    EXPECT_EQ(r.at("iterations").get<int>(), ref.at("iterations").get<int>()) << what;
    // It did resume: it read fewer edges than the whole run, none after the
    // last iteration. (`last` is the run's that saved after every iteration:
    // sssp and sswp saving less often may settle their buckets in more steps.)
    EXPECT_LT(edges, ref.at("edges_traversed").get<uint64_t>()) << what;
  }
}

}  // namespace tg::test
