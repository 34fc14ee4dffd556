// Progress lines on stderr for long loads and conversions: shown only when
// asked for and stderr is a terminal, at most four times a second, each line
// overwriting the last (\r), and cleared when the work ends.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace tg::formats {

class ProgressMeter {
 public:
  // `total_bytes` 0 when unknown. `items_name` e.g. "edges".
  ProgressMeter(bool requested, std::string label, uint64_t total_bytes, std::string items_name = "edges");
  ~ProgressMeter() { finish(); }
  ProgressMeter(const ProgressMeter&) = delete;
  ProgressMeter& operator=(const ProgressMeter&) = delete;

  bool enabled() const { return enabled_; }
  void update(uint64_t bytes_done, uint64_t items_done);
  void finish();  // clears the line; idempotent

 private:
  bool enabled_ = false;
  bool shown_ = false;
  std::string label_, items_name_;
  uint64_t total_bytes_ = 0;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace tg::formats
