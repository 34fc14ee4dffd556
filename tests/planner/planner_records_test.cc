// The planner against measured runs: each record of tests/planner/data/
// (scripts/planner-records.py) holds the mean measured time of every
// placement of a bench cell and what the planner needs to plan that cell
// again without the graph (its facts and the zero-copy edge cache). The
// current model plans them all again: the issue asks its predictions within
// 25% of the measured times and `--placement auto` within 10% of the best
// fixed placement. A change to the model that loses predictions fails here.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/registry.h"
#include "planner/machine_profile.h"
#include "planner/planner.h"

namespace tg::planner {
namespace {

struct Tally {
  int predictions = 0, within = 0, cells = 0, best_chosen = 0;
};

// The date in a record's name (h200-2026-12-04: 2026-12-04).
std::string recorded_on(const std::string& name) { return name.substr(name.find('-') + 1); }

// Plans every cell of `name` again with the profile `profile_name` (the
// records' own by default) and prints each prediction over the measured time.
Tally replan(const std::string& name, std::string profile_name = "") {
  const std::string dir = std::string(TG_TESTS_DIR) + "/planner/data/";
  const MachineProfile profile = read_profile(dir + (profile_name.empty() ? name : profile_name) + ".profile.json");
  std::ifstream in(dir + name + ".json");
  const nlohmann::json records = nlohmann::json::parse(in);
  Tally t;
  for (const nlohmann::json& cell : records.at("cells")) {
    const std::string algorithm = cell.at("algorithm");
    RunRequest request = make_request(*find_algorithm(algorithm));
    if (request.algorithm->needs_source()) request.sources = {0};
    // The records of 2026-12-02 and before ran SSSP on every placement at the
    // mean weight's width (128 on weights 1..255), before the subgraph
    // placement narrowed it (session 28): planned as run, the width given.
    // Later records name the width they ran at (0: the engine's own).
    if (algorithm == "sssp") request.options.delta = cell.value("sssp_delta", 128.0);
    const GraphFacts graph = graph_facts_from_json(cell);
    const EdgeCachePlan cache = zero_copy_cache_from_json(cell);
    const Plan plan = make_plan(graph, request, cell.at("budget_bytes"), cell.at("room_bytes"), profile, &cache,
                                streamed_heads_from_json(cell));
    const nlohmann::json& measured = cell.at("measured_ms");
    // TG_DESCRIBE_CELL=plan_kron_25_q.json:bfs prints that cell's whole plan (its terms and basis).
    const char* describe_cell = std::getenv("TG_DESCRIBE_CELL");
    if (describe_cell != nullptr && cell.at("bench").get<std::string>() + ":" + algorithm == describe_cell) {
      std::printf("%s\n", describe(plan).c_str());
      // The one expected trajectory's levels over zero-copy with its cache's
      // heads and whole lists (the plan's work is the mean of drawn sources).
      if (algorithm == "bfs")
        for (const BfsLevel& l : expected_bfs_levels(graph, true, cache.heads, double(cache.lists_cached())))
          std::printf("level %s frontier %10.0f entries %12.0f lists %10.0f past heads: lists %10.0f entries %12.0f\n",
                      l.pull ? "pull" : "push", l.frontier, l.entries, l.lists, l.lists_past_heads,
                      l.entries_past_heads);
    }
    std::string line = cell.at("bench").get<std::string>() + " " + algorithm + ": " + std::string(name_of(plan.choice));
    // CC on subgraph and stream linked every edge until session 44, which
    // samples by pushes there on symmetric graphs: such cells recorded
    // before it measured another form, which the model no longer predicts.
    const bool cc_of_another_form = algorithm == "cc" && !graph.directed && recorded_on(name) < "2026-12-05";
    for (const Candidate& c : plan.candidates) {
      const std::string placement(name_of(c.placement));
      if (cc_of_another_form && is_streamed(c.placement)) continue;
      // auto's runs where they took this placement: a bench prepares a fixed
      // placement once for all its algorithms (SSSP's weights placed too, and
      // over zero-copy cached beside the ids), auto once for each, as planned.
      const bool auto_took_it = measured.contains("auto") && cell.value("auto_placement", "") == placement;
      const char* key = auto_took_it ? "auto" : measured.contains(placement) ? placement.c_str() : nullptr;
      if (!c.fits || key == nullptr) continue;
      // PageRank's runs stop at different iteration counts: per iteration, as measured.
      const double predicted = 1e3 * c.compute_s / (algorithm == "pagerank" ? plan.work.per : 1);
      const double ratio = predicted / measured.at(key).get<double>();
      ++t.predictions;
      t.within += std::abs(ratio - 1) <= 0.25;
      char text[96];
      std::snprintf(text, sizeof text, " | %s %.2f%s", placement.c_str(), ratio, std::abs(ratio - 1) <= 0.25 ? "" : "*");
      line += text;
    }
    double best = INFINITY;
    for (const auto& [placement, ms] : measured.items())
      if (placement != "auto") best = std::min(best, ms.get<double>());
    const std::string chosen(name_of(plan.choice));
    ++t.cells;
    if (measured.contains(chosen) && measured.at(chosen).get<double>() <= 1.10 * best) ++t.best_chosen;
    std::printf("%s\n", line.c_str());
  }
  std::printf("%s: %d of %d predictions within 25%%; the choice within 10%% of the best fixed placement in %d of %d cells\n",
              name.c_str(), t.within, t.predictions, t.best_chosen, t.cells);
  return t;
}

// Every cell planned again (with the profile `profile_name`, the records'
// own by default): `cells` cells, `predictions` predictions, auto's choice the
// best fixed placement or within 10% of it in every cell, and at least
// `within` predictions within 25%.
void expect_records(const std::string& name, int within, int cells = 32, int predictions = 64,
                    const std::string& profile_name = "", int best_chosen = -1) {
  const Tally t = replan(name, profile_name);
  EXPECT_EQ(t.cells, cells);
  EXPECT_EQ(t.predictions, predictions);
  EXPECT_GE(t.best_chosen, best_chosen < 0 ? t.cells : best_chosen);
  EXPECT_GE(t.within, within);
}

// kron and urand at scales 24 and 25 (weights 1..255), a quarter budget and
// the whole GPU, on the H100 of 2026-11-28 (docs/gpu-check/2026-11-28h-planner,
// docs/PLANNER.md "How good it is").
// Measured before the engine's probes' rule for BFS in GPU memory
// (engines/direction.h): urand:24's in-memory BFS cell is the one the
// planner, which now expects that rule, misses by it (0.60).
// SSSP's rounds by the typical hops (session 23) took its stream cells in: 54 -> 57.
// Session 34: the subgraph placement's pushes under its loads (the slower of
// the two, as the engine runs them since session 32) put urand:25's BFS on
// subgraph, measured before, at 0.63: 56.
// Session 44: the streamed placements' CC cells (measured linking every
// edge, a form they no longer run on these symmetric graphs) left out: 64 ->
// 56 predictions, 5 of the 8 within 25%: 51.
// Session 48: BFS over zero-copy as the mean of drawn sources, a sector a
// list read past the heads: kron:24's cell, measured from two sources on the
// engine before the pull by degree class (kron:25 23.8 ms then, 7.1 now),
// 1.13 -> 1.33: 50.
// Session 53: CC refitted (kron:25's over zero-copy 1.35 -> 1.24) and a
// relaxation's atomic at the cache's rate (urand:25's SSSP in GPU memory
// 1.27 -> 1.05): 52.
TEST(PlanRecords, H100KronAndUrandAtScales24And25) { expect_records("h100-2026-11-28", 52, 32, 56); }

// The same on the H200 of 2026-12-02, a machine the model was not fitted on
// (docs/gpu-check/2026-12-02a, b; docs/PLANNER.md); urand:24's in-memory BFS
// measured again after the probes' rule (its cell's "note"). Its profile
// carries the forest links' rate of a later calibrate on an H200 (session 23),
// which CC's linking of every edge takes (kGraphLinksOverCalibrated fitted
// on these cells: 48 within 25% before the rate, 54 with it), and SSSP's
// rounds by the typical hops (kSsspRoundsPerHop fitted on its stream runs): 57;
// with the random reads' rate measured at 64 MiB too (a later loan): 58;
// PageRank's colder values read at the largest footprint's rate beside the
// edges' stream (planner.cc, vertex_time): 60. kron:25's BFS over zero-copy
// measured again after the pull rule by degree class (its cell's "note").
// PageRank's quarter-budget cells measured again with the in-lists packed on
// subgraph and stream (session 26; their facts carry the packed bytes the
// planner copies): 0.91-0.97 of measured. The H100's records predate packed
// lists, and their facts name no packed bytes: planned with the plain lists.
// Session 34: CC's sampled form at a footprint widened by its sampled entries
// took urand:24's two CC cells in; PageRank's colder values at their own
// footprint's rate (the gather in groups of eight lanes) took urand's two
// in-memory PageRank cells out (0.71: measured with the warp-a-list gather);
// the subgraph placement's pushes under its loads (since session 32) took
// urand:25's BFS on subgraph, measured before them, out (0.74): 59.
// Session 44: the streamed CC cells left out (as above): 64 -> 56
// predictions, 7 of the 8 within: 52.
TEST(PlanRecords, H200KronAndUrandAtScales24And25) { expect_records("h200-2026-12-02", 52, 32, 56); }

// SSSP at a quarter budget on the H200 measured again with the subgraph
// placement's out-lists packed, weights as bytes (session 27), then with the
// next piece's gather beside each push and the width at a quarter of the
// mean (session 28: kron:25 228.3 and 254.3 ms, urand:25 303.0 and 301.8),
// then (session 32, docs/PERF.md, four sources twice) with light lists kept
// apart where they fit in GPU memory and pushed in place, and the load
// kernels capped so that pushes run beside loads: kron:25 164.0 ms (split),
// and (session 33) with the light lists allowed three quarters of the
// budget: urand:25 191.0 and 187.5 ms in two calls (split; 266.8 unsplit).
// The cells' facts predate packed lists; given the packed bytes of the same
// graph's lists (its PageRank cell's packed_in_bytes: undirected, the same
// lists), the plan splits both, predicts their times within 25%, and auto
// takes the subgraph placement, the fastest measured; at a quarter of the
// budget neither splits.
// kron and urand at scales 24 and 25 on the H200 again with the engine of
// session 34 (2026-12-03, docs/gpu-check/2026-12-03h, docs/PERF.md "Session
// 34"): SSSP at the engine's own width with light lists and loads beside
// pushes, PageRank's gather in groups of eight lanes; the same profile; no
// stream placement at scale 25 (the device time). 50 within 25% with the
// PageRank and CC changes of this session, 51 with the subgraph placement's
// SSSP modelled as run (pushes under loads, rounds by BFS's levels, a pass
// over the vertex arrays a round: its four cells 0.86-1.10). The misses:
// kron:25's BFS over zero-copy (0.53), urand:24's CC on subgraph and stream
// (1.69, 1.39: its links run faster than on the other graphs, as in the
// records above), urand:24's BFS over zero-copy (1.27), urand:25's CC over
// zero-copy (1.25).
// Session 44: its six streamed CC cells left out (urand:24's two misses
// among them): 56 -> 50 predictions, 47 within.
// Session 48: BFS over zero-copy from drawn sources: urand:24 1.27 -> 0.97,
// kron:25 0.53 -> 0.68, kron:24 1.15 -> 1.35 (each the mean of two sources,
// where one source's run on kron takes 3-12 ms; the 16-source records below
// read 1.11 and 0.84 on kron): 47.
TEST(PlanRecords, H200AtScale24OnTheEngineOfSession34) {
  expect_records("h200-2026-12-03", 47, 32, 50, "h200-2026-12-02");
}

// BFS and CC again on the same graphs with the engine of session 35, 16
// sources a BFS and four runs a CC (docs/PERF.md "Session 35"), where the
// records above took two sources and one run: urand:24's BFS over zero-copy
// (1.27 there) and urand:25's CC over zero-copy (1.25) come within 25%
// (1.22, 1.08), and urand:24's CC on stream (1.39 -> 1.19). The misses that
// stay: kron:25's BFS over zero-copy (0.66 of 6.04 ms: its sources split into
// runs of 3-4 ms and runs of 5-12 ms, docs/PLANNER.md) and urand:24's CC on
// subgraph (1.40).
// Session 44: the six streamed CC cells left out, urand:24's CC on subgraph
// (1.40) among them: 28 -> 22 predictions, 21 within; kron:25's BFS over
// zero-copy stays the one miss.
// Session 48: BFS over zero-copy as the mean of drawn sources, a sector a list
// read past the heads (work_model.h drawn_bfs_levels): kron:25 0.66 -> 0.84,
// every prediction within 25%.
// Session 53: CC refitted on the H100's records of that session's engine
// (work_model.cc): urand:24's CC here reads 0.74 (a quarter budget, zero-copy)
// and 0.73 (the whole GPU), recorded on an engine that waited 64 times a run
// (0.5-1.2 ms of it on the H100, a twentieth here): 20 of 22.
TEST(PlanRecords, H200BfsAndCcWithMoreSources) {
  expect_records("h200-2026-12-04", 20, 16, 22, "h200-2026-12-02");
}

// CC sampled by pushes on the streamed placements, its heads read in place
// (session 44's form, measured in session 45), on the H100: kron and urand at
// scales 24 and 25, a quarter budget, four runs each
// (docs/gpu-check/2026-12-05-h100-session45.txt, call 1; urand's JSON did not
// come back, so its cells take the bench logs' means beside the graphs'
// facts from the H200's records of the same graphs). Every prediction
// within 25% (0.88-1.19): stream's whole pass for kron's small components
// included, urand's none. The bench ran with the profile of 2026-11-28.
TEST(PlanRecords, H100CcSampledByPushes) { expect_records("h100-2026-12-05", 12, 4, 12, "h100-2026-11-28"); }

TEST(PlanRecords, H200SsspOverPackedOutLists) {
  const std::string dir = std::string(TG_TESTS_DIR) + "/planner/data/";
  const MachineProfile profile = read_profile(dir + "h200-2026-12-02.profile.json");
  std::ifstream in(dir + "h200-2026-12-02.json");
  const nlohmann::json records = nlohmann::json::parse(in);
  struct Measured {
    std::string bench;
    double ms;
    bool split;
  };
  const std::vector<Measured> measured = {{"plan_kron_25_q.json", 164.0, true},
                                          {"plan_urand_25_q.json", (191.0 + 187.5) / 2, true}};
  for (const auto& [bench, packed_ms, split] : measured) {
    uint64_t packed_in = 0;
    const nlohmann::json* cell = nullptr;
    for (const nlohmann::json& c : records.at("cells")) {
      if (c.at("bench") != bench || c.at("budget_bytes").get<uint64_t>() > c.at("graph").at("edges").get<uint64_t>())
        continue;
      if (c.at("algorithm") == "pagerank") packed_in = c.at("graph").at("packed_in_bytes");
      if (c.at("algorithm") == "sssp") cell = &c;
    }
    ASSERT_NE(cell, nullptr) << bench;
    ASSERT_GT(packed_in, 0u) << bench;
    RunRequest request = make_request(*find_algorithm("sssp"));
    request.sources = {0};
    GraphFacts graph = graph_facts_from_json(*cell);
    const EdgeCachePlan cache = zero_copy_cache_from_json(*cell);
    auto plan = [&] { return make_plan(graph, request, cell->at("budget_bytes"), cell->at("room_bytes"), profile, &cache); };
    auto subgraph = [](const Plan& p) {  // its candidate (a default one, predicting nothing, where missing)
      for (const Candidate& c : p.candidates)
        if (c.placement == Placement::kSubgraph) return c;
      return Candidate{};
    };
    auto subgraph_ms = [&](const Plan& p) { return 1e3 * subgraph(p).compute_s; };
    auto splits = [&](const Plan& p) { return subgraph(p).basis.find("light lists") != std::string::npos; };
    const Plan plain = plan();
    graph.packed_out_bytes = packed_in;
    graph.byte_weights = true;
    const Plan packed = plan();
    const double ratio = subgraph_ms(packed) / packed_ms;
    std::printf("%s sssp subgraph over packed out-lists: predicted %.1f ms (%.2f GB over the link), measured %.1f: %.2f "
                "(plain lists: %.1f)\n",
                bench.c_str(), subgraph_ms(packed), subgraph(packed).link_bytes / 1e9, packed_ms, ratio, subgraph_ms(plain));
    EXPECT_NEAR(ratio, 1.0, 0.25) << bench;
    EXPECT_LT(subgraph_ms(packed), subgraph_ms(plain)) << bench;
    EXPECT_EQ(packed.choice, Placement::kSubgraph) << bench << ": " << packed.reason;
    EXPECT_EQ(splits(packed), split) << bench;
    if (split) {
      // A quarter of the budget: the light lists no longer fit three quarters of it.
      EXPECT_FALSE(splits(make_plan(graph, request, cell->at("budget_bytes").get<uint64_t>() / 4, cell->at("room_bytes"),
                                    profile, &cache)))
          << bench;
    }
    // Weights past a byte: the lists cross plain.
    graph.byte_weights = false;
    EXPECT_DOUBLE_EQ(subgraph_ms(plan()), subgraph_ms(plain)) << bench;
  }
}

// CC sampled by pushes with the streamed placements' heads cache (session
// 46's build, measured in session 47 on the H100): kron and urand at scales
// 24 and 25, a quarter budget, four runs each (docs/PERF.md "Session 47").
// The heads read from GPU memory put subgraph's CC at 6.1-19.3 ms, beside
// zero-copy's 5.2-20.4; stream keeps its whole pass on kron (44.7, 87.5 ms).
// 11 of 12 predictions within 25% (urand:25's stream 1.43). On urand the
// three are predicted within 1% of each other and auto keeps zero-copy (the
// choice's margin); the runs of one placement spread by 25-40% (urand:25's
// zero-copy 16.5-23.3 ms, the same sample step on subgraph 15.8-19.7), so
// the best fixed placement of four runs is a draw there: zero-copy within 10%
// of it in 2 of the 4 cells (kron's).
TEST(PlanRecords, H100CcFromTheHeadsCache) { expect_records("h100-2026-12-06", 11, 4, 12, "h100-2026-11-28", 2); }

// Every algorithm at a quarter budget on kron:25 and urand:25 again on the
// H100 with the engine of session 47 (docs/gpu-check/2026-12-06-h100-session48,
// docs/PERF.md "Session 48"): BFS from 16 sources, CC four runs alone, SSSP and
// PageRank from 2; SSSP at the engine's own width (the subgraph placement's
// split over light lists: 5.5-7.0 GB moved, predicted within 8%). The misses:
// urand:25's CC on subgraph and stream (1.30: a placement's four runs spread
// 21-37%); kron:25's BFS over zero-copy, 0.61 from one expected trajectory as
// on the H200, is 0.79 from drawn sources. Auto's urand:25 CC is zero-copy's
// 19.5 ms against stream's 17.7 (1.10): 7 of 8 cells.
TEST(PlanRecords, H100QuarterBudgetOnTodaysEngine) {
  expect_records("h100-2026-12-06b", 22, 8, 24, "h100-2026-11-28", 7);
}

// The same at scale 24 on the H200 (session 48, call 4): 23 of 24 within 25%.
// urand:24's CC over zero-copy reads 0.71 and the choice misses there (zero-copy
// 11.1 ms against stream's 9.9): one of zero-copy's four runs took 15.0 ms, the
// others 9.5-10.2, as stream's 9.2-10.5 (the medians 9.98 and 9.99).
// Since session 53's CC refit (above) 22 of 24: urand:24's CC over zero-copy
// 0.63, on subgraph 0.70.
TEST(PlanRecords, H200AtScale24OnTodaysEngine) { expect_records("h200-2026-12-06", 22, 8, 24, "h200-2026-12-02", 7); }

// The same on the H100 (session 49, call 4; docs/gpu-check/2026-12-06-h100-
// session49): 24 of 24 within 25%, on a host whose own calibrate matched the
// profile of 2026-11-28. The choice misses on urand:24's CC (zero-copy 11.9 ms
// against stream's 9.8), where the three placements run the same sample step
// and its runs spread 13-20 ms on urand:25 (docs/PERF.md, "Session 49").
// The first host of that morning read scattered zero-copy half as fast (SSSP
// 436 ms against 219 here): records from it are not kept.
TEST(PlanRecords, H100AtScale24OnTodaysEngine) { expect_records("h100-2026-12-06c", 24, 8, 24, "h100-2026-11-28", 7); }

// The whole GPU on today's engine (session 51, docs/gpu-check/2026-12-06-h100-
// session51; urand:25 from session 52): kron:24, kron:25 (each also numbered
// hubs first, convert --vertex-order degree), urand:24 and urand:25 with
// weights 1..255, BFS, CC, SSSP and PageRank from 4 sources on device and
// auto. GAP's numbering: kron:24's CC 1.30 (auto's runs of the same
// placement took 4.5 ms against device's 6.4), urand:25's SSSP 1.31. Hubs
// first, PageRank 1.05 and 1.21 since the model counts the staged values and
// a cache's worth of hubs by the value (1.99 and 2.21 before), CC 1.03 and
// 1.41 since its roots are taken for the hubs there (2.72 and 3.67 before),
// BFS 0.99 and 1.24 since session 52's traces (1.33 and 1.45 before: its
// pulls find a parent among a sorted list's first entries, and a level's
// fixed cost was too high), SSSP on kron:25 1.29. Session 53's CC refit (on
// an engine 0.5-0.6 ms faster a run hubs first: the records below) reads this
// engine's CC hubs first at 0.69 and 0.74, GAP's numbering 0.96-1.24; SSSP
// hubs first 1.05 / 1.29 -> 0.97 / 1.04 since its relaxations read at the
// cache's rate there, urand:25's 1.31 -> 1.09 since a relaxation's atomic
// does everywhere, PageRank hubs first 1.05 / 1.21 -> 0.93 / 0.89 at the
// cache's rate too (session 53): 22 of 24.
TEST(PlanRecords, H100WholeGpuOnTodaysEngine) { expect_records("h100-2026-12-06d", 22, 24, 24, "h100-2026-11-28"); }

// kron:26 in both numberings at the whole GPU (session 52), recorded as an
// out-of-sample check of the BFS model refitted on scale 24-25 traces, which
// it failed (BFS 0.72 / 0.68: a pull's pass over every vertex grows with the
// graph); the model since counts that pass, fitted with these records. CC,
// SSSP and PageRank hubs first read 1.31-2.15 here (docs/PLANNER.md); CC
// 0.93 and 1.21 since session 53's refit (2.15 and 1.34 before), SSSP hubs
// first 1.39 -> 0.99, PageRank hubs first 1.31 -> 0.84: 8 of 8.
TEST(PlanRecords, H100Kron26WholeGpu) { expect_records("h100-2026-12-06e", 8, 8, 8, "h100-2026-11-28"); }

// CC on the engine of session 53 (most_frequent_label's 64 samples read back
// with one wait, not 64: 0.5-1.2 ms less a run), on the H100: a quarter budget
// on kron and urand at scales 24-25 (zerocopy-aligned, subgraph, stream,
// auto), and the whole GPU on kron:24-26 in both numberings and urand:25
// (docs/gpu-check/2026-12-06-h100-session53). The model refitted on them
// (work_model.cc): 9 of 19 within 25% before, 19 of 19 (0.85-1.22) since.
// The choice misses on urand's CC at a quarter budget (zero-copy chosen,
// 11.7 and 19.8 ms against stream's 9.1 and 17.0, zero-copy's means with
// the bench's cold first run, 14.7 ms on urand:24); auto's own runs took 9.7
// and 18.2 ms, within 7% of stream's.
TEST(PlanRecords, H100CcOnTheEngineOfSession53) { expect_records("h100-2026-12-06f", 19, 11, 19, "h100-2026-11-28", 9); }

// The quarter-budget table again on the H100 with today's engine and
// every placement warm (bench --warmup 1; session 54, docs/gpu-check/
// 2026-12-06-h100-session54): kron:25 and urand:25, BFS from 16 sources, CC
// four runs, PageRank and SSSP from 2 (urand's SSSP on subgraph and auto only:
// zero-copy's runs outlasted the call). auto's own runs came within 10% of the
// best fixed placement in all eight cells (urand:25's CC 17.5 ms against
// stream's 16.3); the placement it chose, run fixed, in seven (zero-copy's
// four CC runs on urand:25 averaged 18.8 ms, 1.15x stream's). Every
// prediction within 25% (0.82-1.19).
TEST(PlanRecords, H100QuarterBudgetWarm) { expect_records("h100-2026-12-06g", 21, 8, 21, "h100-2026-11-28", 7); }

// CC on today's engine on the H200 (session 62, docs/gpu-check/2026-12-07-
// h200-session62; session 54's script for the H200, never run until then): a
// quarter budget on kron and urand at scales 24-25 (zerocopy-aligned,
// subgraph, stream, auto) and the whole GPU on kron:24-25 in both numberings
// and urand:24-25, the profile of 2026-12-02. The model refitted on the H100
// (session 53) reads 0.67-1.09 here, low as on the H200's older CC records:
// urand:24's subgraph 0.75 (its runs 8.8-12.0 ms) and kron:25 hubs first at
// the whole GPU, where auto took subgraph (predicted 1.98 ms, 2.96 measured)
// over device (2.09, 2.36): the choice's one real miss, 1.25x. urand:24 at a
// quarter budget took zero-copy (11.1 ms) over stream (10.0): 1.11x.
TEST(PlanRecords, H200CcOnTodaysEngine) { expect_records("h200-2026-12-07", 17, 10, 19, "h200-2026-12-02", 8); }

}  // namespace
}  // namespace tg::planner
