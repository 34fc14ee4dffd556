// The record of one run: algorithm, graph, engine, placement, time per phase,
// iterations, edges traversed, GTEPS, bytes moved, I/O amplification and
// verification. `tiergraph run --json` prints it and the library API returns
// it (tiergraph::Result::json), so both build it here.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "algorithms/verifier.h"
#include "engines/run.h"
#include "graph/graph.h"

namespace tg {

struct RunReport {
  std::string command_line;  // empty where no program ran (the library API)
  const AlgorithmInfo* algorithm = nullptr;
  Sources sources;  // internal ids; empty for algorithms without a source
  RunOutput output;
  std::optional<Verification> verification;
  std::string engine_note;  // e.g. why auto chose the CPU
};

nlohmann::json to_json(const AnyGraph& graph, const RunReport& report);

// "host" for CPU runs, else the GPU placement's name.
std::string placement_of(const RunOutput& output);

// Graph500's traversed edges for a source-based result: the input edges with
// a reached endpoint (undirected edges counted once).
// For algorithms whose values do not mark reach, every input edge.
uint64_t traversed_input_edges(const AnyGraph& graph, const AlgorithmInfo& algorithm, const VertexValues& values);

}  // namespace tg
