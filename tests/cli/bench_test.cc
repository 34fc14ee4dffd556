// End-to-end tests of `tiergraph bench` on the CPU: the rows and cells of its
// CSV and JSON, fixed sources, one-line usage errors, and the charts drawn
// from its JSON by scripts/bench-chart.py.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>


#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "engines/run.h"
#include "support/run_program.h"

namespace {

using tg::test::count_lines;
using tg::test::read_text_file;
using tg::test::run_tiergraph;
using tg::test::temp_path;
using tg::test::write_temp_file;

// 0 -> 1 -> 2 -> 0, 2 -> 3: every vertex but 3 has out-edges.
std::string tiny_graph() { return write_temp_file("bench_tiny.el", "0 1\n1 2\n2 0\n2 3\n"); }

std::string prefix(const std::string& name) { return temp_path(name); }

using CsvRow = std::map<std::string, std::string>;

// bench's CSV without quoted fields (rows of runs that did not fail).
std::vector<CsvRow> read_csv(const std::string& path) {
  std::istringstream in(read_text_file(path));
  std::string line;
  std::vector<std::string> header;
  std::vector<CsvRow> rows;
  auto split = [](const std::string& s) {
    std::vector<std::string> fields;
    std::stringstream ss(s);
    std::string f;
    while (std::getline(ss, f, ',')) fields.push_back(f);
    if (!s.empty() && s.back() == ',') fields.push_back("");
    return fields;
  };
  while (std::getline(in, line)) {
    if (header.empty()) {
      header = split(line);
      continue;
    }
    std::vector<std::string> fields = split(line);
    CsvRow row;
    for (size_t i = 0; i < header.size() && i < fields.size(); ++i) row[header[i]] = fields[i];
    rows.push_back(row);
  }
  return rows;
}

// The interpreter bench itself would use for the charts, if any.
std::optional<std::string> python_with_matplotlib() {
  for (const char* python : {"/usr/bin/python3", "python3"})
    if (std::system((std::string(python) + " -c 'import matplotlib' >/dev/null 2>&1").c_str()) == 0) return python;
  return std::nullopt;
}

std::string chart_script() {
  const std::filesystem::path root = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
  return (root / "scripts/bench-chart.py").string();
}

TEST(Bench, CpuRunsWriteRowsAndCellsAllVerified) {
  std::string out = prefix("bench_cpu");
  auto r = run_tiergraph("bench " + tiny_graph() + " -a bfs,cc -p cpu -n 2 -t 1 --no-chart -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<CsvRow> rows = read_csv(out + ".csv");
  ASSERT_EQ(rows.size(), 3u);  // bfs from 2 random sources, cc once
  int bfs = 0, cc = 0;
  for (const CsvRow& row : rows) {
    EXPECT_EQ(row.at("placement"), "cpu");
    EXPECT_EQ(row.at("verified"), "ok");
    EXPECT_EQ(row.at("error"), "");
    if (row.at("algorithm") == "bfs") {
      ++bfs;
      EXPECT_NE(row.at("source"), "");
    }
    if (row.at("algorithm") == "cc") {
      ++cc;
      EXPECT_EQ(row.at("source"), "");
    }
  }
  EXPECT_EQ(bfs, 2);
  EXPECT_EQ(cc, 1);

  auto j = nlohmann::json::parse(read_text_file(out + ".json"));
  EXPECT_EQ(j["tool"], "tiergraph bench");
  EXPECT_EQ(j["baseline"], "cpu");
  EXPECT_EQ(j["placements"], nlohmann::json::array({"cpu"}));
  EXPECT_EQ(j["algorithms"], nlohmann::json::array({"bfs", "cc"}));
  EXPECT_EQ(j["sources"]["random"], 2);
  EXPECT_EQ(j["runs"].size(), 3u);
  ASSERT_EQ(j["cells"].size(), 2u);
  for (const auto& c : j["cells"]) {
    EXPECT_EQ(c["placement"], "cpu");
    EXPECT_EQ(c["failed"], 0);
    EXPECT_EQ(c["verified"], c["runs"]);
    EXPECT_GT(c["mean_compute_s"].get<double>(), 0);
    // The runs' times in order: fastest, median, slowest, each one of the runs'.
    std::vector<double> times;
    for (const auto& run : j["runs"])
      if (run["algorithm"] == c["algorithm"]) times.push_back(run["compute_s"].get<double>());
    std::sort(times.begin(), times.end());
    ASSERT_FALSE(times.empty());
    EXPECT_DOUBLE_EQ(c["min_compute_s"].get<double>(), times.front());
    EXPECT_DOUBLE_EQ(c["median_compute_s"].get<double>(), times[(times.size() - 1) / 2]);
    EXPECT_DOUBLE_EQ(c["max_compute_s"].get<double>(), times.back());
    EXPECT_LE(c["min_compute_s"].get<double>(), c["mean_compute_s"].get<double>() * (1 + 1e-12));
    EXPECT_GE(c["max_compute_s"].get<double>(), c["mean_compute_s"].get<double>() * (1 - 1e-12));
    EXPECT_DOUBLE_EQ(c["speedup_over_baseline"].get<double>(), 1.0);
    // Graph500's mean of the runs' rates: the harmonic one.
    double inverse_sum = 0;
    int rated = 0;
    for (const auto& run : j["runs"])
      if (run["algorithm"] == c["algorithm"] && run["gteps"].get<double>() > 0) {
        inverse_sum += 1 / run["gteps"].get<double>();
        ++rated;
      }
    ASSERT_GT(rated, 0) << c["algorithm"];
    EXPECT_NEAR(c["hmean_gteps"].get<double>(), rated / inverse_sum, 1e-9 * rated / inverse_sum) << c["algorithm"];
  }
  EXPECT_NE(r.out.find("wrote " + out + ".csv"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mean ms  median ms"), std::string::npos) << r.out;
}

// --warmup N: N untimed runs of each algorithm before its timed ones, logged
// and left out of the rows and cells; out of range, a usage error.
TEST(Bench, WarmupRunsAreLoggedAndLeftOutOfTheRows) {
  std::string out = prefix("bench_warmup");
  auto r = run_tiergraph("bench " + tiny_graph() + " -a bfs,cc -p cpu -n 2 --trials 2 --warmup 3 -t 1 --no-chart -o " +
                         out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<CsvRow> rows = read_csv(out + ".csv");
  EXPECT_EQ(rows.size(), 6u);  // bfs: 2 sources x 2 trials; cc: 2 trials
  for (const CsvRow& row : rows) EXPECT_EQ(row.at("verified"), "ok");
  size_t warmups = 0;
  for (size_t at = r.err.find(": warm-up, "); at != std::string::npos; at = r.err.find(": warm-up, ", at + 1)) ++warmups;
  EXPECT_EQ(warmups, 6u) << r.err;  // 3 for each algorithm
  auto j = nlohmann::json::parse(read_text_file(out + ".json"));
  EXPECT_EQ(j["warmup"], 3);
  EXPECT_EQ(j["trials"], 2);
  EXPECT_EQ(j["runs"].size(), 6u);
  for (const auto& c : j["cells"]) EXPECT_EQ(c["runs"], c["algorithm"] == "bfs" ? 4 : 2);
  // A refused placement (without a GPU) or one that runs: its rows are the
  // timed runs either way, the warm-ups in none.
  auto both = run_tiergraph("bench " + tiny_graph() + " -a bfs,cc -p device,cpu -n 2 --warmup 2 --no-chart -o " + out +
                            "_both");
  ASSERT_EQ(both.exit_code, 0) << both.err;
  auto jb = nlohmann::json::parse(read_text_file(out + "_both.json"));
  EXPECT_EQ(jb["runs"].size(), 6u);
  for (const auto& c : jb["cells"]) EXPECT_EQ(c["runs"], c["algorithm"] == "bfs" ? 2 : 1);
  auto bad = run_tiergraph("bench " + tiny_graph() + " -a bfs -p cpu --warmup -1 --no-chart -o " + out + "_bad");
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--warmup"), std::string::npos) << bad.err;
}

// --random-sources N --source-seed S: the same seed picks the same sources,
// another seed others (kron:12's 4096 vertices: three picks out of the ones
// with out-edges).
TEST(Bench, TheSourceSeedPicksTheSources) {
  auto sources_of = [](uint64_t seed) {
    const std::string out = prefix("bench_seed_" + std::to_string(seed));
    auto r = run_tiergraph("bench kron:12 -a bfs -p cpu --random-sources 3 --source-seed " + std::to_string(seed) +
                           " --no-chart -q -o " + out);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> picked;
    for (const CsvRow& row : read_csv(out + ".csv")) {
      EXPECT_EQ(row.at("verified"), "ok");
      picked.push_back(row.at("source"));
    }
    return picked;
  };
  const std::vector<std::string> first = sources_of(9);
  EXPECT_EQ(first.size(), 3u);
  EXPECT_EQ(sources_of(9), first);
  EXPECT_NE(sources_of(10), first);
}

TEST(Bench, FixedSourcesRunExactlyThose) {
  std::string out = prefix("bench_fixed");
  auto r = run_tiergraph("bench " + tiny_graph() + " -a bfs,cc -p cpu --sources 1,2 --no-chart -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> bfs_sources;
  for (const CsvRow& row : read_csv(out + ".csv")) {
    EXPECT_EQ(row.at("verified"), "ok");
    if (row.at("algorithm") == "bfs") bfs_sources.push_back(row.at("source"));
  }
  EXPECT_EQ(bfs_sources, (std::vector<std::string>{"1", "2"}));
  auto j = nlohmann::json::parse(read_text_file(out + ".json"));
  EXPECT_EQ(j["sources"]["fixed"], nlohmann::json::array({1, 2}));
}

TEST(Bench, FixedSourcesAreInTheFilesNumbering) {
  // DIMACS is 1-based: vertex 3 is the file's last, 0 is none of its.
  std::string g = write_temp_file("bench_path.gr", "p sp 3 2\na 1 2 4\na 2 3 1\n");
  std::string out = prefix("bench_gr");
  auto r = run_tiergraph("bench " + g + " -a sssp -p cpu --sources 3,1 --no-chart -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> sources;
  for (const CsvRow& row : read_csv(out + ".csv")) sources.push_back(row.at("source"));
  EXPECT_EQ(sources, (std::vector<std::string>{"3", "1"}));
  auto bad = run_tiergraph("bench " + g + " -a sssp -p cpu --sources 0 --no-chart -o " + out + "_bad");
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("1..3"), std::string::npos) << bad.err;
}

TEST(Bench, UsageErrorsAreOneLineAndExit2) {
  std::string g = tiny_graph();
  std::string out = prefix("bench_usage");
  std::filesystem::remove(out + ".csv");
  struct Case {
    std::string args, fragment;
  };
  for (const Case& c : std::vector<Case>{{"-a bfs -p cpu --sources 1,9", "--sources 9"},
                                         {"-a bfs -p cpu --sources -1", "-1"},
                                         {"-a bfs -p cpu --sources x", "'x'"},
                                         {"-a bfs -p nowhere", "nowhere"},
                                         {"-a dijkstra -p cpu", "dijkstra"},
                                         {"-a bfs -p cpu --baseline nowhere", "nowhere"},
                                         {"-a bfs -p cpu -n 2 --sources 1", "--sources"},
                                         {"-a bfs -p cpu --verify some", "some"}}) {
    auto r = run_tiergraph("bench " + g + " " + c.args + " --no-chart -o " + out);
    EXPECT_EQ(r.exit_code, 2) << c.args << ": " << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.fragment), std::string::npos) << c.args << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(out + ".csv")) << c.args;
  }
}

TEST(Bench, ARefusedPlacementIsRecordedAndTheMatrixGoesOn) {
  std::string out = prefix("bench_refused");
  // Without a usable GPU, device is refused with its reason; with one, it runs. Either way cpu runs.
  auto r = run_tiergraph("bench " + tiny_graph() + " -a bfs -p device,cpu --sources 0 --no-chart -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(read_text_file(out + ".json"));
  ASSERT_EQ(j["cells"].size(), 2u);
  EXPECT_EQ(j["baseline"], "device");  // no uvm: the first placement
  for (const auto& c : j["cells"]) {
    if (c["placement"] == "cpu") EXPECT_EQ(c["verified"], 1);
    if (c["failed"] == 1) EXPECT_FALSE(c["error"].get<std::string>().empty());
  }
}

TEST(BenchChart, ScriptDrawsPngAndSvgFromTheJsonAndTheCsv) {
  std::optional<std::string> python = python_with_matplotlib();
  if (!python) GTEST_SKIP() << "no python3 with matplotlib";
  std::string out = prefix("bench_chart");
  auto r = run_tiergraph("bench " + tiny_graph() + " -a bfs,pagerank -p cpu -n 2 --no-chart -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string input : {out + ".json", out + ".csv"}) {
    std::string chart = out + "_from_" + input.substr(input.size() - 4);
    std::string cmd = *python + " " + chart_script() + " " + input + " -o " + chart + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    EXPECT_EQ(read_text_file(chart + ".png").substr(1, 3), "PNG") << input;
    EXPECT_NE(read_text_file(chart + ".svg").find("<svg"), std::string::npos) << input;
  }
}

TEST(BenchChart, BenchDrawsTheChartsOrSaysWhyNot) {
  std::string out = prefix("bench_own_chart");
  std::filesystem::remove(out + ".png");
  auto r = run_tiergraph("bench " + tiny_graph() + " -a cc -p cpu -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  if (python_with_matplotlib()) {
    EXPECT_NE(r.err.find("bench: charts: " + out + ".png, " + out + ".svg"), std::string::npos) << r.err;
    EXPECT_TRUE(std::filesystem::exists(out + ".png"));
    EXPECT_TRUE(std::filesystem::exists(out + ".svg"));
  } else {
    EXPECT_NE(r.err.find("bench: no charts: "), std::string::npos) << r.err;
  }
}

// A bench that stops part way keeps what it finished: the files are rewritten
// after each placement. Here the second graph is refused (source 9 is past its
// four vertices) after the first ran.
TEST(Bench, ABenchCutShortKeepsTheCellsItFinished) {
  const std::string out = prefix("bench_cut_short");
  const std::string bigger = write_temp_file("bench_ten.el", "0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n8 9\n9 0\n");
  std::filesystem::remove(out + ".csv");
  std::filesystem::remove(out + ".json");
  auto r = run_tiergraph("bench " + bigger + " " + tiny_graph() + " -a bfs,cc -p cpu --sources 9 --no-chart -o " +
                         out);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--sources 9"), std::string::npos) << r.err;
  const std::vector<CsvRow> rows = read_csv(out + ".csv");
  ASSERT_EQ(rows.size(), 2u);
  for (const CsvRow& row : rows) {
    EXPECT_EQ(row.at("graph"), bigger);
    EXPECT_EQ(row.at("source"), row.at("algorithm") == "bfs" ? "9" : "");
    EXPECT_EQ(row.at("verified"), "ok");
  }
  auto j = nlohmann::json::parse(read_text_file(out + ".json"));
  EXPECT_EQ(j["complete"], false);
  EXPECT_EQ(j["cells"].size(), 2u);
  EXPECT_FALSE(std::filesystem::exists(out + ".csv.tmp"));
  EXPECT_FALSE(std::filesystem::exists(out + ".json.tmp"));

  auto whole = run_tiergraph("bench " + bigger + " -a bfs -p cpu --sources 9 --no-chart -o " + out);
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_EQ(nlohmann::json::parse(read_text_file(out + ".json"))["complete"], true);
}

// --host-mem too small for one algorithm's arrays (sssp reads the weights
// beside the edges) refuses that algorithm's cells only: the others run and
// keep their verified rows (the refusal wiped every cell of the placement).
// With a warm-up each, the refused algorithm's failed rows are its timed runs.
TEST(Bench, AHostMemRefusalIsTheAlgorithmsAlone) {
  const std::string graph = temp_path("bench_host_mem.tgb");
  ASSERT_EQ(run_tiergraph("generate urand:12 " + graph + " --edge-factor 1 --weights 1:1 -q").exit_code, 0);
  for (const std::string algorithms : {"bfs,sssp", "sssp,bfs"}) {
    const std::string out = prefix("bench_host_mem");
    auto r = run_tiergraph("bench " + graph + " -a " + algorithms + " -p cpu -n 2 --warmup 1 --no-chart -o " + out +
                           " --host-mem 64K");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(read_text_file(out + ".json"));
    ASSERT_EQ(j["cells"].size(), 2u) << algorithms;
    for (const auto& c : j["cells"]) {
      if (c["algorithm"] == "bfs") {
        EXPECT_EQ(c["verified"], 2) << algorithms;
        EXPECT_EQ(c["failed"], 0) << algorithms;
      } else {
        EXPECT_EQ(c["failed"], 2) << algorithms;
        EXPECT_NE(c["error"].get<std::string>().find("too small"), std::string::npos) << c["error"];
      }
    }
  }
}

// Without a GPU, bench's hybrid over subgraph, which places the graph for
// each algorithm apart (tests/gpu/bench_gpu_test.cc runs it on a GPU), makes
// a row of each algorithm's refusal and exits 0.
TEST(Bench, TheHybridOverSubgraphRefusesEachAlgorithmWithoutAGpu) {
  std::string why;
  if (tg::gpu_available(&why)) GTEST_SKIP() << "a GPU is present (tests/gpu/bench_gpu_test.cc)";
  const std::string out = prefix("bench_hybrid_groups");
  auto r = run_tiergraph("bench kron:10 -a pagerank,cc -p hybrid-subgraph,cpu -n 1 --threads 2 --no-chart -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(read_text_file(out + ".json"));
  ASSERT_EQ(j["runs"].size(), 4u) << r.err;
  for (const nlohmann::json& run : j["runs"]) {
    SCOPED_TRACE(run.dump());
    if (run["placement"] == "cpu") EXPECT_EQ(run["verified"].get<std::string>(), "ok");
    else EXPECT_NE(run.dump().find("no usable GPU"), std::string::npos);
  }
}

}  // namespace
