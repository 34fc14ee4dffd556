// Small OpenMP building blocks used by the CPU engine and the builder.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/recycled_vector.h"

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

// The values of in[0..n) as a result vector of Out, written by every thread:
// no zero-fill first (ResultVector), and a fresh block's pages are faulted
// in by the threads that write them, in huge pages (a vector built the usual
// way took 50 ms for a 134 MB result on the development VM, about 100 ms on
// the H100 machine's 16 cores, where a whole BFS of GAP takes 140).
template <typename Out, typename In>
ResultVector<Out> parallel_to_vector(const In* in, uint64_t n) {
  static_assert(std::is_trivially_copyable_v<Out> && std::is_trivially_default_constructible_v<Out>);
  ResultVector<Out> out;
  out.resize(n);  // uninitialised
  Out* data = out.data();
#pragma omp parallel for schedule(static) if (n >= kSerialBelow)
  for (uint64_t i = 0; i < n; ++i) data[i] = static_cast<Out>(in[i]);
  return out;
}

template <typename T>
void parallel_fill(T* data, uint64_t n, T value) {
#pragma omp parallel for schedule(static)
  for (uint64_t i = 0; i < n; ++i) data[i] = value;
}

}  // namespace tg
