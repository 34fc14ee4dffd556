// The CPU engine's buckets (engines/buckets.h): per-thread bins, as GAP's
// delta-stepping keeps them, so that settling a bucket costs its members
// rather than a scan of every waiting vertex. The frontier version pays that
// scan at every bucket: on kron:20 with a small delta, hundreds of buckets
// times a million waiting vertices.
//
// Bins hold a window of kWindow buckets from `base_`; keys beyond it wait in
// an overflow list that is spread into a new window when the current one is
// used up (Julienne's open and overflow buckets), so a huge key range (a
// tiny delta) costs no memory.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/recycled_vector.h"
#include "engines/buckets.h"
#include "engines/cpu/parallel.h"

namespace tg {

template <typename V, typename Key>
class CpuBuckets {
 public:
  static constexpr uint64_t kWindow = uint64_t{1} << 14;

  CpuBuckets(uint64_t n, Key key) : key_(key), threads_(omp_get_max_threads()), taken_(n, 0) {
    bins_.resize(threads_);
    overflow_.resize(threads_);
  }

  template <typename Each>
  void insert(uint64_t count, Each member) {
#pragma omp parallel num_threads(threads_) if (count >= kSerialBelow)
    {
      const int t = omp_get_thread_num();
      std::vector<std::vector<V>>& bins = bins_[t];
#pragma omp for schedule(static) nowait
      for (uint64_t i = 0; i < count; ++i) {
        const V v = member(i);
        const double k = key_(v);
        if (!(k < kNoBucket)) continue;
        const double offset = k - base_;
        if (offset < static_cast<double>(kWindow) && have_window_) {
          // Keys never fall below the bucket being settled (engines/buckets.h).
          const uint64_t at = std::max<uint64_t>(cursor_, static_cast<uint64_t>(std::max(offset, 0.0)));
          if (at >= bins.size()) bins.resize(at + 1);
          bins[at].push_back(v);
        } else {
          overflow_[t].push_back(v);
        }
      }
    }
  }

  // The lowest bucket's members, each once and only those whose key is still
  // that bucket; {kNoBucket, empty} when nothing waits.
  std::pair<double, RecycledVector<V>> pop() {
    while (true) {
      for (; cursor_ < kWindow; ++cursor_) {
        uint64_t total = 0;
        for (int t = 0; t < threads_; ++t)
          if (cursor_ < bins_[t].size()) total += bins_[t][cursor_].size();
        if (total == 0) continue;
        const double b = base_ + static_cast<double>(cursor_);
        RecycledVector<V> members = take(b, total);
        if (!members.empty()) return {b, std::move(members)};
      }
      if (!refill()) return {kNoBucket, {}};
    }
  }

 private:
  // Bin cursor_ of every thread, without stale or repeated entries.
  RecycledVector<V> take(double b, uint64_t total) {
    std::vector<V> all;
    all.reserve(total);
    for (int t = 0; t < threads_; ++t) {
      if (cursor_ >= bins_[t].size()) continue;
      std::vector<V>& bin = bins_[t][cursor_];
      all.insert(all.end(), bin.begin(), bin.end());
      std::vector<V>().swap(bin);
    }
    RecycledVector<V> members;
    members.reserve(all.size());
    for (V v : all)
      if (key_(v) == b && !taken_[v]) {
        taken_[v] = 1;
        members.push_back(v);
      }
    for (V v : members) taken_[v] = 0;
    return members;
  }

  // A new window from the smallest key in the overflow lists; false when
  // they are empty.
  bool refill() {
    std::vector<V> waiting;
    for (std::vector<V>& o : overflow_) {
      waiting.insert(waiting.end(), o.begin(), o.end());
      std::vector<V>().swap(o);
    }
    double lowest = kNoBucket;
    for (V v : waiting) lowest = std::min(lowest, key_(v));
    if (!(lowest < kNoBucket)) return false;
    for (auto& bins : bins_) bins.clear();
    base_ = lowest;
    cursor_ = 0;
    have_window_ = true;
    insert(waiting.size(), [&](uint64_t i) { return waiting[i]; });
    return true;
  }

  Key key_;
  int threads_;
  std::vector<uint8_t> taken_;  // all zero between pops
  std::vector<std::vector<std::vector<V>>> bins_;  // [thread][bucket - base_]
  std::vector<std::vector<V>> overflow_;           // [thread]
  double base_ = 0;
  uint64_t cursor_ = kWindow;  // the first pop refills
  bool have_window_ = false;   // no window until the first refill sets base_
};

}  // namespace tg
