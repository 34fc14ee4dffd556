// Text outputs (results, bench tables, vertex orders): renamed into place
// when complete, nothing left when dropped, written through a link.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/error.h"
#include "formats/text_output.h"
#include "support/run_program.h"

namespace {

namespace fs = std::filesystem;

TEST(TextOutput, CommittedIsInPlaceDroppedLeavesNothing) {
  const std::string path = tg::test::temp_path("text-output.txt");
  fs::remove(path);
  {
    tg::formats::TextOutput out(path);
    out.write("half");
    EXPECT_TRUE(fs::exists(path + ".tmp"));
    EXPECT_FALSE(fs::exists(path));
  }
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  EXPECT_FALSE(fs::exists(path));
  tg::formats::write_text_file(path, "whole\n");
  EXPECT_EQ(tg::test::read_text_file(path), "whole\n");
  EXPECT_FALSE(fs::exists(path + ".tmp"));
}

TEST(TextOutput, ALinkIsWrittenThroughNotReplaced) {
  const std::string target = tg::test::temp_path("text-target.txt"), link = tg::test::temp_path("text-link.txt");
  fs::remove(link);
  tg::formats::write_text_file(target, "old\n");
  fs::create_symlink(target, link);
  tg::formats::write_text_file(link, "new\n");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(tg::test::read_text_file(target), "new\n");
  EXPECT_FALSE(fs::exists(link + ".tmp"));
}

TEST(TextOutput, ADirectoryOrAMissingFolderIsOneError) {
  const std::string dir = tg::test::temp_path("text-dir");
  fs::create_directories(dir);
  try {
    tg::formats::write_text_file(dir, "x");
    FAIL() << "wrote a directory";
  } catch (const tg::Error& e) {
    EXPECT_EQ(std::string(e.what()), dir + ": is a directory, not a file to write");
  }
  try {
    tg::formats::write_text_file(dir + "/missing/out.txt", "x");
    FAIL() << "wrote into a missing folder";
  } catch (const tg::Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write " + dir + "/missing/out.txt: No such file or directory");
  }
}

}  // namespace
