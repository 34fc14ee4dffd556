// RecycledVector<T>: a std::vector for the CPU engine's per-step buffers
// (frontier lists and bitmaps). Two differences from std::vector<T>, both
// for steps that allocate the same large buffers again and again:
//  - blocks of 1 MiB or more are rounded up to a power of two and come from
//    and go back to the BlockCache, so a step reuses warm pages instead of
//    faulting in fresh ones (on the 2-core VM a 2.7 MiB output list cost
//    1.3 ms of faults per BFS step, against 0.3 ms reused);
//  - resize() leaves new elements of plain types uninitialised (the step
//    writes them all), where std::vector would zero them first.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/block_cache.h"

namespace tg {

template <typename T>
class RecyclingAllocator {
 public:
  using value_type = T;
  static constexpr size_t kPooledFrom = size_t{1} << 20;

  RecyclingAllocator() noexcept = default;
  template <typename U>
  RecyclingAllocator(const RecyclingAllocator<U>&) noexcept {}

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
  bool operator==(const RecyclingAllocator<U>&) const noexcept {
    return true;
  }

 private:
  // The next power of two, at least the cache's alignment: few sizes, so a
  // freed block fits the next request of about the same size.
  static size_t pooled_size(size_t bytes) {
    size_t size = BlockCache::kAlign;
    while (size < bytes) size *= 2;
    return size;
  }
};

template <typename T>
using RecycledVector = std::vector<T, RecyclingAllocator<T>>;

}  // namespace tg
