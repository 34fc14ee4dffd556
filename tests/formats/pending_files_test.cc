// A file being written beside its target is removed when its writer gives
// up or a signal stops the program, and kept once renamed into place.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "formats/output_file.h"
#include "formats/pending_files.h"
#include "support/run_program.h"

namespace {

namespace fs = std::filesystem;

void touch(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0) << path;
  ASSERT_EQ(::write(fd, "partial", 7), 7);
  ::close(fd);
}

// In a child process: installs the handlers, lists `path` (written), marks it
// done if `done`, then stops itself with `signal_number`. Returns the child's
// wait status.
int child_stopped_by(int signal_number, const std::string& path, bool done) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    tg::formats::remove_pending_files_on_signals();
    tg::formats::PendingFile pending(path);
    touch(path);
    if (done) pending.done();
    ::kill(::getpid(), signal_number);
    ::pause();
    ::_exit(0);  // not reached: the signal ends the process
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(PendingFiles, ASignalRemovesTheFilesBeingWrittenAndEndsAsTheSignalWould) {
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    const std::string path = tg::test::temp_path("pending-" + std::to_string(signal_number) + ".tmp");
    const int status = child_stopped_by(signal_number, path, false);
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << signal_number;
    EXPECT_EQ(WTERMSIG(status), signal_number);
    EXPECT_FALSE(fs::exists(path)) << "signal " << signal_number << " left " << path;
  }
}

TEST(PendingFiles, AFileDoneIsKeptThroughASignal) {
  const std::string path = tg::test::temp_path("renamed.tmp");
  const int status = child_stopped_by(SIGINT, path, true);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_TRUE(fs::exists(path));
}

TEST(PendingFiles, AWriterThatGivesUpRemovesItsFile) {
  const int before = tg::formats::pending_file_count();
  const std::string path = tg::test::temp_path("given-up.tmp");
  {
    tg::formats::PendingFile pending(path);
    touch(path);
    EXPECT_EQ(tg::formats::pending_file_count(), before + 1);
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(tg::formats::pending_file_count(), before);
  {
    tg::formats::PendingFile pending(path);
    touch(path);
    pending.done();
    EXPECT_EQ(tg::formats::pending_file_count(), before);
  }
  EXPECT_TRUE(fs::exists(path));
}

TEST(PendingFiles, MoreFilesThanSlotsAreStillRemovedByTheirWriters) {
  std::vector<std::unique_ptr<tg::formats::PendingFile>> many;
  for (int i = 0; i < 40; ++i) {
    const std::string path = tg::test::temp_path("many-" + std::to_string(i) + ".tmp");
    many.push_back(std::make_unique<tg::formats::PendingFile>(path));
    touch(path);
  }
  many.clear();
  for (int i = 0; i < 40; ++i) EXPECT_FALSE(fs::exists(tg::test::temp_path("many-" + std::to_string(i) + ".tmp")));
  EXPECT_EQ(tg::formats::pending_file_count(), 0);
}

TEST(PendingFiles, AnOutputFileDroppedBeforeCommitLeavesNothing) {
  const std::string target = tg::test::temp_path("dropped.tgb");
  fs::remove(target);
  {
    tg::formats::OutputFile file(target, 8, false);
    file.put("12345678", 8, 0);
    EXPECT_TRUE(fs::exists(target + ".tmp"));
  }
  EXPECT_FALSE(fs::exists(target + ".tmp"));
  EXPECT_FALSE(fs::exists(target));
  {
    tg::formats::OutputFile file(target, 8, false);
    file.put("12345678", 8, 0);
    file.commit(8);
  }
  EXPECT_FALSE(fs::exists(target + ".tmp"));
  EXPECT_EQ(fs::file_size(target), 8u);
}

}  // namespace
