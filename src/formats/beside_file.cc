#include "formats/beside_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace tg::formats {

namespace {

bool same_file(int fd, const std::string& path) {
  struct stat open_one, named_one;
  return ::fstat(fd, &open_one) == 0 && ::stat(path.c_str(), &named_one) == 0 &&
         open_one.st_dev == named_one.st_dev && open_one.st_ino == named_one.st_ino;
}

}  // namespace

TryLock try_lock_exclusive(int fd) {
  for (;;) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return {LockResult::kHeld};
    const int e = errno;
    if (e == EINTR) continue;
    if (e == EWOULDBLOCK) return {LockResult::kBusy, e};
    if (e == ENOLCK || e == EOPNOTSUPP || e == EINVAL) return {LockResult::kNoLocks, e};
    return {LockResult::kFailed, e};
  }
}

std::string BesideFile::failure(const std::string& why) const { return "cannot write " + target_ + ": " + why; }

BesideFile::BesideFile(const std::string& target) : target_(target), tmp_(target + ".tmp") {
  // Listed before the open that may create it: a signal right after that open
  // (the moment a Ctrl-C in a test aims at) found it not yet listed, and left
  // it. A file this writer does not get is unlisted again, not removed (a
  // signal in the moment before it finds another writer's lock would remove
  // that one's file: two writers of one target and a signal, the rarer race).
  pending_.emplace(tmp_);
  auto refuse = [&](const std::string& why) {
    pending_->done();
    pending_.reset();
    return Error(failure(why));
  };
  for (;;) {
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw refuse(std::strerror(errno));
    const TryLock lock = try_lock_exclusive(fd_);
    if (lock.result == LockResult::kBusy) {
      ::close(fd_);
      throw refuse("another process is writing it (" + tmp_ + " is locked)");
    }
    if (lock.result == LockResult::kNoLocks) break;  // unguarded
    if (lock.result == LockResult::kFailed) {
      ::close(fd_);
      throw refuse(std::strerror(lock.error));
    }
    // Locked; but the file may have been renamed into place or removed by
    // its last writer between our open and our lock: then claim it anew.
    if (same_file(fd_, tmp_)) break;
    ::close(fd_);
  }
  if (::ftruncate(fd_, 0) != 0) {
    const int e = errno;
    pending_.reset();
    ::close(fd_);
    throw Error(failure(std::strerror(e)));
  }
}

BesideFile::~BesideFile() {
  pending_.reset();  // removes tmp_ unless renamed
  if (fd_ >= 0) ::close(fd_);
}

void BesideFile::rename_into_place(bool sync) {
  if (sync && ::fdatasync(fd_) != 0) throw Error(failure(std::strerror(errno)));
  if (::rename(tmp_.c_str(), target_.c_str()) != 0) throw Error(failure(std::strerror(errno)));
  pending_->done();
  pending_.reset();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw Error(failure(std::strerror(errno)));
}

}  // namespace tg::formats
