#include "formats/progress.h"

#include <unistd.h>

#include <cstdio>

namespace tg::formats {

ProgressMeter::ProgressMeter(bool requested, std::string label, uint64_t total_bytes, std::string items_name)
    : enabled_(requested && ::isatty(2) == 1),
      label_(std::move(label)),
      items_name_(std::move(items_name)),
      total_bytes_(total_bytes),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void ProgressMeter::update(uint64_t bytes_done, uint64_t items_done) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(250)) return;
  last_ = now;
  double seconds = std::chrono::duration<double>(now - start_).count();
  double mib = static_cast<double>(bytes_done) / (1 << 20);
  char line[256];
  int n = 0;
  if (total_bytes_ > 0) {
    n = std::snprintf(line, sizeof line, "%s: %.0f / %.0f MiB (%.0f%%)", label_.c_str(), mib,
                      static_cast<double>(total_bytes_) / (1 << 20), 100.0 * static_cast<double>(bytes_done) / static_cast<double>(total_bytes_));
  } else {
    n = std::snprintf(line, sizeof line, "%s: %.0f MiB", label_.c_str(), mib);
  }
  if (n > 0 && n < static_cast<int>(sizeof line) && items_done > 0) {
    std::snprintf(line + n, sizeof line - n, ", %.1f M %s, %.1f M %s/s", items_done / 1e6, items_name_.c_str(),
                  seconds > 0 ? items_done / 1e6 / seconds : 0.0, items_name_.c_str());
  }
  std::fprintf(stderr, "\r\033[K%s", line);
  std::fflush(stderr);
  shown_ = true;
}

void ProgressMeter::finish() {
  if (shown_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
  }
}

}  // namespace tg::formats
