// A text file (results, bench tables, a vertex order) written beside its
// target and renamed into place when complete, so that a failure or a signal
// leaves neither a partial file under the target's name nor PATH.tmp
// (beside_file.h: a second writer of the same target is refused while the
// first writes); or straight through a link, device or FIFO (/dev/stdout, a
// pipe), which renaming would replace (is_special_file). Errors are
// "cannot write PATH: REASON" (beside it), "PATH: cannot write: REASON" (in
// place) and "PATH: write failed: REASON".
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "formats/beside_file.h"

namespace tg::formats {

class TextOutput {
 public:
  explicit TextOutput(const std::string& path);
  ~TextOutput();
  TextOutput(const TextOutput&) = delete;
  TextOutput& operator=(const TextOutput&) = delete;

  // Buffered: lines may come one at a time.
  void write(std::string_view text);
  // Writes what is buffered and renames the file into place (or closes it).
  void commit();

 private:
  void flush();
  void write_through(std::string_view text);

  std::string path_;
  std::optional<BesideFile> beside_;  // PATH.tmp; none when written in place
  int direct_fd_ = -1;                // the link, device or FIFO written in place
  std::string buffer_;
};

// The whole of `text` to `path`, as above.
void write_text_file(const std::string& path, std::string_view text);

}  // namespace tg::formats
