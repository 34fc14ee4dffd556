#include "cli/report.h"

#include <algorithm>
#include <cmath>

namespace tg::cli {

namespace {

// Whether vertex v was reached, read off each algorithm's own convention.
bool reached(const VertexValues& values, Algorithm algorithm, uint64_t v) {
  switch (algorithm) {
    case Algorithm::kBfs: return std::get<std::vector<int32_t>>(values)[v] != kUnreached;
    case Algorithm::kSssp: return std::isfinite(std::get<std::vector<double>>(values)[v]);
    case Algorithm::kSswp: return std::get<std::vector<float>>(values)[v] > 0;
    case Algorithm::kSsnsp: return std::get<std::vector<double>>(values)[v] > 0;
    default: return true;
  }
}

uint64_t count_reached(const VertexValues& values, Algorithm algorithm, uint64_t n) {
  uint64_t count = 0;
#pragma omp parallel for reduction(+ : count)
  for (uint64_t v = 0; v < n; ++v) count += reached(values, algorithm, v);
  return count;
}

std::string human_count(double x) {
  char buf[32];
  if (x >= 1e9) std::snprintf(buf, sizeof buf, "%.2fG", x / 1e9);
  else if (x >= 1e6) std::snprintf(buf, sizeof buf, "%.2fM", x / 1e6);
  else if (x >= 1e4) std::snprintf(buf, sizeof buf, "%.1fK", x / 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f", x);
  return buf;
}

std::string human_bytes(double x) {
  char buf[32];
  if (x >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", x / 1e9);
  else if (x >= 1e6) std::snprintf(buf, sizeof buf, "%.2f MB", x / 1e6);
  else std::snprintf(buf, sizeof buf, "%.0f B", x);
  return buf;
}

// One-line digest of the result itself, so a user sees at a glance what came out.
std::string result_digest(const AnyGraph& graph, const RunReport& r) {
  const uint64_t n = num_vertices(graph);
  const VertexValues& values = r.output.values;
  char buf[256];
  switch (r.algorithm) {
    case Algorithm::kBfs: {
      const auto& d = std::get<std::vector<int32_t>>(values);
      int32_t depth = d.empty() ? 0 : *std::max_element(d.begin(), d.end());
      std::snprintf(buf, sizeof buf, "reached %s of %s vertices, deepest level %d", human_count(count_reached(values, r.algorithm, n)).c_str(),
                    human_count(n).c_str(), depth);
      return buf;
    }
    case Algorithm::kSssp: {
      const auto& d = std::get<std::vector<double>>(values);
      double far = 0;
      for (double x : d)
        if (std::isfinite(x)) far = std::max(far, x);
      std::snprintf(buf, sizeof buf, "reached %s of %s vertices, farthest at distance %g",
                    human_count(count_reached(values, r.algorithm, n)).c_str(), human_count(n).c_str(), far);
      return buf;
    }
    case Algorithm::kCc: {
      const auto& label = std::get<std::vector<uint64_t>>(values);
      std::vector<uint64_t> size(n, 0);
      uint64_t components = 0, largest = 0;
      for (uint64_t l : label) size[l]++;
      for (uint64_t s : size)
        if (s) {
          components++;
          largest = std::max(largest, s);
        }
      std::snprintf(buf, sizeof buf, "%s components, the largest has %s vertices", human_count(components).c_str(),
                    human_count(largest).c_str());
      return buf;
    }
    case Algorithm::kPageRank: {
      const auto& s = std::get<std::vector<double>>(values);
      auto top = std::max_element(s.begin(), s.end());
      if (top == s.end()) return "empty graph";
      std::snprintf(buf, sizeof buf, "top vertex %llu with score %.6g",
                    static_cast<unsigned long long>(top - s.begin()) + std::visit([](const auto& g) { return g.id_base; }, graph),
                    *top);
      return buf;
    }
    case Algorithm::kSswp:
    case Algorithm::kSsnsp:
      std::snprintf(buf, sizeof buf, "reached %s of %s vertices", human_count(count_reached(values, r.algorithm, n)).c_str(),
                    human_count(n).c_str());
      return buf;
  }
  return "";
}

}  // namespace

uint64_t traversed_input_edges(const AnyGraph& any, Algorithm algorithm, const VertexValues& values) {
  return std::visit(
      [&](const auto& g) -> uint64_t {
        uint64_t sum = 0;
        const uint64_t n = g.num_vertices;
#pragma omp parallel for reduction(+ : sum)
        for (uint64_t v = 0; v < n; ++v)
          if (reached(values, algorithm, v)) sum += g.out.degree(v);
        return g.directed ? sum : sum / 2;
      },
      any);
}

nlohmann::json to_json(const AnyGraph& graph, const RunReport& r) {
  const RunStats& s = r.output.stats;
  int id_base = std::visit([](const auto& g) { return g.id_base; }, graph);
  nlohmann::json j;
  j["tool"] = "tiergraph";
  j["version"] = "0.1.0";
  j["command"] = r.command_line;
  j["algorithm"] = algorithm_name(r.algorithm);
  j["graph"] = {{"name", std::visit([](const auto& g) { return g.name; }, graph)},
                {"vertices", num_vertices(graph)},
                {"edges", num_edges(graph)},
                {"directed", std::visit([](const auto& g) { return g.directed; }, graph)},
                {"weighted", std::visit([](const auto& g) { return g.weighted(); }, graph)},
                {"vertex_id_bytes", vertex_id_bytes(graph)}};
  j["source"] = r.source ? nlohmann::json(*r.source + id_base) : nlohmann::json(nullptr);
  j["engine"] = r.output.engine;
  j["placement"] = r.output.placement;
  if (!r.engine_note.empty()) j["engine_note"] = r.engine_note;
  nlohmann::json phases = nlohmann::json::object();
  for (const auto& [name, seconds] : s.phases_s) phases[name] = seconds;
  j["time_s"] = phases;
  j["iterations"] = s.iterations;
  j["push_steps"] = s.push_steps;
  j["pull_steps"] = s.pull_steps;
  j["edges_traversed"] = s.edges_traversed;
  double compute = s.phase("compute");
  if (r.source) {
    uint64_t input_edges = traversed_input_edges(graph, r.algorithm, r.output.values);
    j["input_edges_traversed"] = input_edges;
    j["gteps"] = compute > 0 ? input_edges / compute / 1e9 : 0.0;
  } else {
    j["gteps"] = compute > 0 ? s.edges_traversed / compute / 1e9 : 0.0;
  }
  j["bytes_moved"] = s.bytes_moved;
  j["bytes_needed"] = s.bytes_needed;
  j["io_amplification"] = s.bytes_needed > 0 ? nlohmann::json(double(s.bytes_moved) / double(s.bytes_needed)) : nlohmann::json(nullptr);
  j["result"] = result_digest(graph, r);
  if (r.verification) j["verification"] = {{"ok", r.verification->ok}, {"message", r.verification->message}};
  else j["verification"] = nullptr;
  j["details"] = s.details;
  return j;
}

void print_summary(std::FILE* out, const AnyGraph& graph, const RunReport& r) {
  const RunStats& s = r.output.stats;
  const bool directed = std::visit([](const auto& g) { return g.directed; }, graph);
  const int id_base = std::visit([](const auto& g) { return g.id_base; }, graph);
  std::fprintf(out, "%s on %s: %s vertices, %s edges (%s, %d-byte ids)\n", algorithm_name(r.algorithm),
               std::visit([](const auto& g) { return g.name; }, graph).c_str(), human_count(num_vertices(graph)).c_str(),
               human_count(num_edges(graph)).c_str(), directed ? "directed" : "undirected", vertex_id_bytes(graph));
  std::string engine = r.output.engine;
  if (r.output.engine == "cpu" && s.details.contains("threads"))
    engine += " (" + std::to_string(s.details["threads"].get<int>()) + " threads)";
  else if (!r.output.placement.empty())
    engine += ", placement " + r.output.placement;
  if (r.source) engine += ", source " + std::to_string(*r.source + id_base);
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
               static_cast<unsigned long long>(s.pull_steps), human_count(s.edges_traversed).c_str(), j["gteps"].get<double>());
  if (s.bytes_moved > 0)
    std::fprintf(out, "  transfer   %s moved across the link, %s of edges needed, I/O amplification %.2f\n",
                 human_bytes(s.bytes_moved).c_str(), human_bytes(s.bytes_needed).c_str(),
                 s.bytes_needed ? double(s.bytes_moved) / double(s.bytes_needed) : 0.0);
  std::fprintf(out, "  result     %s\n", j["result"].get<std::string>().c_str());
  if (r.verification)
    std::fprintf(out, "  verify     %s: %s\n", r.verification->ok ? "PASS" : "FAIL", r.verification->message.c_str());
}

}  // namespace tg::cli
