// The charts of a bench, drawn by scripts/bench-chart.py from PREFIX.json:
// plotting is matplotlib's job, so the program only finds and runs the script,
// and a machine without Python or matplotlib still gets its CSV and JSON.
#pragma once

#include <string>

namespace tg::cli {

// Draws PREFIX.png and PREFIX.svg from `json_path`; never throws. Returns one
// line: where the charts went, or why none were drawn.
std::string draw_bench_charts(const std::string& json_path, const std::string& prefix);

}  // namespace tg::cli
