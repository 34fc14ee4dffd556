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
// The target, refused (before anything is written or listed) where it is a link, device or FIFO.
const std::string& not_special(const std::string& path) {
  if (is_special_file(path))
    throw Error("cannot write " + path + ": not a regular file but a link, device or FIFO (the file is written "
                "beside the target and renamed into place)");
  return path;
}
}  // namespace

OutputFile::OutputFile(const std::string& path, uint64_t total_bytes, bool progress)
    : path_(path), file_(not_special(path)), meter_(progress, "writing " + base_name(path), total_bytes, "") {}

void OutputFile::put(const void* data, uint64_t bytes, uint64_t offset) {
  const char* c = static_cast<const char*>(data);
  while (bytes > 0) {
    const size_t piece = static_cast<size_t>(std::min<uint64_t>(bytes, uint64_t{64} << 20));
    const ssize_t w = ::pwrite(file_.fd(), c, piece, static_cast<off_t>(offset));
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
  if (::ftruncate(file_.fd(), static_cast<off_t>(file_bytes)) != 0) throw Error(failure(std::strerror(errno)));
  file_.rename_into_place(/*sync=*/true);
  meter_.finish();
}

}  // namespace tg::formats
