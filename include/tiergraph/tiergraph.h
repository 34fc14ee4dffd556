// tiergraph as a library: load or generate a graph, run an algorithm on the
// CPU or the GPU engine, read the values and statistics. The one header to
// include; link tiergraph::tiergraph (CMake) or `pkg-config tiergraph`.
//
//   tiergraph::Graph g = tiergraph::load("kron:16");
//   tiergraph::Result r = tiergraph::run("bfs", g, {.sources = {0}});  // C++20; or set RunOptions' fields
//   const auto& depth = std::get<std::vector<int32_t>>(r.values);
//
// docs/LIBRARY.md describes the API. Only standard-library types appear here.
#pragma once

#include <string>
#include <vector>

#include "tiergraph/error.h"
#include "tiergraph/features.h"
#include "tiergraph/graph.h"
#include "tiergraph/run.h"
#include "tiergraph/sampling.h"
#include "tiergraph/tiering.h"
#include "tiergraph/version.h"

namespace tiergraph {

// Every algorithm's name, in the registry's order (bfs, sssp, cc, ...).
TIERGRAPH_API std::vector<std::string> algorithms();

// Whether the GPU engine can run here; if not, why (no device, or a library
// built without CUDA) in *why.
TIERGRAPH_API bool gpu_available(std::string* why = nullptr);

// The library's version, "MAJOR.MINOR.PATCH"; TIERGRAPH_VERSION
// (tiergraph/version.h) is the version of the headers compiled against.
TIERGRAPH_API const char* version();

}  // namespace tiergraph
