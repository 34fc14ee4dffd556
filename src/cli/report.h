// What a run prints: a short human summary, or with --json the record of
// report/run_report.h (shared with the library API).
#pragma once

#include <cstdio>

#include "graph/graph.h"
#include "report/run_report.h"

namespace tg::cli {

// The record moved to report/ for the library API; the subcommands keep
// their names for it.
using tg::placement_of;
using tg::RunReport;
using tg::to_json;
using tg::traversed_input_edges;

void print_summary(std::FILE* out, const AnyGraph& graph, const RunReport& report);

}  // namespace tg::cli
