#include "formats/text_output.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"
#include "formats/output_file.h"

namespace tg::formats {

TextOutput::TextOutput(const std::string& path) : path_(path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw Error(path + ": is a directory, not a file to write");
  const bool direct = is_special_file(path);
  tmp_ = direct ? path : path + ".tmp";
  if (!direct) pending_.emplace(tmp_);
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (file_ == nullptr) throw Error(path + ": cannot write: " + std::strerror(errno));
}

TextOutput::~TextOutput() {
  if (file_ != nullptr) std::fclose(file_);  // then pending_ removes tmp_
}

void TextOutput::write(std::string_view text) {
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), file_) != text.size())
    throw Error(path_ + ": write failed: " + std::strerror(errno));
}

void TextOutput::commit() {
  const bool flushed = std::fflush(file_) == 0;
  std::FILE* f = file_;
  file_ = nullptr;
  if (std::fclose(f) != 0 || !flushed) throw Error(path_ + ": write failed: " + std::strerror(errno));
  if (!pending_) return;  // written in place
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
    throw Error(path_ + ": cannot rename " + tmp_ + ": " + std::strerror(errno));
  pending_->done();
}

void write_text_file(const std::string& path, std::string_view text) {
  TextOutput out(path);
  out.write(text);
  out.commit();
}

}  // namespace tg::formats
