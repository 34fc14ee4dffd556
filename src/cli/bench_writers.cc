#include "cli/bench_writers.h"

#include <omp.h>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "formats/text_output.h"
#include "tiergraph/version.h"

namespace tg::cli {

namespace {

std::string csv_escape(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

}  // namespace

std::string placement_name(const BenchPlacement* placement) { return placement ? placement->name : "*"; }

void write_bench_csv(const std::string& path, const BenchResult& result) {
  std::string out =
      "graph,algorithm,placement,source,compute_s,transfer_s,copy_back_s,iterations,edges_traversed,"
      "input_edges_traversed,gteps,bytes_moved,bytes_needed,io_amplification,verified,error\n";
  for (const BenchRow& r : result.rows) {
    out += csv_escape(r.graph) + ',' + r.algorithm->name() + ',' + placement_name(r.placement) + ',' +
           (r.source ? std::to_string(*r.source) : "") + ',' + fmt("%.6f", r.compute_s) + ',' +
           fmt("%.6f", r.transfer_s) + ',' + fmt("%.6f", r.copy_back_s) + ',' + std::to_string(r.iterations) + ',' +
           std::to_string(r.edges_traversed) + ',' + std::to_string(r.input_edges) + ',' + fmt("%.4f", r.gteps) + ',' +
           std::to_string(r.bytes_moved) + ',' + std::to_string(r.bytes_needed) + ',' +
           (r.bytes_needed ? fmt("%.4f", double(r.bytes_moved) / double(r.bytes_needed)) : std::string()) + ',' +
           csv_escape(r.verified()) + ',' + csv_escape(r.error) + '\n';
  }
  formats::write_text_file(path, out);
}

void write_bench_json(const std::string& path, const BenchPlan& plan, const BenchResult& result,
                      const BenchSummary& summary, const std::string& command_line, bool complete) {
  nlohmann::json j;
  j["tool"] = "tiergraph bench";
  j["version"] = kVersion;
  j["command"] = command_line;
  j["complete"] = complete;
  j["gpu"] = result.gpu;
  j["baseline"] = placement_name(summary.baseline);
  j["threads"] = omp_get_max_threads();
  // The matrix as asked, in order: the chart keeps the placements' order and colours.
  j["graphs"] = plan.graphs;
  j["algorithms"] = nlohmann::json::array();
  for (const AlgorithmInfo* a : plan.algorithms) j["algorithms"].push_back(a->name());
  j["placements"] = nlohmann::json::array();
  for (const BenchPlacement* p : plan.placements) j["placements"].push_back(p->name);
  if (plan.sources.fixed.empty())
    j["sources"] = {{"random", plan.sources.random}, {"seed", plan.sources.seed}};
  else
    j["sources"] = {{"fixed", plan.sources.fixed}};
  j["trials"] = plan.trials;
  j["warmup"] = plan.warmup;
  j["runs"] = nlohmann::json::array();
  for (const BenchRow& r : result.rows) {
    nlohmann::json x = {{"graph", r.graph},
                        {"algorithm", r.algorithm->name()},
                        {"placement", placement_name(r.placement)},
                        {"compute_s", r.compute_s},
                        {"transfer_s", r.transfer_s},
                        {"copy_back_s", r.copy_back_s},
                        {"iterations", r.iterations},
                        {"edges_traversed", r.edges_traversed},
                        {"gteps", r.gteps},
                        {"bytes_moved", r.bytes_moved},
                        {"bytes_needed", r.bytes_needed},
                        {"verified", r.verified()},
                        {"details", r.details}};
    if (r.gpu_placement) x["gpu_placement"] = name_of(*r.gpu_placement);
    if (r.source) {
      x["source"] = *r.source;
      x["input_edges_traversed"] = r.input_edges;
    }
    if (r.failed()) x["error"] = r.error;
    j["runs"].push_back(x);
  }
  j["cells"] = nlohmann::json::array();
  for (const BenchCell& c : summary.cells) {
    j["cells"].push_back({{"graph", c.graph},
                          {"algorithm", c.algorithm->name()},
                          {"placement", c.placement->name},
                          {"runs", c.runs},
                          {"failed", c.failed},
                          {"verified", c.verified},
                          {"verify_failed", c.verify_failed},
                          {"mean_compute_s", c.compute_s},
                          {"min_compute_s", c.min_compute_s},
                          {"median_compute_s", c.median_compute_s},
                          {"max_compute_s", c.max_compute_s},
                          {"mean_gteps", c.gteps},
                          {"hmean_gteps", c.gteps_hmean},
                          {"io_amplification", c.io_amplification().value_or(0.0)},
                          {"speedup_over_baseline", c.speedup.value_or(0.0)},
                          {"error", c.error}});
    if (c.predicted_s) {
      j["cells"].back()["plan_choice"] = c.chosen;
      j["cells"].back()["predicted_compute_s"] = *c.predicted_s;
    }
  }
  formats::write_text_file(path, j.dump(1) + '\n');
}

void print_bench_table(std::FILE* out, const BenchSummary& summary) {
  std::fprintf(out, "%-16s %-9s %-17s %5s %10s %10s %8s %8s %6s %8s %s\n", "graph", "algorithm", "placement", "runs",
               "mean ms", "median ms", "GTEPS", "GB/s", "ampl", "speedup", "verified");
  for (const BenchCell& c : summary.cells) {
    std::string name = c.graph.size() > 16 ? c.graph.substr(c.graph.size() - 16) : c.graph;
    if (c.succeeded() == 0) {
      std::fprintf(out, "%-16s %-9s %-17s %5d %s\n", name.c_str(), c.algorithm->name().c_str(),
                   c.placement->name.c_str(), c.runs, ("refused: " + c.error).c_str());
      continue;
    }
    const std::optional<double> ampl = c.io_amplification();
    std::fprintf(out, "%-16s %-9s %-17s %5d %10.3f %10.3f %8.2f %8.1f %6s %8s %d/%d%s\n", name.c_str(),
                 c.algorithm->name().c_str(), c.placement->name.c_str(), c.runs, c.compute_s * 1e3,
                 c.median_compute_s * 1e3, c.gteps_hmean,
                 c.compute_s > 0 ? c.bytes_needed / c.compute_s / 1e9 : 0.0, ampl ? fmt("%.2f", *ampl).c_str() : "-",
                 c.speedup ? fmt("%.2fx", *c.speedup).c_str() : "-", c.verified, c.succeeded(),
                 c.verify_failed ? " FAIL" : "");
  }
}

}  // namespace tg::cli
