// What `tiergraph verify --json` prints: one record in the shape of
// `run --json` (tool, version, algorithm, graph, source, time_s) with the
// results file checked and the verifier's verdict.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/verifier.h"
#include "graph/graph.h"

namespace tg::cli {

struct VerifyReport {
  const AlgorithmInfo* algorithm = nullptr;
  Sources sources;                 // internal ids; empty for algorithms without a source
  std::string results;             // the results file, as named on the command line
  Verification verification;
  std::vector<std::pair<std::string, double>> phases_s;  // in order: load, read, verify
};

nlohmann::json to_json(const AnyGraph& graph, const VerifyReport& report);

// Seconds since t, and t moved to now: one call at the end of each phase.
double lap(std::chrono::steady_clock::time_point& t);

}  // namespace tg::cli
