// The rows of a bench as per-cell means (graph x algorithm x placement), and
// each cell's speedup over the same graph and algorithm on the baseline
// placement.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/bench_runner.h"

namespace tg::cli {

struct BenchCell {
  std::string graph;
  const AlgorithmInfo* algorithm = nullptr;
  const BenchPlacement* placement = nullptr;
  int runs = 0, failed = 0, verified = 0, verify_failed = 0;
  // Means over the runs that happened.
  double compute_s = 0, gteps = 0, bytes_moved = 0, bytes_needed = 0;
  // Graph500's mean of rates: the harmonic mean of the runs' GTEPS (a run
  // that read no edges has no rate and is left out; 0 where none has one).
  double gteps_hmean = 0;
  // The runs' compute times in order: fastest, median (the lower middle of an
  // even count), slowest. A mean far above the median says a few runs were
  // slow (the several-GPU BFS's roots that waited for a core, docs/PERF.md).
  double min_compute_s = 0, median_compute_s = 0, max_compute_s = 0;
  std::optional<double> speedup;  // baseline's mean time / this mean time, where both ran
  // auto: the placement its plan chose and the plan's predicted compute time
  // for it (details.plan), a mean over the runs that carry a plan; an
  // iteration's prediction (PageRank) taken at each run's own iterations, as
  // the planner's records compare them (tests/planner).
  std::string chosen;
  std::optional<double> predicted_s;
  std::string error;              // the last refusal

  int succeeded() const { return runs - failed; }
  std::optional<double> io_amplification() const;  // bytes moved / bytes needed, where any were needed
};

struct BenchSummary {
  const BenchPlacement* baseline = nullptr;
  std::vector<BenchCell> cells;  // in the order the rows first name them

  bool verification_failed() const;
};

// uvm, EMOGI's baseline, when it is among the placements; else the first.
const BenchPlacement* default_baseline(const std::vector<const BenchPlacement*>& placements);

// Rows refused before any placement have no cell.
BenchSummary summarize(const std::vector<BenchRow>& rows, const BenchPlacement* baseline);

// A line for each auto cell: the placement chosen, its predicted and measured
// times and their ratio; where they are more than 2x apart, a word that the
// profile may not describe the machine (two lent H100s read scattered
// zero-copy 2x apart: docs/PERF.md, session 49).
void print_plan_checks(std::FILE* out, const BenchSummary& summary);

}  // namespace tg::cli
