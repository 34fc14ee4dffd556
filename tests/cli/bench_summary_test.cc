// bench's per-cell summary of auto's plans (cli/bench_summary.h): the
// predicted time of the placement each run's plan chose, beside the measured
// mean, per iteration where the plan predicts one, and the line bench prints,
// with its word on a profile more than 2x off.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/bench_placements.h"
#include "cli/bench_summary.h"
#include "cli/choices.h"

namespace tg::cli {
namespace {

const BenchPlacement* placement(const std::string& name) {
  for (const BenchPlacement& p : bench_placements())
    if (p.name == name) return &p;
  return nullptr;
}

// A plan choosing `choice` among zero-copy (1 s predicted) and subgraph (2 s,
// 0.1 s an iteration where `per_iteration`).
nlohmann::json plan(const std::string& choice, bool per_iteration) {
  nlohmann::json zc = {{"placement", "zerocopy-aligned"}, {"predicted_compute_s", 1.0}};
  nlohmann::json sub = {{"placement", "subgraph"}, {"predicted_compute_s", 2.0}};
  if (per_iteration) sub["predicted_per_iteration_s"] = 0.1;
  return {{"choice", choice}, {"candidates", {zc, sub}}};
}

BenchRow row(const std::string& algorithm, const BenchPlacement* p, double compute_s, uint64_t iterations,
             const nlohmann::json& details) {
  BenchRow r;
  r.graph = "g";
  r.algorithm = &algorithm_named(algorithm);
  r.placement = p;
  r.compute_s = compute_s;
  r.iterations = iterations;
  r.details = details;
  return r;
}

std::string printed(const BenchSummary& s) {
  char* text = nullptr;
  size_t size = 0;
  std::FILE* f = open_memstream(&text, &size);
  print_plan_checks(f, s);
  std::fclose(f);
  std::string out(text, size);
  std::free(text);
  return out;
}

TEST(BenchSummary, AutoCellsCarryTheirPlansPredictionBesideTheMeasuredMean) {
  const BenchPlacement* autop = placement("auto");
  const BenchPlacement* fixed = placement("zerocopy-aligned");
  ASSERT_TRUE(autop && fixed);
  const std::vector<BenchRow> rows = {
      row("bfs", autop, 0.8, 5, {{"plan", plan("zerocopy-aligned", false)}}),
      row("bfs", autop, 1.2, 7, {{"plan", plan("zerocopy-aligned", false)}}),
      // PageRank: 0.1 s an iteration predicted, at each run's own iterations (20 and 10).
      row("pagerank", autop, 2.5, 20, {{"plan", plan("subgraph", true)}}),
      row("pagerank", autop, 1.5, 10, {{"plan", plan("subgraph", true)}}),
      row("bfs", fixed, 0.9, 5, nlohmann::json::object()),  // a fixed placement plans nothing
  };
  const BenchSummary s = summarize(rows, fixed);
  ASSERT_EQ(s.cells.size(), 3u);
  EXPECT_EQ(s.cells[0].chosen, "zerocopy-aligned");
  ASSERT_TRUE(s.cells[0].predicted_s);
  EXPECT_DOUBLE_EQ(*s.cells[0].predicted_s, 1.0);
  EXPECT_EQ(s.cells[1].chosen, "subgraph");
  ASSERT_TRUE(s.cells[1].predicted_s);
  EXPECT_DOUBLE_EQ(*s.cells[1].predicted_s, (2.0 + 1.0) / 2);
  EXPECT_FALSE(s.cells[2].predicted_s);
  const std::string out = printed(s);
  EXPECT_NE(out.find("plan: g bfs chose zerocopy-aligned, predicted 1000.000 ms, measured 1000.000 (1.00)\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("plan: g pagerank chose subgraph, predicted 1500.000 ms, measured 2000.000 (0.75)\n"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("calibrate"), std::string::npos) << out;
}

TEST(BenchSummary, APredictionMoreThanTwiceOffSaysToCalibrate) {
  const BenchPlacement* autop = placement("auto");
  ASSERT_TRUE(autop);
  // Zero-copy predicted 1 s, measured 2.2 s: a host slower than its profile (session 49's).
  const BenchSummary s = summarize({row("sssp", autop, 2.2, 9, {{"plan", plan("zerocopy-aligned", false)}})}, autop);
  const std::string out = printed(s);
  EXPECT_NE(out.find("(0.45); more than 2x apart: the profile may not describe this machine (tiergraph calibrate)"),
            std::string::npos)
      << out;
  // A failed run carries no plan to the cell, and a cell without one prints nothing.
  BenchRow failed = row("sssp", autop, 0, 0, nlohmann::json::object());
  failed.error = "refused";
  EXPECT_EQ(printed(summarize({failed}, autop)), "");
}

}  // namespace
}  // namespace tg::cli
