// What a run on the hybrid engine may set (`--engine hybrid`, docs/HYBRID.md).
#pragma once

#include <cstdint>
#include <optional>

namespace tg {

struct HybridOptions {
  std::optional<double> cpu_share;  // a fixed CPU share of each gather's work (0..1); none: the model's cut
  int cpu_threads = 0;              // 0: all of OpenMP's but one, which drives the GPU
  uint64_t pages = 0;               // a gather's pages; 0: hybrid::default_pages(n)
  // The CPU's starting estimate in Garaph's cost model (split_model.h),
  // corrected after every gather: work units (edges plus vertices) per
  // second a thread. It starts the CPU on a small share: a CPU share too
  // small costs only CPU time, one too large stalls the GPU (measured on the
  // H100 machine, kron:25, PageRank: about 2e8 a thread alone; 1.7e8 beside
  // the GPU on the H200). The accelerator's rate is measured, not
  // estimated: the model's first gather runs on it alone.
  double cpu_rate_per_thread = 1e8;
  double exchange_rate = 25e9;  // vertex bytes per second over the link, both ways at once
};

}  // namespace tg
