#include "formats/pending_files.h"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace tg::formats {
namespace {

// A signal handler may run on any thread at any moment, so the list is fixed
// slots a handler can read without locks or allocation: a slot's version is
// odd while its path is being written and advances when the slot is freed,
// and a handler unlinks a copy of the path only if the version it read before
// copying is even, the slot listed, and the version unchanged after (a seqlock).
constexpr int kSlots = 32;

struct Slot {
  std::atomic<unsigned> version{0};
  std::atomic<bool> listed{false};
  std::atomic<bool> taken{false};  // owned by a PendingFile
  char path[PATH_MAX];
};
Slot slots[kSlots];

void remove_listed() {
  for (Slot& s : slots) {
    const unsigned before = s.version.load(std::memory_order_acquire);
    if ((before & 1u) != 0 || !s.listed.load(std::memory_order_acquire)) continue;
    char copy[PATH_MAX];
    std::memcpy(copy, s.path, sizeof copy);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (s.version.load(std::memory_order_relaxed) != before) continue;
    copy[PATH_MAX - 1] = '\0';
    ::unlink(copy);
  }
}

void on_signal(int signal_number) {
  remove_listed();
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  ::sigaction(signal_number, &action, nullptr);
  ::raise(signal_number);  // blocked in this handler: delivered, by default, on return
}

}  // namespace

PendingFile::PendingFile(const std::string& path) : path_(path) {
  if (path.size() >= PATH_MAX) return;
  for (int i = 0; i < kSlots; ++i) {
    bool free = false;
    if (!slots[i].taken.compare_exchange_strong(free, true)) continue;
    Slot& s = slots[i];
    s.version.fetch_add(1, std::memory_order_acq_rel);  // odd: being written
    std::memcpy(s.path, path.c_str(), path.size() + 1);
    s.listed.store(true, std::memory_order_release);
    s.version.fetch_add(1, std::memory_order_release);  // even: readable
    slot_ = i;
    return;
  }
}

PendingFile::~PendingFile() {
  if (!done_) ::unlink(path_.c_str());
  done();
}

void PendingFile::done() {
  done_ = true;
  if (slot_ < 0) return;
  Slot& s = slots[slot_];
  s.version.fetch_add(1, std::memory_order_acq_rel);
  s.listed.store(false, std::memory_order_release);
  s.version.fetch_add(1, std::memory_order_release);
  s.taken.store(false, std::memory_order_release);
  slot_ = -1;
}

void remove_pending_files_on_signals() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    // A signal the caller's parent set to be ignored (nohup's SIGHUP) stays ignored.
    if (::sigaction(signal_number, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    ::sigaction(signal_number, &action, nullptr);
  }
}

int pending_file_count() {
  int n = 0;
  for (const Slot& s : slots) n += s.listed.load(std::memory_order_acquire) ? 1 : 0;
  return n;
}

}  // namespace tg::formats
