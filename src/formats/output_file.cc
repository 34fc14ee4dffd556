#include "formats/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/error.h"
#include "formats/input_file.h"

namespace tg::formats {

bool is_special_file(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

namespace {
// PATH.tmp, refused (before anything is written or listed) where PATH is a link, device or FIFO.
std::string beside(const std::string& path) {
  if (is_special_file(path))
    throw Error("cannot write " + path + ": not a regular file but a link, device or FIFO (a graph file is written "
                "beside the target and renamed into place)");
  return path + ".tmp";
}
}  // namespace

OutputFile::OutputFile(const std::string& path, uint64_t total_bytes, bool progress)
    : path_(path), tmp_(beside(path)), pending_(tmp_), meter_(progress, "writing " + base_name(path), total_bytes, "") {
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw Error(failure(std::strerror(errno)));
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);  // then pending_ removes the file, unless renamed
}

void OutputFile::put(const void* data, uint64_t bytes, uint64_t offset) {
  const char* c = static_cast<const char*>(data);
  while (bytes > 0) {
    const size_t piece = static_cast<size_t>(std::min<uint64_t>(bytes, uint64_t{64} << 20));
    const ssize_t w = ::pwrite(fd_, c, piece, static_cast<off_t>(offset));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw Error(failure(std::strerror(w < 0 ? errno : EIO)));
    c += w;
    bytes -= static_cast<uint64_t>(w);
    offset += static_cast<uint64_t>(w);
    written_ += static_cast<uint64_t>(w);
    meter_.update(written_, 0);
  }
}

void OutputFile::commit(uint64_t file_bytes) {
  if (::ftruncate(fd_, static_cast<off_t>(file_bytes)) != 0) throw Error(failure(std::strerror(errno)));
  if (::fdatasync(fd_) != 0) throw Error(failure(std::strerror(errno)));
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw Error(failure(std::strerror(errno)));
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) throw Error(failure(std::strerror(errno)));
  pending_.done();
  meter_.finish();
}

}  // namespace tg::formats
