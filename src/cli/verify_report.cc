#include "cli/verify_report.h"

namespace tg::cli {

nlohmann::json to_json(const AnyGraph& graph, const VerifyReport& r) {
  const int id_base = std::visit([](const auto& g) { return g.id_base; }, graph);
  nlohmann::json j;
  j["tool"] = "tiergraph";
  j["version"] = "0.1.0";
  j["algorithm"] = algorithm_name(r.algorithm);
  j["graph"] = {{"name", std::visit([](const auto& g) { return g.name; }, graph)},
                {"vertices", num_vertices(graph)},
                {"edges", num_edges(graph)}};
  j["source"] = r.source ? nlohmann::json(*r.source + id_base) : nlohmann::json(nullptr);
  j["results"] = r.results;
  j["ok"] = r.verification.ok;
  j["message"] = r.verification.message;
  nlohmann::json phases = nlohmann::json::object();
  for (const auto& [name, seconds] : r.phases_s) phases[name] = seconds;
  j["time_s"] = phases;
  return j;
}

double lap(std::chrono::steady_clock::time_point& t) {
  auto now = std::chrono::steady_clock::now();
  double seconds = std::chrono::duration<double>(now - t).count();
  t = now;
  return seconds;
}

}  // namespace tg::cli
