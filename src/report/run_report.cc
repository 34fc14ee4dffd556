#include "report/run_report.h"

#include "tiergraph/version.h"

namespace tg {

std::string placement_of(const RunOutput& out) {
  return out.placement ? std::string(name_of(*out.placement)) : std::string("host");
}

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
  if (s.notify_pull_steps > 0) j["notify_pull_steps"] = s.notify_pull_steps;
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

}  // namespace tg
