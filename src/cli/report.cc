#include "cli/report.h"

#include <algorithm>
#include <cmath>

#include "algorithms/describe.h"
#include "tiergraph/version.h"

namespace tg::cli {

namespace {

std::string human_bytes(double x) {
  char buf[32];
  if (x >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", x / 1e9);
  else if (x >= 1e6) std::snprintf(buf, sizeof buf, "%.2f MB", x / 1e6);
  else std::snprintf(buf, sizeof buf, "%.0f B", x);
  return buf;
}

std::string placement_of(const RunOutput& out) {
  return out.placement ? std::string(name_of(*out.placement)) : std::string("host");
}

}  // namespace

uint64_t traversed_input_edges(const AnyGraph& any, const AlgorithmInfo& algorithm, const VertexValues& values) {
  return std::visit(
      [&](const auto& g) -> uint64_t {
        if (!algorithm.traits.unreached_marks_reach) return g.directed ? g.num_edges() : g.num_edges() / 2;
        uint64_t sum = 0;
        const uint64_t n = g.num_vertices;
#pragma omp parallel for reduction(+ : sum)
        for (uint64_t v = 0; v < n; ++v)
          if (algorithm.reached(values, v)) sum += g.out.degree(v);
        return g.directed ? sum : sum / 2;
      },
      any);
}

nlohmann::json to_json(const AnyGraph& graph, const RunReport& r) {
  const RunStats& s = r.output.stats;
  int id_base = std::visit([](const auto& g) { return g.id_base; }, graph);
  nlohmann::json j;
  j["tool"] = "tiergraph";
  j["version"] = kVersion;
  j["command"] = r.command_line;
  j["algorithm"] = r.algorithm->name();
  j["graph"] = {{"name", std::visit([](const auto& g) { return g.name; }, graph)},
                {"vertices", num_vertices(graph)},
                {"edges", num_edges(graph)},
                {"directed", std::visit([](const auto& g) { return g.directed; }, graph)},
                {"weighted", std::visit([](const auto& g) { return g.weighted(); }, graph)},
                {"vertex_id_bytes", vertex_id_bytes(graph)}};
  j["source"] = r.sources.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.sources.front() + id_base);
  if (r.sources.size() > 1) {
    j["sources"] = nlohmann::json::array();
    for (uint64_t s : r.sources) j["sources"].push_back(s + id_base);
  }
  j["engine"] = engine_name(r.output.engine);
  j["placement"] = placement_of(r.output);
  if (!r.engine_note.empty()) j["engine_note"] = r.engine_note;
  nlohmann::json phases = nlohmann::json::object();
  for (const auto& [name, seconds] : s.phases_s) phases[name] = seconds;
  j["time_s"] = phases;
  j["iterations"] = s.iterations;
  j["push_steps"] = s.push_steps;
  j["pull_steps"] = s.pull_steps;
  j["edges_traversed"] = s.edges_traversed;
  double compute = s.phase("compute");
  if (r.sources.size() == 1 && r.algorithm->traits.unreached_marks_reach) {
    uint64_t input_edges = traversed_input_edges(graph, *r.algorithm, r.output.values);
    j["input_edges_traversed"] = input_edges;
    j["gteps"] = compute > 0 ? input_edges / compute / 1e9 : 0.0;
  } else {
    j["gteps"] = compute > 0 ? s.edges_traversed / compute / 1e9 : 0.0;
  }
  j["bytes_moved"] = s.bytes_moved;
  j["bytes_needed"] = s.bytes_needed;
  j["io_amplification"] = s.bytes_needed > 0 ? nlohmann::json(double(s.bytes_moved) / double(s.bytes_needed)) : nlohmann::json(nullptr);
  j["result"] = r.algorithm->describe(graph, r.output.values);
  if (r.verification) j["verification"] = {{"ok", r.verification->ok}, {"message", r.verification->message}};
  else j["verification"] = nullptr;
  j["details"] = details_json(s);
  return j;
}

void print_summary(std::FILE* out, const AnyGraph& graph, const RunReport& r) {
  const RunStats& s = r.output.stats;
  const bool directed = std::visit([](const auto& g) { return g.directed; }, graph);
  std::fprintf(out, "%s on %s: %s vertices, %s edges (%s, %d-byte ids)\n", r.algorithm->name().c_str(),
               std::visit([](const auto& g) { return g.name; }, graph).c_str(),
               describe::count(num_vertices(graph)).c_str(), describe::count(num_edges(graph)).c_str(),
               directed ? "directed" : "undirected", vertex_id_bytes(graph));
  std::string engine = engine_name(r.output.engine);
  if (r.output.engine == EngineKind::kCpu && s.threads > 0) engine += " (" + std::to_string(s.threads) + " threads)";
  else if (r.output.placement) engine += ", placement " + placement_of(r.output);
  if (r.sources.size() == 1) engine += ", source " + std::to_string(describe::file_id(graph, r.sources.front()));
  if (r.sources.size() > 1) engine += ", " + std::to_string(r.sources.size()) + " sources";
  std::fprintf(out, "  engine     %s\n", engine.c_str());
  if (!r.engine_note.empty()) std::fprintf(out, "  note       %s\n", r.engine_note.c_str());
  std::string times;
  for (const auto& [name, seconds] : s.phases_s) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%s %.4f s", times.empty() ? "" : ", ", name.c_str(), seconds);
    times += buf;
  }
  std::fprintf(out, "  time       %s\n", times.c_str());
  nlohmann::json j = to_json(graph, r);
  std::fprintf(out, "  work       %llu iterations (%llu push, %llu pull), %s edges traversed, %.3f GTEPS\n",
               static_cast<unsigned long long>(s.iterations), static_cast<unsigned long long>(s.push_steps),
               static_cast<unsigned long long>(s.pull_steps), describe::count(s.edges_traversed).c_str(),
               j["gteps"].get<double>());
  if (s.bytes_moved > 0)
    std::fprintf(out, "  transfer   %s moved across the link, %s of edges needed, I/O amplification %.2f\n",
                 human_bytes(s.bytes_moved).c_str(), human_bytes(s.bytes_needed).c_str(),
                 s.bytes_needed ? double(s.bytes_moved) / double(s.bytes_needed) : 0.0);
  std::fprintf(out, "  result     %s\n", j["result"].get<std::string>().c_str());
  if (r.verification)
    std::fprintf(out, "  verify     %s: %s\n", r.verification->ok ? "PASS" : "FAIL", r.verification->message.c_str());
}

}  // namespace tg::cli
