// Writing a file so that a failure never leaves a partial one under the
// target's name: the bytes go to PATH.tmp, which is synced and renamed into
// place by commit(); a writer dropped before commit() removes it. Every
// error is "cannot write PATH: REASON". A target that is a link, a device or
// a FIFO is refused (is_special_file), and so is a second writer of the same
// target while the first writes (beside_file.h). Stopped by a signal, the
// program removes PATH.tmp (pending_files.h).
#pragma once

#include <cstdint>
#include <string>

#include "formats/beside_file.h"
#include "formats/progress.h"

namespace tg::formats {

// Whether PATH, as named (a link is not followed), exists and is neither a
// regular file nor a directory: a symbolic link (/dev/stdout), a device
// (/dev/full), a FIFO. A file written beside it and renamed into place would
// replace the link or the device itself, so writers write through such a
// target (text results) or refuse it (graph files, checkpoints, profiles).
bool is_special_file(const std::string& path);

class OutputFile {
 public:
  // `total_bytes` for the progress line (`progress`: show one on stderr).
  OutputFile(const std::string& path, uint64_t total_bytes, bool progress);
  ~OutputFile() = default;  // not committed: PATH.tmp is removed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Writes `bytes` at `offset` (pwrite, retried until done).
  void put(const void* data, uint64_t bytes, uint64_t offset);
  // Sets the file's length, syncs it and renames it to the target.
  void commit(uint64_t file_bytes);

  // The error to throw for `why`, naming the target.
  std::string failure(const std::string& why) const { return "cannot write " + path_ + ": " + why; }

 private:
  std::string path_;
  BesideFile file_;  // PATH.tmp, removed unless renamed (or a signal stops the program)
  uint64_t written_ = 0;
  ProgressMeter meter_;
};

}  // namespace tg::formats
