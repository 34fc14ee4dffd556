// A text file (results, bench tables, a vertex order) written beside its
// target and renamed into place when complete, so that a failure or a signal
// leaves neither a partial file under the target's name nor PATH.tmp
// (pending_files.h); or straight through a link, device or FIFO (/dev/stdout,
// a pipe), which renaming would replace (is_special_file). Errors are
// "PATH: cannot write: REASON" and "PATH: write failed: REASON".
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "formats/pending_files.h"

namespace tg::formats {

class TextOutput {
 public:
  explicit TextOutput(const std::string& path);
  ~TextOutput();
  TextOutput(const TextOutput&) = delete;
  TextOutput& operator=(const TextOutput&) = delete;

  void write(std::string_view text);
  // Flushes, closes and renames the file into place.
  void commit();

 private:
  std::string path_, tmp_;
  std::optional<PendingFile> pending_;  // tmp_, removed unless renamed; none when written in place
  std::FILE* file_ = nullptr;
};

// The whole of `text` to `path`, as above.
void write_text_file(const std::string& path, std::string_view text);

}  // namespace tg::formats
