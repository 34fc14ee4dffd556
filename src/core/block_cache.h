// Freed large blocks kept for reuse: a fresh 2 MiB-aligned block costs its
// first touch again (a huge-page fault with zeroing: 5-7 ms for a 4 MiB
// array on the 2-core VM, a quarter of a whole BFS on urand:20), and an
// engine allocates blocks of the same sizes step after step and run after
// run (vertex arrays, frontier lists; bench trials, one run per source, a
// Python loop). Array::allocate_reused and RecyclingAllocator take blocks
// from here and give them back.
//
// Holds at most kBlocks blocks, so a few vertex arrays of the largest graph;
// the oldest is freed when a new one arrives. TG_ARRAY_CACHE=0 turns it off.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

#include "core/env_count.h"

namespace tg {

class BlockCache {
 public:
  static constexpr size_t kBlocks = 16;
  static constexpr size_t kAlign = size_t{1} << 21;  // huge pages; cudaHostRegister

  // Never destroyed: memory freed during static destruction may still be
  // given back (the process's exit returns it).
  static BlockCache& instance() {
    static BlockCache* cache = new BlockCache;
    return *cache;
  }

  // Blocks from this size up are advised to use huge pages.
  static constexpr size_t kHugePagesFrom = size_t{32} << 20;

  // A new block of `bytes` (a multiple of kAlign), aligned to kAlign and,
  // from kHugePagesFrom up, advised to use huge pages; std::free gives it back.
  static void* fresh(size_t bytes) {
    void* p = std::aligned_alloc(kAlign, bytes);
    if (p == nullptr) throw std::bad_alloc();
    // Large arrays: first touch of 4 KiB pages is slow on these VMs (1 s per
    // 256 MiB measured), huge pages cut it 3-50x and spare the TLB (and the
    // GPU's translation) at random reads. Small ones: a huge page's first
    // fault may wait for the kernel to compact memory (2.5 ms a 2 MiB page on
    // the 2-core VM), where a few MiB of 4 KiB pages fault in well under a
    // millisecond: the first BFS on kron:20 took 34-48 ms with huge pages for
    // its few-MiB arrays, 25-30 without, the next ones 16-21 either way.
    if (bytes >= kHugePagesFrom) madvise(p, bytes, MADV_HUGEPAGE);
    return p;
  }

  // A block as fresh() makes them: a cached one of that size, or a new one.
  void* take(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (size_t i = 0; i < blocks_.size(); ++i)
        if (blocks_[i].bytes == bytes) {
          void* p = blocks_[i].data;
          blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
          return p;
        }
    }
    return fresh(bytes);
  }

  // Keeps a block from take() for reuse (or frees it when the cache is off).
  void give(void* p, size_t bytes) {
    if (!enabled_) {
      std::free(p);
      return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (blocks_.size() == kBlocks) {
      std::free(blocks_.front().data);
      blocks_.erase(blocks_.begin());
    }
    blocks_.push_back({p, bytes});
  }

 private:
  BlockCache() {
    enabled_ = env_count("TG_ARRAY_CACHE", 1) != 0;
  }
  struct Block {
    void* data;
    size_t bytes;
  };
  std::mutex mutex_;
  std::vector<Block> blocks_;
  bool enabled_ = true;
};

}  // namespace tg
