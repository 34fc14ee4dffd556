// tiergraph bench: a matrix of algorithms x graphs x placements (x random
// sources for BFS, SSSP, SSWP and SSNSP, as EMOGI's 64), each result
// verified, side by side in one run. Writes PREFIX.csv (one row per run),
// PREFIX.json (runs and per-cell means) and PREFIX.svg (mean compute time and
// speedup over a baseline placement), and prints the per-cell table.
//
// A GPU placement places the graph once and runs every algorithm and source
// on it (run_batch_on_gpu); "cpu" runs the CPU engine. A placement that
// cannot run (over the budget, no GPU) is recorded with its one-line reason
// and the matrix goes on.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "algorithms/verifier.h"
#include "cli/commands.h"
#include "cli/graph_options.h"
#include "cli/report.h"
#include "cli/run_setup.h"
#include "cli/sizes.h"
#include "core/error.h"
#include "generators/generators.h"
#include "graph/source_picker.h"

namespace tg::cli {

namespace {

const std::vector<std::string> kAllPlacements = {
    "cpu",      "device",       "uvm",          "zerocopy-naive", "zerocopy-merged", "zerocopy-aligned", "subgraph",
    "subgraph-cpu", "subgraph-gpu", "subgraph-async", "stream",     "stream-pt",       "stream-pt-opt",    "stream-async"};

// A bench placement name as GPU options: subgraph[-cpu|-gpu|-async],
// stream[-pt|-pt-opt|-async]; subgraph-cpu / -gpu fix who gathers the lists.
void apply_bench_placement(const std::string& name, GpuOptions& g) {
  if (auto p = parse_placement(name)) g.placement = *p;
  if (name == "subgraph-cpu") g.placement = Placement::kSubgraph, g.gather = GatherWay::kCpu;
  if (name == "subgraph-gpu") g.placement = Placement::kSubgraph, g.gather = GatherWay::kGpu;
  if (name == "subgraph-async") g.placement = Placement::kSubgraph, g.async = true;
  if (name == "stream-async") g.placement = Placement::kStream, g.async = true;
  if (name == "stream-pt") g.placement = Placement::kStream, g.stream_mode = StreamMode::kPt;
  if (name == "stream-pt-opt") g.placement = Placement::kStream, g.stream_mode = StreamMode::kPtOpt;
}

struct BenchOptions {
  std::vector<std::string> graphs;
  GraphOptions graph;  // transforms applied to every graph (--weights, --ids64, ...)
  std::vector<std::string> algorithms = {"bfs", "sssp", "cc", "pagerank"};
  std::vector<std::string> placements = {"device", "uvm", "zerocopy-naive", "zerocopy-merged", "zerocopy-aligned"};
  std::string baseline;  // default: uvm when present, else the first placement
  int sources = 4;
  uint64_t source_seed = 27491095;
  std::string verify = "all";  // all, first, none
  std::string gpu_mem;
  double stream_threshold = 0.8;
  int device = 0;
  int threads = 0;
  AlgorithmOptions algo;
  std::string output = "bench";
};

struct Row {
  std::string graph, algorithm, placement, error;
  uint64_t source = 0;
  bool has_source = false;
  double compute_s = 0, transfer_s = 0, copy_back_s = 0, gteps = 0;
  uint64_t iterations = 0, edges_traversed = 0, input_edges = 0, bytes_moved = 0, bytes_needed = 0;
  std::string verified = "-";  // ok, FAIL: ..., - (not checked)
  nlohmann::json details;
};

// The row of a run that could not happen (refused, or the placement failed).
Row failed_row(const std::string& graph, const std::string& placement, const RunRequest& r, const std::string& error) {
  Row row;
  row.graph = graph;
  row.algorithm = r.algorithm->name();
  row.placement = placement;
  row.has_source = r.algorithm->needs_source();
  row.source = r.source();
  row.error = error;
  return row;
}

struct Cell {
  std::string graph, algorithm, placement;
  int runs = 0, failed = 0, verified = 0, verify_failed = 0;
  double compute_s = 0, gteps = 0, bytes_moved = 0, bytes_needed = 0;  // means over runs
  std::string error;
};

Row row_of(const AnyGraph& graph, const std::string& name, const RunRequest& r, const RunOutput& out) {
  Row row;
  row.graph = name;
  row.algorithm = r.algorithm->name();
  row.placement = out.placement ? std::string(name_of(*out.placement)) : "cpu";
  row.has_source = r.algorithm->needs_source();
  row.source = r.source();
  const RunStats& s = out.stats;
  row.compute_s = s.phase("compute");
  row.transfer_s = s.phase("transfer");
  row.copy_back_s = s.phase("copy back");
  row.iterations = s.iterations;
  row.edges_traversed = s.edges_traversed;
  row.bytes_moved = s.bytes_moved;
  row.bytes_needed = s.bytes_needed;
  row.details = details_json(s);
  if (row.has_source && r.algorithm->traits.unreached_marks_reach) {
    row.input_edges = traversed_input_edges(graph, *r.algorithm, out.values);
    row.gteps = row.compute_s > 0 ? row.input_edges / row.compute_s / 1e9 : 0;
  } else {
    row.gteps = row.compute_s > 0 ? row.edges_traversed / row.compute_s / 1e9 : 0;
  }
  return row;
}

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

// ---- the chart: one SVG, mean compute time (log scale) above, speedup over the baseline below ----

std::string svg_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

void write_svg(const std::string& path, const std::vector<Cell>& cells, const std::vector<std::string>& placements,
               const std::string& baseline, const std::string& title) {
  // groups: (graph, algorithm) in order of appearance
  std::vector<std::pair<std::string, std::string>> groups;
  std::map<std::tuple<std::string, std::string, std::string>, const Cell*> at;
  for (const Cell& c : cells) {
    auto g = std::make_pair(c.graph, c.algorithm);
    if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
    at[{c.graph, c.algorithm, c.placement}] = &c;
  }
  const char* colors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f"};
  const double bar = 14, gap = 26, left = 70, top = 50, panel = 220, mid = 60;
  const double group_w = placements.size() * bar + gap;
  // Wide enough for the bars, the legend row and the title, whichever is widest.
  double legend_w = left;
  for (const std::string& p : placements) legend_w += 14 + 7.0 * p.size() + 18;
  const double width = std::max({left + groups.size() * group_w + 40, legend_w + 20, left + 8.0 * title.size()});
  const double height = top + panel + mid + panel + 90;
  double tmin = 1e30, tmax = 0, smax = 1;
  for (const Cell& c : cells)
    if (c.runs > c.failed && c.compute_s > 0) {
      tmin = std::min(tmin, c.compute_s);
      tmax = std::max(tmax, c.compute_s);
    }
  if (tmax == 0) tmin = tmax = 1e-3;
  double lo = std::floor(std::log10(tmin * 1e3)), hi = std::ceil(std::log10(tmax * 1e3));
  if (hi <= lo) hi = lo + 1;
  auto speedup = [&](const Cell& c) -> double {
    auto b = at.find({c.graph, c.algorithm, baseline});
    if (b == at.end() || b->second->compute_s <= 0 || c.compute_s <= 0 || c.runs == c.failed) return 0;
    return b->second->compute_s / c.compute_s;
  };
  for (const Cell& c : cells) smax = std::max(smax, speedup(c));
  double slog_hi = std::ceil(std::log10(smax) * 2) / 2, slog_lo = -1;
  if (slog_hi <= 0) slog_hi = 0.5;

  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"" << left << "\" y=\"20\" font-size=\"14\">" << svg_escape(title) << "</text>\n";
  // panel 1: time, log scale
  double y0 = top, y1 = top + panel;
  o << "<text x=\"10\" y=\"" << y0 - 8 << "\">mean compute time (ms, log scale)</text>\n";
  for (double e = lo; e <= hi; e += 1) {
    double y = y1 - (e - lo) / (hi - lo) * panel;
    o << "<line x1=\"" << left << "\" x2=\"" << width - 30 << "\" y1=\"" << y << "\" y2=\"" << y
      << "\" stroke=\"#ddd\"/><text x=\"" << left - 6 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">"
      << fmt("%g", std::pow(10.0, e)) << "</text>\n";
  }
  // panel 2: speedup over baseline, log scale
  double z0 = y1 + mid, z1 = z0 + panel;
  o << "<text x=\"10\" y=\"" << z0 - 8 << "\">speedup over " << svg_escape(baseline) << " (log scale)</text>\n";
  for (double e = slog_lo; e <= slog_hi + 1e-9; e += 0.5) {
    double y = z1 - (e - slog_lo) / (slog_hi - slog_lo) * panel;
    o << "<line x1=\"" << left << "\" x2=\"" << width - 30 << "\" y1=\"" << y << "\" y2=\"" << y << "\" stroke=\""
      << (e == 0 ? "#888" : "#ddd") << "\"/><text x=\"" << left - 6 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">"
      << fmt("%.3g", std::pow(10.0, e)) << "x</text>\n";
  }
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    double gx = left + gi * group_w + gap / 2;
    for (size_t pi = 0; pi < placements.size(); ++pi) {
      auto it = at.find({groups[gi].first, groups[gi].second, placements[pi]});
      if (it == at.end()) continue;
      const Cell& c = *it->second;
      double x = gx + pi * bar;
      const char* color = colors[pi % 8];
      if (c.runs == c.failed || c.compute_s <= 0) {
        o << "<text x=\"" << x + bar / 2 << "\" y=\"" << y1 - 4 << "\" text-anchor=\"middle\" fill=\"#999\">x</text>\n";
        continue;
      }
      double h = (std::log10(c.compute_s * 1e3) - lo) / (hi - lo) * panel;
      h = std::max(1.0, h);
      o << "<rect x=\"" << x << "\" y=\"" << y1 - h << "\" width=\"" << bar - 2 << "\" height=\"" << h << "\" fill=\""
        << color << "\"><title>" << svg_escape(c.placement) << ": " << fmt("%.3f", c.compute_s * 1e3)
        << " ms</title></rect>\n";
      double s = speedup(c);
      if (s > 0) {
        double sh = (std::log10(s) - slog_lo) / (slog_hi - slog_lo) * panel;
        sh = std::max(1.0, sh);
        o << "<rect x=\"" << x << "\" y=\"" << z1 - sh << "\" width=\"" << bar - 2 << "\" height=\"" << sh
          << "\" fill=\"" << color << "\"><title>" << svg_escape(c.placement) << ": " << fmt("%.2f", s)
          << "x</title></rect>\n";
      }
    }
    double cx = gx + placements.size() * bar / 2;
    o << "<text x=\"" << cx << "\" y=\"" << z1 + 16 << "\" text-anchor=\"middle\">" << svg_escape(groups[gi].second)
      << "</text><text x=\"" << cx << "\" y=\"" << z1 + 30 << "\" text-anchor=\"middle\" fill=\"#555\">"
      << svg_escape(groups[gi].first) << "</text>\n";
  }
  double lx = left, ly = height - 24;
  for (size_t pi = 0; pi < placements.size(); ++pi) {
    o << "<rect x=\"" << lx << "\" y=\"" << ly - 9 << "\" width=\"10\" height=\"10\" fill=\"" << colors[pi % 8]
      << "\"/><text x=\"" << lx + 14 << "\" y=\"" << ly << "\">" << svg_escape(placements[pi]) << "</text>\n";
    lx += 14 + 7.0 * placements[pi].size() + 18;
  }
  o << "</svg>\n";
  std::ofstream f(path);
  if (!f) throw Error(path + ": cannot write the chart");
  f << o.str();
}

void bench(const BenchOptions& o, const std::string& command_line) {
  std::vector<std::string> graphs = o.graphs;
  if (!o.graph.graph.empty()) graphs.insert(graphs.begin(), o.graph.graph);
  if (graphs.empty()) throw usage_error("bench: name at least one graph (PATH, kron:SCALE or urand:SCALE)");
  std::vector<const AlgorithmInfo*> algorithms;
  for (const std::string& a : o.algorithms) {
    const AlgorithmInfo* parsed = find_algorithm(a);
    if (!parsed) throw usage_error("--algorithms: unknown algorithm '" + a + "' (" + algorithm_list() + ")");
    algorithms.push_back(parsed);
  }
  for (const std::string& p : o.placements)
    if (std::find(kAllPlacements.begin(), kAllPlacements.end(), p) == kAllPlacements.end() && p != "auto")
      throw usage_error("--placements: unknown placement '" + p + "' (cpu, device, uvm, zerocopy-naive, zerocopy-merged, " +
                        "zerocopy-aligned, subgraph, subgraph-cpu, subgraph-gpu, subgraph-async, stream, stream-pt, stream-pt-opt, stream-async, auto)");
  if (o.sources < 1) throw usage_error("--sources must be at least 1");
  if (o.verify != "all" && o.verify != "first" && o.verify != "none")
    throw usage_error("--verify must be all, first or none");
  std::string baseline = o.baseline;
  if (baseline.empty())
    baseline = std::find(o.placements.begin(), o.placements.end(), "uvm") != o.placements.end() ? "uvm"
                                                                                                : o.placements.front();
  apply_threads(o.threads);
  GpuOptions gpu;
  gpu.device = o.device;
  if (!o.gpu_mem.empty()) gpu.memory_budget = parse_size(o.gpu_mem, "--gpu-mem");
  if (!o.gpu_mem.empty() && gpu.memory_budget == 0) throw usage_error("--gpu-mem must be larger than 0");
  gpu.stream_threshold = o.stream_threshold;
  const bool any_weights =
      std::any_of(algorithms.begin(), algorithms.end(), [](const AlgorithmInfo* a) { return a->needs_weights(); });
  const bool any_in = std::any_of(algorithms.begin(), algorithms.end(), [&](const AlgorithmInfo* a) {
    return a->reads(o.algo).in_edges != Need::kNo;
  });

  std::vector<Row> rows;
  std::string gpu_name;
  for (const std::string& spec : graphs) {
    LoadOptions lo = o.graph.load_options(any_in);
    // Generated graphs get the papers' random weights when an algorithm needs weights.
    if (any_weights && o.graph.weights.empty() && is_generator_spec(spec)) lo.build.random_weights = WeightRange{8, 72};
    auto t0 = std::chrono::steady_clock::now();
    AnyGraph graph = load_graph(spec, lo);
    double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "bench: %s: %llu vertices, %llu edges, loaded in %.2f s\n", spec.c_str(),
                 static_cast<unsigned long long>(num_vertices(graph)), static_cast<unsigned long long>(num_edges(graph)),
                 load_s);
    std::vector<uint64_t> sources = pick_sources(graph, o.sources, o.source_seed);
    std::vector<RunRequest> requests;
    std::vector<std::string> request_errors;
    for (const AlgorithmInfo* a : algorithms) {
      std::vector<Sources> runs;
      if (a->needs_source())
        for (uint64_t s : sources) runs.push_back({s});
      else
        runs.push_back({});
      for (const Sources& srcs : runs) {
        try {
          requests.push_back(prepare_request(graph, make_request(*a, srcs, o.algo)));
        } catch (const Error& e) {
          Row row;
          row.graph = spec;
          row.algorithm = a->name();
          row.placement = "*";
          row.error = e.what();
          rows.push_back(row);
          std::fprintf(stderr, "bench: %s %s: %s\n", spec.c_str(), a->name().c_str(), e.what());
          break;
        }
      }
    }
    for (const std::string& placement : o.placements) {
      std::vector<RunOutput> outputs;
      std::vector<RunRequest> ran = requests;
      std::string error;
      const bool subway = placement.rfind("subgraph", 0) == 0 || placement.rfind("stream", 0) == 0;
      try {
        if (placement == "cpu") {
          for (const RunRequest& r : requests) outputs.push_back(run_on_cpu(graph, r));
        } else {
          std::string reason;
          if (!gpu_available(&reason)) throw Error("no usable GPU: " + reason);
          GpuOptions g = gpu;
          apply_bench_placement(placement, g);
          if (!subway) {
            outputs = run_batch_on_gpu(graph, requests, g);
          } else {
            // subgraph / stream: one algorithm at a time (its sources share
            // the placement), so that a refusal (a budget under the minimum
            // for weighted edges, say) is that algorithm's rows alone.
            ran.clear();
            for (size_t i = 0; i < requests.size();) {
              size_t j = i;
              while (j < requests.size() && requests[j].algorithm == requests[i].algorithm) ++j;
              const std::vector<RunRequest> group(requests.begin() + i, requests.begin() + j);
              try {
                for (RunOutput& out : run_batch_on_gpu(graph, group, g)) outputs.push_back(std::move(out));
                ran.insert(ran.end(), group.begin(), group.end());
              } catch (const Error& e) {
                for (const RunRequest& r : group) rows.push_back(failed_row(spec, placement, r, e.what()));
                std::fprintf(stderr, "bench: %s %s on %s: %s\n", spec.c_str(), group[0].algorithm->name().c_str(),
                             placement.c_str(), e.what());
              }
              i = j;
            }
          }
        }
      } catch (const Error& e) {
        error = e.what();
      }
      if (!error.empty()) {
        std::fprintf(stderr, "bench: %s on %s: %s\n", spec.c_str(), placement.c_str(), error.c_str());
        for (const RunRequest& r : requests) rows.push_back(failed_row(spec, placement, r, error));
        continue;
      }
      std::map<std::string, int> checked;
      for (size_t i = 0; i < outputs.size(); ++i) {
        const RunRequest& r = ran[i];
        Row row = row_of(graph, spec, r, outputs[i]);
        if (subway) row.placement = placement;
        if (gpu_name.empty() && row.details.contains("gpu")) gpu_name = row.details["gpu"].get<std::string>();
        if (o.verify == "all" || (o.verify == "first" && checked[r.algorithm->name()]++ == 0)) {
          Verification v = verify(*r.algorithm, graph, r.sources, outputs[i].values, r.options);
          row.verified = v.ok ? "ok" : "FAIL: " + v.message;
        }
        rows.push_back(row);
        std::fprintf(stderr, "bench: %s %s %s%s: %.3f ms, %.2f GTEPS, %s\n", spec.c_str(), row.algorithm.c_str(),
                     placement.c_str(), row.has_source ? (" from " + std::to_string(r.source())).c_str() : "",
                     row.compute_s * 1e3, row.gteps, row.verified.c_str());
      }
    }
  }

  // ---- per-cell means ----
  std::vector<Cell> cells;
  std::map<std::tuple<std::string, std::string, std::string>, size_t> index;
  for (const Row& r : rows) {
    if (r.placement == "*") continue;
    auto key = std::make_tuple(r.graph, r.algorithm, r.placement);
    if (!index.count(key)) {
      index[key] = cells.size();
      cells.push_back(Cell{r.graph, r.algorithm, r.placement});
    }
    Cell& c = cells[index[key]];
    c.runs++;
    if (!r.error.empty()) {
      c.failed++;
      c.error = r.error;
      continue;
    }
    c.compute_s += r.compute_s;
    c.gteps += r.gteps;
    c.bytes_moved += r.bytes_moved;
    c.bytes_needed += r.bytes_needed;
    if (r.verified == "ok") c.verified++;
    else if (r.verified != "-") c.verify_failed++;
  }
  for (Cell& c : cells) {
    int ok = c.runs - c.failed;
    if (ok > 0) {
      c.compute_s /= ok;
      c.gteps /= ok;
      c.bytes_moved /= ok;
      c.bytes_needed /= ok;
    }
  }
  auto baseline_time = [&](const Cell& c) -> double {
    auto it = index.find({c.graph, c.algorithm, baseline});
    if (it == index.end()) return 0;
    const Cell& b = cells[it->second];
    return b.runs > b.failed ? b.compute_s : 0;
  };

  // ---- CSV ----
  {
    std::ofstream f(o.output + ".csv");
    if (!f) throw Error(o.output + ".csv: cannot write");
    f << "graph,algorithm,placement,source,compute_s,transfer_s,copy_back_s,iterations,edges_traversed,"
         "input_edges_traversed,gteps,bytes_moved,bytes_needed,io_amplification,verified,error\n";
    for (const Row& r : rows) {
      f << csv_escape(r.graph) << ',' << r.algorithm << ',' << r.placement << ','
        << (r.has_source ? std::to_string(r.source) : "") << ',' << fmt("%.6f", r.compute_s) << ','
        << fmt("%.6f", r.transfer_s) << ',' << fmt("%.6f", r.copy_back_s) << ',' << r.iterations << ','
        << r.edges_traversed << ',' << r.input_edges << ',' << fmt("%.4f", r.gteps) << ',' << r.bytes_moved << ','
        << r.bytes_needed << ','
        << (r.bytes_needed ? fmt("%.4f", double(r.bytes_moved) / double(r.bytes_needed)) : std::string()) << ','
        << csv_escape(r.verified) << ',' << csv_escape(r.error) << '\n';
    }
  }
  // ---- JSON ----
  {
    nlohmann::json j;
    j["tool"] = "tiergraph bench";
    j["command"] = command_line;
    j["gpu"] = gpu_name;
    j["baseline"] = baseline;
    j["threads"] = omp_get_max_threads();
    j["runs"] = nlohmann::json::array();
    for (const Row& r : rows) {
      nlohmann::json x = {{"graph", r.graph},
                          {"algorithm", r.algorithm},
                          {"placement", r.placement},
                          {"compute_s", r.compute_s},
                          {"transfer_s", r.transfer_s},
                          {"copy_back_s", r.copy_back_s},
                          {"iterations", r.iterations},
                          {"edges_traversed", r.edges_traversed},
                          {"gteps", r.gteps},
                          {"bytes_moved", r.bytes_moved},
                          {"bytes_needed", r.bytes_needed},
                          {"verified", r.verified},
                          {"details", r.details}};
      if (r.has_source) {
        x["source"] = r.source;
        x["input_edges_traversed"] = r.input_edges;
      }
      if (!r.error.empty()) x["error"] = r.error;
      j["runs"].push_back(x);
    }
    j["cells"] = nlohmann::json::array();
    for (const Cell& c : cells) {
      double b = baseline_time(c);
      j["cells"].push_back({{"graph", c.graph},
                            {"algorithm", c.algorithm},
                            {"placement", c.placement},
                            {"runs", c.runs},
                            {"failed", c.failed},
                            {"verified", c.verified},
                            {"verify_failed", c.verify_failed},
                            {"mean_compute_s", c.compute_s},
                            {"mean_gteps", c.gteps},
                            {"io_amplification", c.bytes_needed > 0 ? c.bytes_moved / c.bytes_needed : 0.0},
                            {"speedup_over_baseline", b > 0 && c.compute_s > 0 ? b / c.compute_s : 0.0},
                            {"error", c.error}});
    }
    std::ofstream f(o.output + ".json");
    if (!f) throw Error(o.output + ".json: cannot write");
    f << j.dump(1) << '\n';
  }
  // ---- chart ----
  std::vector<std::string> placements;
  for (const std::string& p : o.placements)
    if (std::find(placements.begin(), placements.end(), p) == placements.end()) placements.push_back(p);
  write_svg(o.output + ".svg", cells, placements, baseline,
            "tiergraph bench" + (gpu_name.empty() ? std::string() : " on " + gpu_name) + ", " +
                std::to_string(o.sources) + " sources per source-based algorithm");

  // ---- table ----
  std::printf("%-16s %-9s %-17s %5s %10s %8s %8s %6s %8s %s\n", "graph", "algorithm", "placement", "runs", "mean ms",
              "GTEPS", "GB/s", "ampl", "speedup", "verified");
  bool all_ok = true;
  for (const Cell& c : cells) {
    std::string name = c.graph.size() > 16 ? c.graph.substr(c.graph.size() - 16) : c.graph;
    if (c.runs == c.failed) {
      std::printf("%-16s %-9s %-17s %5d %s\n", name.c_str(), c.algorithm.c_str(), c.placement.c_str(), c.runs,
                  ("refused: " + c.error).c_str());
      continue;
    }
    double b = baseline_time(c);
    std::printf("%-16s %-9s %-17s %5d %10.3f %8.2f %8.1f %6s %8s %d/%d%s\n", name.c_str(), c.algorithm.c_str(),
                c.placement.c_str(), c.runs, c.compute_s * 1e3, c.gteps,
                c.compute_s > 0 ? c.bytes_needed / c.compute_s / 1e9 : 0.0,
                c.bytes_needed > 0 ? fmt("%.2f", c.bytes_moved / c.bytes_needed).c_str() : "-",
                b > 0 ? fmt("%.2fx", b / c.compute_s).c_str() : "-", c.verified, c.runs - c.failed,
                c.verify_failed ? " FAIL" : "");
    if (c.verify_failed) all_ok = false;
  }
  std::printf("wrote %s.csv, %s.json, %s.svg (speedup over %s; GB/s: bytes of edges needed / compute time)\n",
              o.output.c_str(), o.output.c_str(), o.output.c_str(), baseline.c_str());
  std::fflush(stdout);
  if (!all_ok) throw verification_error("bench: some results failed verification (see " + o.output + ".csv)");
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "Run algorithms x graphs x placements (x random sources), verify each, write CSV, JSON and an SVG chart");
  cmd->add_option("graphs", o->graphs, "Graphs: files or generator specs (kron:SCALE, urand:SCALE)");
  o->graph.add_to(*cmd, false);
  cmd->add_option("-a,--algorithms", o->algorithms, "Comma-separated: bfs, sssp, cc, pagerank, sswp, ssnsp")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("-p,--placements", o->placements,
                  "Comma-separated: cpu, device, uvm, zerocopy-naive, zerocopy-merged, zerocopy-aligned, subgraph, "
                  "subgraph-cpu, subgraph-gpu, subgraph-async, stream (pt-opt), stream-pt, stream-pt-opt, stream-async, auto")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--baseline", o->baseline, "Placement the speedups are measured against (default: uvm if run)");
  cmd->add_option("-n,--sources", o->sources, "Random sources per BFS, SSSP, SSWP and SSNSP (EMOGI used 64)")
      ->capture_default_str();
  cmd->add_option("--source-seed", o->source_seed, "Seed for picking the sources")->capture_default_str();
  cmd->add_option("--verify", o->verify, "Verify all runs, the first of each algorithm and placement, or none")
      ->capture_default_str();
  cmd->add_option("--gpu-mem", o->gpu_mem, "GPU: device-memory budget for every placement, e.g. 1G");
  cmd->add_option("--stream-threshold", o->stream_threshold,
                  "GPU, subgraph placements: stream the partitions when active edges exceed this fraction of all")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--device", o->device, "GPU: device index")->capture_default_str();
  cmd->add_option("-t,--threads", o->threads, "CPU threads (default: all cores)");
  cmd->add_option("--tolerance", o->algo.tolerance, "PageRank tolerance")->capture_default_str();
  cmd->add_option("--max-iters", o->algo.max_iters, "PageRank: at most this many iterations")->capture_default_str();
  cmd->add_option("-o,--output", o->output, "Prefix of the files written: PREFIX.csv, PREFIX.json, PREFIX.svg")
      ->capture_default_str();
  cmd->callback([o]() { bench(*o, command_line_of_current_process()); });
}

}  // namespace tg::cli
