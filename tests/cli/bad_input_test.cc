// Bad input found by a sweep of the program's options and files (session 41):
// each case gets one line on stderr and the exit code of its kind, and never
// a silently wrong answer, a replaced device file or results lost after a
// whole bench ran.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/checkpoint_runs.h"
#include "support/run_program.h"

namespace {

using tg::test::expect_exit;
using tg::test::run_tiergraph;

bool is_char_device(const char* path) {
  struct stat st;
  return ::stat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

TEST(CliBadInput, EmptyValuesAreRefusedNotReadAsZero) {
  expect_exit(run_tiergraph("run pagerank --graph kron:8 --tolerance ''"), 2, "an empty value after --tolerance");
  expect_exit(run_tiergraph("run bfs --graph kron:8 --source ''"), 2, "an empty value after --source");
  expect_exit(run_tiergraph("run bfs --graph kron:8 --output="), 2, "an empty value in --output=");
  expect_exit(run_tiergraph("generate kron:8 ''"), 2, "an empty value after kron:8");
}

TEST(CliBadInput, AnUnknownSubcommandIsNamed) {
  expect_exit(run_tiergraph("bogus"), 2, "unknown subcommand 'bogus' (one of: run, convert, generate");
}

TEST(CliBadInput, UnsignedValuesAndFractionsAreCheckedAsTyped) {
  // CLI11 read -1 into an unsigned as 2^64 - 1, saturated past 2^64 - 1, and let NaN through its ranges.
  expect_exit(run_tiergraph("run bfs --graph kron:8 --seed -1"), 2, "--seed: '-1' is not a whole number");
  expect_exit(run_tiergraph("run bfs --graph kron:8 --seed 99999999999999999999"), 2, "is not a whole number");
  expect_exit(run_tiergraph("run bfs --graph kron:8 --weights 1:5 --weight-seed 1.5"), 2, "--weight-seed: '1.5'");
  expect_exit(run_tiergraph("plan bfs --graph kron:8 --gpus 2 --delegate-threshold -1"), 2, "--delegate-threshold");
  expect_exit(run_tiergraph("bench kron:8 -p cpu -a bfs --sources 99999999999999999999"), 2,
              "--sources: '99999999999999999999' is not a vertex id");
  expect_exit(run_tiergraph("run pagerank --graph kron:8 --stream-threshold nan"), 2,
              "--stream-threshold: 'nan' is not a fraction from 0 to 1");
  EXPECT_EQ(run_tiergraph("run bfs --graph kron:8 --seed 18446744073709551615 -q").exit_code, 0);
}

TEST(CliBadInput, SizesPastTheirRangeAreTooLargeNotMalformed) {
  expect_exit(run_tiergraph("run bfs --graph kron:8 --gpu-mem 1e30"), 2, "'1e30' is too large (at most 16 EiB)");
  expect_exit(run_tiergraph("run bfs --graph kron:8 --gpu-mem 99999999999999999999"), 2, "is too large");
  expect_exit(run_tiergraph("run bfs --graph kron:8 --gpu-mem lots"), 2, "'lots' is not a size");
  const std::string g = tg::test::temp_path("sizes.tgb");
  ASSERT_EQ(run_tiergraph("generate kron:8 " + g).exit_code, 0);
  expect_exit(run_tiergraph("run bfs --graph " + g + " --engine cpu --host-mem 100"), 2, "--host-mem 100 B is too small");
}

TEST(CliBadInput, TheGraphIsNamedOnce) {
  expect_exit(run_tiergraph("info kron:9 -g kron:8"), 2, "-g");
  expect_exit(run_tiergraph("convert kron:9 " + tg::test::temp_path("once.tgb") + " --graph kron:8"), 2, "--graph");
}

TEST(CliBadInput, DevicesAreWrittenInPlaceNeverReplaced) {
  // Results to a link go through it (written beside and renamed, they replaced the link: /dev/stdout once).
  const std::string target = tg::test::write_temp_file("target.txt", "old\n");
  const std::string link_to_file = tg::test::temp_path("results-link.txt");
  std::filesystem::create_symlink(target, link_to_file);
  ASSERT_EQ(run_tiergraph("run bfs --graph kron:6 --source 0 -q --output " + link_to_file).exit_code, 0);
  EXPECT_TRUE(std::filesystem::is_symlink(link_to_file));
  EXPECT_EQ(tg::test::read_text_file(target).rfind("0 0\n", 0), 0u);
  if (!is_char_device("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  expect_exit(run_tiergraph("run bfs --graph kron:6 -q --output /dev/full"), 1,
              "/dev/full: write failed: No space left on device");
  EXPECT_TRUE(is_char_device("/dev/full"));
  // A graph file is written beside its target and renamed into place: a link or a device is no target for it.
  const std::string link = tg::test::temp_path("full.tgb");
  std::filesystem::create_symlink("/dev/full", link);
  expect_exit(run_tiergraph("generate kron:6 " + link), 1, "not a regular file");
  EXPECT_TRUE(is_char_device("/dev/full"));
  // Standard output that cannot take the record fails the command.
  const std::string err = tg::test::temp_path("full.err");
  const int status = std::system((std::string(TG_TIERGRAPH_BIN) + " info kron:6 --json >/dev/full 2>" + err).c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_NE(tg::test::read_text_file(err).find("standard output: cannot write: No space left on device"),
            std::string::npos);
}

TEST(CliBadInput, FilesReadWholeMustBeRegularFiles) {
  const std::string g = tg::test::write_temp_file("regular.el", "0 1\n1 2\n");
  // An endless device was read as one endless line.
  expect_exit(run_tiergraph("verify bfs --graph " + g + " --source 0 --results /dev/zero"), 3,
              "/dev/zero: not a regular file");
  const std::string dir = tg::test::temp_path("a_folder");
  std::filesystem::create_directories(dir + "/checkpoint.tgc");
  expect_exit(run_tiergraph("verify bfs --graph " + g + " --source 0 --results " + dir), 3,
              "is a directory, expected a results file");
  expect_exit(run_tiergraph("run pagerank --graph " + g + " --engine cpu --resume " + dir), 3,
              "checkpoint.tgc: is a directory, expected a checkpoint file");
  expect_exit(run_tiergraph("plan bfs --graph " + g + " --profile " + dir), 3, "is a directory, expected a machine profile");
  // nlohmann's own tag is left out of a profile's parse error.
  const std::string profile = tg::test::write_temp_file("garbage.json", "garbage");
  const auto r = run_tiergraph("plan bfs --graph " + g + " --profile " + profile);
  expect_exit(r, 3, "garbage.json: not a JSON profile (parse error at line 1, column 1");
  EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
}

TEST(CliBadInput, BenchRefusesBeforeRunningWhatWouldFailAfter) {
  // Options no run can take: the command's usage error (after the graph's load line), not an empty table
  // and exit code 0.
  for (const char* bad : {"--tolerance nan", "--max-iters 0"}) {
    const auto r = run_tiergraph(std::string("bench kron:8 -p cpu -a pagerank ") + bad);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("\ntiergraph: error: --"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  // A missing graph, an output in no folder, a baseline not run: before kron:8's cells run.
  const auto missing = run_tiergraph("bench kron:8 " + tg::test::temp_path("none.el") + " -p cpu -a bfs");
  expect_exit(missing, 3, "none.el: no such file");
  EXPECT_EQ(missing.out, "");
  expect_exit(run_tiergraph("bench kron:8 -p cpu -a bfs -o /nonexistent-folder/b"), 2,
              "no folder /nonexistent-folder to write into");
  expect_exit(run_tiergraph("bench kron:8 -p cpu -a bfs -o " + tg::test::temp_path("") + "/"), 2,
              "a folder; give a file name prefix");
  expect_exit(run_tiergraph("bench kron:8 -p cpu -a bfs --baseline device"), 2,
              "--baseline device is not among the placements run");
  // calibrate too checks where it will write before it measures (it made any missing folders).
  expect_exit(run_tiergraph("calibrate --quick -o /nonexistent-folder/p.json"), 2,
              "no folder /nonexistent-folder to write into");
  EXPECT_FALSE(std::filesystem::exists("/nonexistent-folder"));
  expect_exit(run_tiergraph("calibrate --quick -o " + tg::test::temp_path("")), 2, "a folder; give the profile's file name");
}

TEST(CliBadInput, ResumingFromAFolderWithNoCheckpointSaysSo) {
  // A mistyped folder started the run over without a word.
  const std::string dir = tg::test::temp_path("no-checkpoint-here");
  const auto r = run_tiergraph("run pagerank --graph kron:6 --engine cpu --resume " + dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: --resume " + dir + ": no checkpoint there yet, starting from the beginning"),
            std::string::npos)
      << r.err;
  // Once one is there, resuming says nothing.
  EXPECT_EQ(run_tiergraph("run pagerank --graph kron:6 --engine cpu --checkpoint-every 1 --resume " + dir).err.find("note:"),
            std::string::npos);
}

TEST(CliBadInput, GapsUnweightedFormOfAWeightedGraphSaysWhatItLeavesOut) {
  const auto r = run_tiergraph("generate kron:6 --weights 1:5 " + tg::test::temp_path("w.sg"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("w.sg holds no weights: the graph's are left out (FILE.wsg keeps them)"), std::string::npos)
      << r.err;
}

}  // namespace
