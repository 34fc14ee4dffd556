// Large buffers backed by 2 MiB pages. With transparent huge pages in
// "madvise" mode (the Debian default), Linux backs a buffer with 4 KiB pages
// unless asked; the first touch of each 4 KiB page is a fault, and faults
// dominated building a graph: on the 2-core VM of docs/PERF-graph.md, touching
// 256 MiB took 0.9-1.0 s with 4 KiB pages and 0.02-0.4 s with 2 MiB pages.
// Huge pages also spare TLB misses in the random writes of the scatter.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/array.h"

namespace tg {

// A hint only: ignored where the kernel lacks THP. Call before the first touch.
inline void advise_huge_pages(void* data, size_t bytes) {
#ifdef MADV_HUGEPAGE
  constexpr size_t kHuge = size_t{1} << 21;
  if (data == nullptr || bytes < kHuge) return;
  const uintptr_t page = 4096;
  uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + page - 1) / page * page;
  uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) / page * page;
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

// Uninitialised, like Array::allocate.
template <typename T>
Array<T> allocate_huge(size_t n) {
  Array<T> a = Array<T>::allocate(n);
  advise_huge_pages(a.data(), a.bytes());
  return a;
}

// vector::resize, on huge pages when the vector was empty.
template <typename T>
void resize_huge(std::vector<T>& v, size_t n) {
  if (v.empty() && v.capacity() < n) {
    v.reserve(n);
    advise_huge_pages(v.data(), n * sizeof(T));
  }
  v.resize(n);
}

}  // namespace tg
