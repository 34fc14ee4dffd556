#include "formats/text_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"
#include "formats/output_file.h"

namespace tg::formats {

namespace {
constexpr size_t kFlushBytes = size_t{1} << 20;
}

TextOutput::TextOutput(const std::string& path) : path_(path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw Error(path + ": is a directory, not a file to write");
  if (!is_special_file(path)) {
    beside_.emplace(path);
    return;
  }
  direct_fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (direct_fd_ < 0) throw Error(path + ": cannot write: " + std::strerror(errno));
}

TextOutput::~TextOutput() {
  if (direct_fd_ >= 0) ::close(direct_fd_);  // beside_ removes PATH.tmp unless renamed
}

void TextOutput::write_through(std::string_view text) {
  const int fd = beside_ ? beside_->fd() : direct_fd_;
  while (!text.empty()) {
    const ssize_t w = ::write(fd, text.data(), text.size());
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw Error(path_ + ": write failed: " + std::strerror(w < 0 ? errno : EIO));
    text.remove_prefix(static_cast<size_t>(w));
  }
}

void TextOutput::flush() {
  write_through(buffer_);
  buffer_.clear();
}

void TextOutput::write(std::string_view text) {
  // Small pieces gather in the buffer; a large one (a caller's own buffer of
  // formatted lines) goes straight to the file rather than through a copy.
  if (text.size() >= kFlushBytes) {
    flush();
    write_through(text);
    return;
  }
  buffer_.append(text);
  if (buffer_.size() >= kFlushBytes) flush();
}

void TextOutput::commit() {
  flush();
  if (beside_) {
    beside_->rename_into_place(/*sync=*/false);
    return;
  }
  const int fd = direct_fd_;
  direct_fd_ = -1;
  if (::close(fd) != 0) throw Error(path_ + ": write failed: " + std::strerror(errno));
}

void write_text_file(const std::string& path, std::string_view text) {
  TextOutput out(path);
  out.write(text);
  out.commit();
}

}  // namespace tg::formats
