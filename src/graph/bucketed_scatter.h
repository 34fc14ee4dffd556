// The builder's scatter (builder.cc) without an atomic per edge: each thread
// gathers the entries it is handed in small buffers, one per bucket of source
// vertices, and applies a full buffer under that bucket's lock with plain
// increments of the bucket's cursors. On x86 every atomic read-modify-write
// drains the store buffer, so a thread that claims each slot by fetch_add has
// one cache miss in flight at a time; here a thread applies 64 entries of one
// bucket at once, their misses overlapping, and the bucket's cursors and
// list slots lie in one range of memory (1/1024 of the graph on large ones).
//
// The order of a list before the builder's sort depends on the schedule, as
// with the atomic cursors before; the sort makes the CSR the same either way.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/types.h"

namespace tg {

// Entry: what one emitted edge carries (its source `u` first). Apply(entries,
// count): handles `count` entries of one bucket; called under that bucket's
// lock, so it may update the bucket's vertices' state without atomics.
template <typename Entry, typename Apply>
class BucketedScatter {
 public:
  static constexpr uint32_t kBufferEntries = 64;

  BucketedScatter(uint64_t num_vertices, Apply apply)
      : threads_(static_cast<uint64_t>(omp_get_max_threads())),
        shift_(shift_for(num_vertices, threads_)),
        buckets_((num_vertices >> shift_) + 1),
        entries_(new Entry[threads_ * buckets_ * kBufferEntries]),  // left unset: only filled entries are read
        filled_(threads_ * buckets_, 0),
        locks_(buckets_),
        apply_(std::move(apply)) {}

  // From any thread of a parallel region of at most omp_get_max_threads().
  void add(const Entry& e) {
    const uint64_t t = static_cast<uint64_t>(omp_get_thread_num());
    const uint64_t b = e.u >> shift_;
    if (t >= threads_) {  // a larger team than the one sized for: apply at once
      Lock lock(locks_[b]);
      apply_(&e, 1);
      return;
    }
    const uint64_t slot = t * buckets_ + b;
    Entry* buffer = &entries_[slot * kBufferEntries];
    buffer[filled_[slot]++] = e;
    if (filled_[slot] == kBufferEntries) {
      Lock lock(locks_[b]);
      apply_(buffer, kBufferEntries);
      filled_[slot] = 0;
    }
  }

  // Every partly filled buffer, after the parallel region that added.
  void flush() {
#pragma omp parallel for schedule(dynamic, 16)
    for (uint64_t b = 0; b < buckets_; ++b)
      for (uint64_t t = 0; t < threads_; ++t) {
        const uint64_t slot = t * buckets_ + b;
        if (filled_[slot] == 0) continue;
        apply_(&entries_[slot * kBufferEntries], filled_[slot]);  // bucket b is this iteration's alone
        filled_[slot] = 0;
      }
  }

 private:
  // Buckets of at least 4096 vertices, at most about 1024 of them, and fewer
  // where the threads' buffers would pass 64 MiB in all (256 threads: about
  // 170 buckets of 24-byte entries): each bucket is far larger than a buffer,
  // and the buffers stay small beside the graph.
  static int shift_for(uint64_t n, uint64_t threads) {
    constexpr uint64_t kMaxBufferBytes = uint64_t{64} << 20;
    const uint64_t most = std::max<uint64_t>(1, kMaxBufferBytes / (threads * kBufferEntries * sizeof(Entry)));
    int bits = 0;
    while (bits < 63 && (uint64_t{1} << bits) < n) ++bits;
    int shift = std::max(12, bits - 10);
    while (shift < 63 && (n >> shift) + 1 > most) ++shift;
    return shift;
  }

  struct alignas(64) SpinLock {
    std::atomic<bool> held{false};
  };
  class Lock {
   public:
    explicit Lock(SpinLock& l) : l_(l) {
      while (l_.held.exchange(true, std::memory_order_acquire))
        while (l_.held.load(std::memory_order_relaxed)) {
        }
    }
    ~Lock() { l_.held.store(false, std::memory_order_release); }
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;

   private:
    SpinLock& l_;
  };

  uint64_t threads_;
  int shift_;
  uint64_t buckets_;
  std::unique_ptr<Entry[]> entries_;
  std::vector<uint32_t> filled_;
  std::vector<SpinLock> locks_;
  Apply apply_;
};

}  // namespace tg
