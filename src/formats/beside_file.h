// PATH.tmp, the file a writer fills beside its target and renames into place
// when complete (output_file.h, text_output.h), claimed so that two writers of
// one target cannot share it. Both opened PATH.tmp and truncated each other's
// bytes: one renamed a mix of the two under the target's name and the other
// failed. Now the first holds a lock on it (flock) until its rename, and a
// second is refused in one line, before it writes or lists anything:
// "cannot write PATH: another process is writing it (PATH.tmp is locked)".
// A PATH.tmp left by a killed writer holds no lock and is reused.
#pragma once

#include <optional>
#include <string>

#include "formats/pending_files.h"

namespace tg::formats {

// flock(LOCK_EX | LOCK_NB) on fd, retried when a signal interrupts it.
// kNoLocks: the file system has none (ENOLCK, EOPNOTSUPP, EINVAL), so the
// file goes unguarded; kFailed: `error` (an errno) says why.
enum class LockResult { kHeld, kBusy, kNoLocks, kFailed };
struct TryLock {
  LockResult result;
  int error = 0;
};
TryLock try_lock_exclusive(int fd);

class BesideFile {
 public:
  // Opens, locks and empties TARGET.tmp; errors are "cannot write TARGET: ...".
  explicit BesideFile(const std::string& target);
  // Not renamed: removes TARGET.tmp, then closes it (the lock is held until
  // the file is gone, so that no second writer claims a file being removed).
  ~BesideFile();
  BesideFile(const BesideFile&) = delete;
  BesideFile& operator=(const BesideFile&) = delete;

  int fd() const { return fd_; }

  // Syncs the data if asked, renames the file over the target while still
  // locked, then closes it. Throws Error naming the target.
  void rename_into_place(bool sync);

 private:
  std::string failure(const std::string& why) const;

  std::string target_, tmp_;
  int fd_ = -1;
  std::optional<PendingFile> pending_;  // listed from before the open: a refused writer unlists it, removes nothing
};

}  // namespace tg::formats
