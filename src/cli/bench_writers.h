// What a bench leaves behind: PREFIX.csv (one row per run), PREFIX.json (the
// plan, the runs and the per-cell means: what scripts/bench-chart.py draws
// from), and the per-cell table on the terminal.
#pragma once

#include <cstdio>
#include <string>

#include "cli/bench_runner.h"
#include "cli/bench_summary.h"

namespace tg::cli {

void write_bench_csv(const std::string& path, const BenchResult& result);
// `complete` is false while the matrix is still running (bench rewrites both
// files after each placement): the JSON says so, for readers of a cut-short bench.
void write_bench_json(const std::string& path, const BenchPlan& plan, const BenchResult& result,
                      const BenchSummary& summary, const std::string& command_line, bool complete);
void print_bench_table(std::FILE* out, const BenchSummary& summary);

// "*" for a row refused before any placement.
std::string placement_name(const BenchPlacement* placement);

}  // namespace tg::cli
