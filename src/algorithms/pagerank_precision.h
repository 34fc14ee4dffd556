// Which precision PageRank's pull form sends contributions in: the run
// chooses by it (pagerank.h) and the verifier allows for its rounding
// (pagerank_verifier.cc).
#pragma once

#include "algorithms/algorithm.h"

namespace tg {

// Contributions::kAuto: float where the tolerance is 1e-6 or coarser (see
// pagerank_pull), double for finer ones and for 0 (run to max_iters, as
// close as the arithmetic gets). The push form (accumulative) keeps doubles.
inline bool pagerank_contributions_float(const AlgorithmOptions& options) {
  if (options.contributions == Contributions::kAuto) return options.tolerance >= 1e-6;
  return options.contributions == Contributions::kFloat;
}

// Whether a run with these options sends floats: the pull form with float
// contributions (the push form keeps doubles whatever they say).
inline bool pagerank_sends_floats(const AlgorithmOptions& options) {
  return !options.accumulative && pagerank_contributions_float(options);
}

}  // namespace tg
