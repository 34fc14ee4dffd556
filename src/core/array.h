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
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <type_traits>
#include <vector>

namespace tg {

// Freed vertex arrays (Array::allocate_reused), kept for the next allocation
// of the same size. A fresh 2 MiB-aligned block costs its first touch again
// (a huge-page fault with zeroing: 5-7 ms for a 4 MiB array on the 2-core
// VM, a quarter of a whole BFS on urand:20), and an engine allocates the
// same vertex arrays run after run (bench trials, one run per source, a
// Python loop). Holds at most kBlocks blocks, so at most a few vertex arrays
// of the largest graph; the oldest is freed when a new one arrives.
// TG_ARRAY_CACHE=0 turns it off.
class BlockCache {
 public:
  static constexpr size_t kBlocks = 8;

  // Never destroyed: an Array freed during static destruction may still
  // give its block back (the process's exit returns the memory).
  static BlockCache& instance() {
    static BlockCache* cache = new BlockCache;
    return *cache;
  }
  // A cached block of exactly `bytes`, or nullptr.
  void* take(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < blocks_.size(); ++i)
      if (blocks_[i].bytes == bytes) {
        void* p = blocks_[i].data;
        blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
        return p;
      }
    return nullptr;
  }
  // Keeps the block for reuse (or frees it when the cache is off).
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
    const char* env = std::getenv("TG_ARRAY_CACHE");
    enabled_ = env == nullptr || std::strcmp(env, "0") != 0;
  }
  struct Block {
    void* data;
    size_t bytes;
  };
  std::mutex mutex_;
  std::vector<Block> blocks_;
  bool enabled_ = true;
};

template <typename T>
class Array {
  static_assert(std::is_trivially_copyable_v<T>, "Array holds plain values");

 public:
  Array() = default;

  // Uninitialised storage, aligned to 2 MiB when large so that the buffer can
  // be pinned for the GPU (cudaHostRegister) and backed by huge pages.
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
    size_t bytes = n * sizeof(T);
    size_t align = bytes >= (size_t{1} << 21) ? (size_t{1} << 21) : 64;
    size_t rounded = (bytes + align - 1) / align * align;
    reuse = reuse && align > 64;
    void* p = reuse ? BlockCache::instance().take(rounded) : nullptr;
    if (p == nullptr) {
      p = std::aligned_alloc(align, rounded);
      if (p == nullptr) throw std::bad_alloc();
      // First touch of 4 KiB pages is slow on these VMs (1 s per 256 MiB
      // measured); huge pages cut it 3-50x and ease GPU address translation.
      if (align > 64) madvise(p, rounded, MADV_HUGEPAGE);
    }
    if (reuse)
      a.owner_ = std::shared_ptr<void>(p, [rounded](void* q) { BlockCache::instance().give(q, rounded); });
    else
      a.owner_ = std::shared_ptr<void>(p, [](void* q) { std::free(q); });
    a.data_ = static_cast<T*>(p);
    return a;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  std::shared_ptr<void> owner_;  // shared: copies of a graph share its arrays
};

}  // namespace tg
