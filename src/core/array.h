// A fixed-size array of plain values that either owns its memory or views
// memory owned by someone else (a memory-mapped file). Unlike std::vector it
// does not zero its contents on allocation: a 4 GB edge array is written once
// by the builder, in parallel, and a serial zero-fill first would double the
// cost and place every page on the first core's NUMA node.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "core/block_cache.h"

namespace tg {

template <typename T>
class Array {
  static_assert(std::is_trivially_copyable_v<T>, "Array holds plain values");

 public:
  Array() = default;

  // Uninitialised storage, aligned to 2 MiB when large so that the buffer can
  // be pinned for the GPU (cudaHostRegister), and from 32 MiB backed by huge
  // pages (BlockCache::fresh says why not below).
  static Array allocate(size_t n) { return allocate_from(n, false); }
  // The same, for per-run vertex arrays: large blocks come from and go back
  // to the BlockCache.
  static Array allocate_reused(size_t n) { return allocate_from(n, true); }

  static Array filled(size_t n, T value) {
    Array a = allocate(n);
    for (size_t i = 0; i < n; ++i) a.data_[i] = value;
    return a;
  }

  static Array from(const std::vector<T>& v) {
    Array a = allocate(v.size());
    if (!v.empty()) std::memcpy(a.data_, v.data(), v.size() * sizeof(T));
    return a;
  }

  // A view of memory kept alive by `owner` (for example an mmap region).
  static Array view(T* data, size_t n, std::shared_ptr<void> owner) {
    Array a;
    a.data_ = data;
    a.size_ = n;
    a.owner_ = std::move(owner);
    return a;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t bytes() const { return size_ * sizeof(T); }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

  std::vector<T> to_vector() const { return std::vector<T>(data_, data_ + size_); }

 private:
  static Array allocate_from(size_t n, bool reuse) {
    Array a;
    a.size_ = n;
    if (n == 0) return a;
    const size_t bytes = n * sizeof(T);
    if (bytes < BlockCache::kAlign) {
      void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
      if (p == nullptr) throw std::bad_alloc();
      a.owner_ = std::shared_ptr<void>(p, [](void* q) { std::free(q); });
    } else {
      const size_t rounded = (bytes + BlockCache::kAlign - 1) / BlockCache::kAlign * BlockCache::kAlign;
      void* p = reuse ? BlockCache::instance().take(rounded) : BlockCache::fresh(rounded);
      if (reuse)
        a.owner_ = std::shared_ptr<void>(p, [rounded](void* q) { BlockCache::instance().give(q, rounded); });
      else
        a.owner_ = std::shared_ptr<void>(p, [](void* q) { std::free(q); });
    }
    a.data_ = static_cast<T*>(a.owner_.get());
    return a;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  std::shared_ptr<void> owner_;  // shared: copies of a graph share its arrays
};

}  // namespace tg
