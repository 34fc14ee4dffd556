// Pages of a split step handed to the two sides as each frees up, as
// Garaph's scheduler does: the accelerator takes runs of pages from the
// front, the CPU threads take pages from the back, until the two meet. Each
// side's share stays one contiguous range ([0, m) and [m, P)), so the vertex
// data to exchange afterwards is two copies, whatever the split came to.
#pragma once

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <utility>

namespace tg::hybrid {

class PageQueue {
 public:
  explicit PageQueue(uint64_t pages) : back_(pages) {}

  // Up to `want` (at least one) pages from the front: [first, last), empty
  // once none is left.
  std::pair<uint64_t, uint64_t> take_front(uint64_t want) {
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t first = front_;
    front_ = std::min(back_, front_ + std::max<uint64_t>(want, 1));
    return {first, front_};
  }
  // Up to `want` (at least one) pages from the back.
  std::pair<uint64_t, uint64_t> take_back(uint64_t want) {
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t last = back_;
    back_ = std::max(front_, back_ - std::min(back_, std::max<uint64_t>(want, 1)));
    return {back_, last};
  }
  // Pages not yet taken.
  uint64_t left() {
    std::lock_guard<std::mutex> lock(mutex_);
    return back_ - front_;
  }
  // Where the two sides met: the accelerator had [0, met), the CPU the rest.
  uint64_t met() {
    std::lock_guard<std::mutex> lock(mutex_);
    return front_;
  }

 private:
  std::mutex mutex_;
  uint64_t front_ = 0, back_;
};

}  // namespace tg::hybrid
