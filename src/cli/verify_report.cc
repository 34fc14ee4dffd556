#include "cli/verify_report.h"

#include "tiergraph/version.h"

namespace tg::cli {

nlohmann::json to_json(const AnyGraph& graph, const VerifyReport& r) {
  const int id_base = std::visit([](const auto& g) { return g.id_base; }, graph);
  nlohmann::json j;
  j["tool"] = "tiergraph";
  j["version"] = kVersion;
  j["algorithm"] = r.algorithm->name();
  j["graph"] = {{"name", std::visit([](const auto& g) { return g.name; }, graph)},
                {"vertices", num_vertices(graph)},
                {"edges", num_edges(graph)}};
  j["source"] = r.sources.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.sources.front() + id_base);
  if (r.sources.size() > 1) {
    j["sources"] = nlohmann::json::array();
    for (uint64_t s : r.sources) j["sources"].push_back(s + id_base);
  }
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
