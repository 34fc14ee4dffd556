// What the benchmark programs share: sizes from the environment, and the
// context lines that make two runs comparable.
#pragma once

#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace tg::bench {

// Sizes come from the environment so that the CTest smoke run and a full
// measurement run the same program with the same flags.
inline uint64_t env_u64(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::stoull(v) : fallback;
}

// The header of every report: OMP_NUM_THREADS is easy to forget, and rates on
// the shared 2-core machine mean little without it.
inline void add_thread_context() {
  benchmark::AddCustomContext("omp_threads", std::to_string(omp_get_max_threads()));
}

// Each program defines this (registering its benchmarks with sizes from the
// environment); bench_main.cc is the main() they share.
void register_benchmarks();

}  // namespace tg::bench
