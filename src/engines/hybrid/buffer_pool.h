// The mirrors' host memory kept for the next run of a batch. A GPU's mirror
// is pinned: made the first time a split gather needs it, it costs the run
// its pages' zeroing and a cudaHostRegister (268 MB for PageRank's two arrays
// on kron:25: 17 ms, and it slowed the GPU's share of that gather by 10-20 ms
// on the H200, docs/PERF.md). The runs of a batch (bench's trials, a run per
// source) make mirrors of the same sizes, so the pool hands a released one
// back instead. The pool must outlive every engine that takes from it.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace tg::hybrid {

class BufferPool {
 public:
  // A buffer of `bytes`: a free one of that size, else make()'s. Its
  // contents are whatever the last user left. Released, it returns here.
  template <typename Make>
  std::shared_ptr<void> take(uint64_t bytes, Make&& make) {
    std::shared_ptr<void> held;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (size_t i = 0; i < free_.size(); ++i)
        if (free_[i].first == bytes) {
          held = std::move(free_[i].second);
          free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i));
          reused_++;
          break;
        }
    }
    if (!held) held = make();
    void* p = held.get();
    return std::shared_ptr<void>(p, [this, bytes, held](void*) mutable { give(bytes, std::move(held)); });
  }
  // How many buffers were handed out again.
  uint64_t reused() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return reused_;
  }

 private:
  void give(uint64_t bytes, std::shared_ptr<void> buffer) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.emplace_back(bytes, std::move(buffer));
  }

  mutable std::mutex mutex_;
  std::vector<std::pair<uint64_t, std::shared_ptr<void>>> free_;
  uint64_t reused_ = 0;
};

}  // namespace tg::hybrid
