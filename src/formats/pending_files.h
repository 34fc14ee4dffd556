// Files being written beside their targets (PATH.tmp, renamed into place
// when complete): removed if the writer gives up (an error, an exception) or
// the program is stopped by a signal before then. Ctrl-C in the middle of
// writing a graph left a partial PATH.tmp of hundreds of MB behind.
//
// The library only keeps the list (a PendingFile a file); the program, not
// the library, installs the handlers (remove_pending_files_on_signals), as a
// process that embeds tiergraph (Python) has its own.
#pragma once

#include <string>

namespace tg::formats {

class PendingFile {
 public:
  explicit PendingFile(const std::string& path);  // listed until done() or destroyed
  ~PendingFile();  // not done: the file is removed
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  // The file is renamed into place or removed: no longer listed.
  void done();

 private:
  std::string path_;
  int slot_ = -1;  // -1: not listed (every slot was in use)
  bool done_ = false;
};

// SIGINT, SIGTERM and SIGHUP remove the listed files, then end the process
// as the signal would have (exit status 128 + the signal's number).
void remove_pending_files_on_signals();

// How many files are listed now (for tests).
int pending_file_count();

}  // namespace tg::formats
