// What a run on the hybrid engine may set (`--engine hybrid`, docs/HYBRID.md).
#pragma once

#include <cstdint>
#include <optional>

namespace tg {

struct HybridOptions {
  std::optional<double> cpu_share;  // a fixed CPU share of each gather's work (0..1); none: the model's cut
  int cpu_threads = 0;              // 0: all of OpenMP's but one, which drives the GPU
  uint64_t pages = 0;               // a gather's pages; 0: hybrid::default_pages(n)
  // Starting estimates of Garaph's cost model (split_model.h), corrected
  // after every gather: work units (edges plus vertices) per second.
  double gpu_rate = 4e9;
  double cpu_rate_per_thread = 1.5e8;
  double exchange_rate = 20e9;  // vertex bytes per second over the link, both ways at once
};

}  // namespace tg
