// Small OpenMP building blocks used by the CPU engine and the builder.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "graph/huge_pages.h"

namespace tg {

// Work items below which a loop runs on the calling thread alone: waking the
// team for an OpenMP region costs microseconds, more than a few thousand
// items of frontier work (SSSP on kron:20 runs hundreds of steps that small).
constexpr uint64_t kSerialBelow = 4096;

// Exclusive prefix sum of in[0..n) into out[0..n], out[n] = total. Two passes
// over per-thread blocks; in and out may be the same array only if n + 1 fits.
template <typename In, typename Out>
Out parallel_exclusive_scan(const In* in, uint64_t n, Out* out) {
  int threads = omp_get_max_threads();
  if (n < (uint64_t{1} << 16) || threads == 1) {
    Out running = 0;
    for (uint64_t i = 0; i < n; ++i) {
      Out x = static_cast<Out>(in[i]);
      out[i] = running;
      running += x;
    }
    out[n] = running;
    return running;
  }
  std::vector<Out> block_sums(threads + 1, 0);
  Out total = 0;
#pragma omp parallel num_threads(threads)
  {
    int t = omp_get_thread_num();
    int nt = omp_get_num_threads();
    uint64_t begin = n * t / nt, end = n * (t + 1) / nt;
    Out local = 0;
    for (uint64_t i = begin; i < end; ++i) local += static_cast<Out>(in[i]);
    block_sums[t + 1] = local;
#pragma omp barrier
#pragma omp single
    {
      for (int i = 1; i <= nt; ++i) block_sums[i] += block_sums[i - 1];
      total = block_sums[nt];
    }
    Out running = block_sums[t];
    for (uint64_t i = begin; i < end; ++i) {
      Out x = static_cast<Out>(in[i]);
      out[i] = running;
      running += x;
    }
  }
  out[n] = total;
  return total;
}

// The values of in[0..n) as a vector of Out, written by every thread. A
// vector built the usual way is written by one thread, page faults and all:
// 50 ms for a 134 MB vertex array (kron scale 25) on the development VM,
// about 100 ms on the H100 machine's, where a whole BFS of GAP takes 140. Each
// thread first touches the pages it will write (storage from the allocator
// holds objects of a trivial type already: C++20's implicit object
// creation), so resize() and the copy find them mapped. The storage is
// fresh from the allocator (mmap), so it is first advised to use huge pages:
// a 268 MB result then faults in 128 pages instead of 65536 (on the 2-core
// VM 35 ms instead of 130-190; on the H100 machine's 16 cores the 4 KiB
// faults alone took 24-44 ms of a 125-250 ms BFS or CC).

template <typename Out, typename In>
std::vector<Out> parallel_to_vector(const In* in, uint64_t n) {
  static_assert(std::is_trivially_copyable_v<Out> && std::is_trivially_default_constructible_v<Out>);
  std::vector<Out> out;
  if (n < (uint64_t{1} << 16)) {
    out.reserve(n);
    for (uint64_t i = 0; i < n; ++i) out.push_back(static_cast<Out>(in[i]));
    return out;
  }
  out.reserve(n);
  Out* data = out.data();
  advise_huge_pages(data, n * sizeof(Out));
  constexpr uint64_t kPerPage = 4096 / sizeof(Out);
#pragma omp parallel for schedule(static)
  for (uint64_t i = 0; i < n; i += kPerPage) data[i] = Out{};
  out.resize(n);
#pragma omp parallel for schedule(static)
  for (uint64_t i = 0; i < n; ++i) data[i] = static_cast<Out>(in[i]);
  return out;
}

template <typename T>
void parallel_fill(T* data, uint64_t n, T value) {
#pragma omp parallel for schedule(static)
  for (uint64_t i = 0; i < n; ++i) data[i] = value;
}

}  // namespace tg
