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
  // They start the CPU on a small share: a CPU share too small costs only
  // CPU time, one too large stalls the GPU. Measured on the H100 machine
  // (kron:25, PageRank): GPU 1e10 (zero-copy) to 1.7e10 (subgraph), the CPU
  // about 2e8 per thread alone.
  double gpu_rate = 1e10;
  // The same over the device placement (the edges in GPU memory), which the
  // engine starts from instead: kron:25's gather took 14 ms an iteration on
  // the H200 (7.7e10; docs/PERF.md, session 36), 1.08e9 units.
  double device_gpu_rate = 5e10;
  double cpu_rate_per_thread = 1e8;
  double exchange_rate = 25e9;  // vertex bytes per second over the link, both ways at once
};

}  // namespace tg
