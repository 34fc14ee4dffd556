// Two writers of one target: the second is refused while the first writes,
// and the first's file is neither truncated nor removed by the refusal (they
// shared PATH.tmp and truncated each other's bytes). A PATH.tmp a killed
// writer left holds no lock and is reused.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/error.h"
#include "formats/output_file.h"
#include "formats/pending_files.h"
#include "formats/text_output.h"
#include "support/run_program.h"

namespace {

namespace fs = std::filesystem;

void expect_refused(const std::string& target, void (*claim)(const std::string&)) {
  try {
    claim(target);
    FAIL() << "a second writer of " << target << " was let in";
  } catch (const tg::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot write " + target + ": another process is writing it (" + target + ".tmp is locked)");
  }
}

TEST(BesideFile, ASecondWriterIsRefusedAndTheFirstFinishesWhole) {
  const std::string target = tg::test::temp_path("two-writers.bin");
  fs::remove(target);
  const int listed = tg::formats::pending_file_count();
  tg::formats::OutputFile first(target, 8, false);
  first.put("12345678", 8, 0);
  expect_refused(target, [](const std::string& t) { tg::formats::OutputFile second(t, 8, false); });
  expect_refused(target, [](const std::string& t) { tg::formats::write_text_file(t, "other\n"); });
  EXPECT_EQ(fs::file_size(target + ".tmp"), 8u) << "the refused writer truncated the first one's file";
  EXPECT_EQ(tg::formats::pending_file_count(), listed + 1) << "a refused writer is listed for removal";
  first.commit(8);
  EXPECT_EQ(tg::test::read_text_file(target), "12345678");
  EXPECT_FALSE(fs::exists(target + ".tmp"));
  // Done: the next writer gets in.
  tg::formats::write_text_file(target, "next\n");
  EXPECT_EQ(tg::test::read_text_file(target), "next\n");
  EXPECT_EQ(tg::formats::pending_file_count(), listed);
}

TEST(BesideFile, ALeftoverFromAKilledWriterIsReused) {
  const std::string target = tg::test::temp_path("leftover.txt");
  fs::remove(target);
  tg::test::write_temp_file("leftover.txt.tmp", std::string(4096, 'x'));  // no process holds it
  tg::formats::write_text_file(target, "fresh\n");
  EXPECT_EQ(tg::test::read_text_file(target), "fresh\n");
  EXPECT_FALSE(fs::exists(target + ".tmp"));
}

TEST(BesideFile, ADroppedWriterRemovesItsFileAndFreesTheTarget) {
  const std::string target = tg::test::temp_path("dropped.bin");
  fs::remove(target);
  {
    tg::formats::OutputFile gives_up(target, 4, false);
    gives_up.put("abcd", 4, 0);
  }
  EXPECT_FALSE(fs::exists(target + ".tmp"));
  EXPECT_FALSE(fs::exists(target));
  tg::formats::OutputFile again(target, 4, false);
  again.put("wxyz", 4, 0);
  again.commit(4);
  EXPECT_EQ(tg::test::read_text_file(target), "wxyz");
}

TEST(TextOutput, LongTextIsWrittenInPiecesWhole) {
  const std::string target = tg::test::temp_path("long-text.txt");
  std::string expected;
  {
    tg::formats::TextOutput out(target);
    for (int i = 0; i < 300000; ++i) {
      const std::string line = std::to_string(i) + " " + std::to_string(i * 7919ull % 1000003) + "\n";
      out.write(line);
      expected += line;
    }
    out.commit();
  }
  EXPECT_GT(expected.size(), size_t{3} << 20);
  EXPECT_EQ(tg::test::read_text_file(target), expected);
}

}  // namespace
