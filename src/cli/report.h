// What a run prints: a short human summary, or with --json one record with
// the algorithm, graph, engine, placement, time per phase, iterations, edges
// traversed, GTEPS, bytes moved, I/O amplification and verification.
#pragma once

#include <cstdio>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "algorithms/verifier.h"
#include "engines/run.h"
#include "graph/graph.h"

namespace tg::cli {

struct RunReport {
  std::string command_line;
  const AlgorithmInfo* algorithm = nullptr;
  Sources sources;  // internal ids; empty for algorithms without a source
  RunOutput output;
  std::optional<Verification> verification;
  std::string engine_note;  // e.g. why auto chose the CPU
};

nlohmann::json to_json(const AnyGraph& graph, const RunReport& report);
void print_summary(std::FILE* out, const AnyGraph& graph, const RunReport& report);

// Graph500's traversed edges for a source-based result: the input edges with
// a reached endpoint (undirected edges counted once).
// For algorithms whose values do not mark reach, every input edge.
uint64_t traversed_input_edges(const AnyGraph& graph, const AlgorithmInfo& algorithm, const VertexValues& values);

}  // namespace tg::cli
