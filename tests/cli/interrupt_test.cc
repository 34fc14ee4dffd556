// Ctrl-C while the program writes a graph: the partial PATH.tmp is removed
// and the process ends as SIGINT would have (it left hundreds of MB behind).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/datasets.h"
#include "support/run_program.h"

namespace {

namespace fs = std::filesystem;

// Runs the program with `args`, sends SIGINT once `path` exists, and returns
// its wait status; nullopt where it ended before `path` was seen.
std::optional<int> interrupt_once_exists(const std::vector<std::string>& args, const std::string& path) {
  const std::string binary = tg::test::tiergraph_binary();
  std::vector<char*> argv{const_cast<char*>(binary.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  if (pid < 0) return std::nullopt;
  int status = 0;
  bool seen = false;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < give_up) {
    if (fs::exists(path)) {
      seen = true;
      ::kill(pid, SIGINT);
      break;
    }
    if (::waitpid(pid, &status, WNOHANG) == pid) return std::nullopt;  // done before we saw it
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  if (!seen) ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return seen ? std::optional<int>(status) : std::nullopt;
}

TEST(CliInterrupt, CtrlCWhileWritingAGraphLeavesNoPartialFile) {
  const std::string target = tg::test::temp_path("interrupted.tgb"), partial = target + ".tmp";
  // Interrupted once the write has started.
  const std::optional<int> stopped = interrupt_once_exists({"generate", "kron:20", target, "-q"}, partial);
  if (!stopped) GTEST_SKIP() << "the graph was written before its partial file was seen";
  const int status = *stopped;
  if (WIFEXITED(status)) {
    // The signal came after the rename: then the whole graph is there.
    EXPECT_TRUE(fs::exists(target));
    EXPECT_FALSE(fs::exists(partial));
    GTEST_SKIP() << "the write finished as it was interrupted (exit " << WEXITSTATUS(status) << ")";
  }
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGINT);
  EXPECT_FALSE(fs::exists(partial)) << "the partial graph was left behind";
  EXPECT_FALSE(fs::exists(target));
}

// Ctrl-C in the middle of a bench: the cells of the placements that finished
// stay in PREFIX.csv and PREFIX.json (it wrote both only at the end, so an
// interrupted bench kept nothing), the JSON says it is not complete, and no
// PREFIX.*.tmp is left.
TEST(CliInterrupt, CtrlCDuringABenchKeepsTheFinishedCells) {
  const std::string prefix = tg::test::temp_path("interrupted-bench");
  for (const char* suffix : {".csv", ".json", ".csv.tmp", ".json.tmp"}) fs::remove(prefix + suffix);
  // A small graph, then one that takes seconds: the signal comes while the second runs.
  const std::optional<int> stopped =
      interrupt_once_exists({"bench", "kron:8", "kron:17", "-a", "bfs,pagerank", "-p", "cpu", "-n", "64", "--threads",
                             "2", "--no-chart", "-o", prefix},
                            prefix + ".json");
  ASSERT_TRUE(stopped) << "the bench ended before PREFIX.json appeared";
  const int status = *stopped;
  if (WIFEXITED(status)) GTEST_SKIP() << "the bench finished before the signal (exit " << WEXITSTATUS(status) << ")";
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGINT);
  const auto j = nlohmann::json::parse(tg::test::read_text_file(prefix + ".json"));
  EXPECT_EQ(j["complete"], false);
  ASSERT_FALSE(j["cells"].empty());
  for (const auto& cell : j["cells"]) {
    EXPECT_EQ(cell["graph"], "kron:8");
    EXPECT_EQ(cell["verified"], cell["runs"]);
  }
  EXPECT_GT(tg::test::count_lines(tg::test::read_text_file(prefix + ".csv")), 1);
  EXPECT_FALSE(fs::exists(prefix + ".csv.tmp"));
  EXPECT_FALSE(fs::exists(prefix + ".json.tmp"));
}

}  // namespace
