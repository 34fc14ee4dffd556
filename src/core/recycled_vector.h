// RecycledVector<T>: a std::vector for the CPU engine's per-step buffers
// (frontier lists and bitmaps), and ResultVector<T> (below) for results.
// Two differences from std::vector<T>, both for code that allocates the same
// large buffers again and again:
//  - blocks of 1 MiB or more are rounded up (a power of two for step
//    buffers, whole huge pages for results) and come from
//    and go back to the BlockCache, so a step reuses warm pages instead of
//    faulting in fresh ones (on the 2-core VM a 2.7 MiB output list cost
//    1.3 ms of faults per BFS step, against 0.3 ms reused);
//  - resize() leaves new elements of plain types uninitialised (the step
//    writes them all), where std::vector would zero them first.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/block_cache.h"

namespace tg {

// How a pooled block's size is rounded: to a power of two for buffers whose
// size changes from step to step, to a whole number of huge pages for
// results, whose size is the vertex count every run (a power of two would
// nearly double a 134 MB result).
enum class BlockRounding { kPowerOfTwo, kHugePages };

template <typename T, BlockRounding kRounding = BlockRounding::kPowerOfTwo>
class RecyclingAllocator {
 public:
  using value_type = T;
  static constexpr size_t kPooledFrom = size_t{1} << 20;
  template <typename U>
  struct rebind {
    using other = RecyclingAllocator<U, kRounding>;
  };

  RecyclingAllocator() noexcept = default;
  template <typename U>
  RecyclingAllocator(const RecyclingAllocator<U, kRounding>&) noexcept {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kPooledFrom) {
      void* p = std::malloc(bytes > 0 ? bytes : 1);
      if (p == nullptr) throw std::bad_alloc();
      return static_cast<T*>(p);
    }
    return static_cast<T*>(BlockCache::instance().take(pooled_size(bytes)));
  }
  void deallocate(T* p, size_t n) noexcept {
    const size_t bytes = n * sizeof(T);
    if (bytes < kPooledFrom) std::free(p);
    else BlockCache::instance().give(p, pooled_size(bytes));
  }

  // Value-initialisation without arguments becomes default-initialisation:
  // no zeroing of plain values on resize.
  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  template <typename U>
  bool operator==(const RecyclingAllocator<U, kRounding>&) const noexcept {
    return true;
  }

 private:
  // Step buffers: the next power of two, at least the cache's alignment, so
  // few sizes and a freed block fits the next request of about the same
  // size. Results: whole huge pages (always the same size for one graph).
  static size_t pooled_size(size_t bytes) {
    if constexpr (kRounding == BlockRounding::kHugePages)
      return (bytes + BlockCache::kAlign - 1) / BlockCache::kAlign * BlockCache::kAlign;
    size_t size = BlockCache::kAlign;
    while (size < bytes) size *= 2;
    return size;
  }
};

template <typename T>
using RecycledVector = std::vector<T, RecyclingAllocator<T>>;

// Per-vertex results (an engine's to_host, an algorithm's values): handed out
// without the zero-fill std::vector's resize makes on one thread, which cost
// more than the parallel copy it precedes (on the H100 machine's 16 cores,
// 11 of 16 ms for a 134 MB result, 25 of 37 for 268 MB; the copy alone into
// mapped memory 2 and 5: benchmarks/engines/copy_out_bench.cc). Its blocks
// come from and go back to the BlockCache, so a run after the first reuses
// mapped pages. Elements start uninitialised: make it with a value
// (ResultVector<T>(n, x)) or write every element.
template <typename T>
using ResultVector = std::vector<T, RecyclingAllocator<T, BlockRounding::kHugePages>>;

// A result equals a plain vector of the same values (tests compare results
// with their references' std::vector).
template <typename T, typename A>
  requires(!std::is_same_v<A, std::allocator<T>>)
bool operator==(const std::vector<T, A>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// A result as a plain std::vector (the library's public API), and back.
template <typename T>
std::vector<T> to_std_vector(const ResultVector<T>& v) {
  return std::vector<T>(v.begin(), v.end());
}
template <typename T>
ResultVector<T> to_result_vector(const std::vector<T>& v) {
  return ResultVector<T>(v.begin(), v.end());
}

}  // namespace tg
