// The per-iteration choice of how the active edges reach the GPU:
//
//   subgraph, CPU gather: build the SubCSR (Subway algorithm 3), OpenMP
//                         threads copy the active lists into pinned staging,
//                         cudaMemcpyAsync moves them (the paper's way);
//   subgraph, GPU gather: the same SubCSR, but a kernel reads the lists over
//                         zero-copy (warp per list, 128-byte aligned) straight
//                         into device memory;
//   stream:               copy the partitions holding active vertices (PT-Opt);
//   zero-copy:            no copy, the kernels read host memory in place
//                         (the GPU engine's zerocopy-aligned placement; later).
//
// Subway's rule is a threshold on the fraction of active edges: above 80%,
// stream (section 3.1). `kThreshold` applies it with the threshold as a
// parameter; `kCostModel` compares estimated times from link and gather rates
// (PLATFORM.md priors, replaced by rates measured during the run). Every
// choice keeps its inputs and estimates (IterationRecord) so that the
// threshold can be measured rather than assumed. Pure host logic.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "engines/stream_stats.h"

namespace tg::subgraph {


// Rates in bytes (or lists) per second. Defaults are this machine's
// measurements (../shared/PLATFORM.md, H100 over PCIe Gen5) where they exist,
// and guesses, marked, where they do not yet.
struct TransferRates {
  double link = 54.1e9;             // pinned cudaMemcpy host->device
  double cpu_gather = 20e9;         // guess: 16 cores copying lists into pinned staging
  double gpu_gather = 50.7e9;       // zero-copy, warp-merged, 128 B aligned, address order
  double gpu_gather_lists = 44e6;   // lists/s floor: scattered lists over multi-GB footprints
  double device_pass = 1000e9;      // bytes/s of the scans and compactions of steps 1-5
  double launch_s = 10e-6;          // fixed cost per kernel launch or copy
};


enum class ChoiceRule { kThreshold, kCostModel };

struct ChoiceParams {
  ChoiceRule rule = ChoiceRule::kThreshold;
  double stream_threshold = 0.8;  // Subway: stream when active edges > 80% of all
  ::tg::GatherWay gather = ::tg::GatherWay::kAuto;  // kAuto: the cheaper estimate
  bool allow_stream = true;
  bool allow_zero_copy = false;  // not wired yet (phase 2+)
};


TransferEstimate estimate_transfer(const IterationShape& shape, const TransferRates& rates);


// Throws tg::Error for a threshold outside [0, 1] or a shape whose active
// part exceeds its whole.
TransferChoice choose_transfer(const IterationShape& shape, const TransferRates& rates, const ChoiceParams& params);

// A measured rate: bytes (or lists) over seconds across the last `window`
// samples large enough to mean something; the prior until there is one.
class RateMeter {
 public:
  explicit RateMeter(double min_amount = double(1 << 20), size_t window = 8) : min_(min_amount), window_(window) {}
  void add(double amount, double seconds);
  double rate(double prior) const;
  uint64_t samples() const { return samples_; }

 private:
  double min_;
  size_t window_;
  std::deque<std::pair<double, double>> recent_;
  uint64_t samples_ = 0;
};

struct TransferMeters {
  RateMeter link, cpu_gather, gpu_gather;
  // The priors, with each measured rate in place of its prior.
  TransferRates rates(const TransferRates& prior) const;
};



}  // namespace tg::subgraph
