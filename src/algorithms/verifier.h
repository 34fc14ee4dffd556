// Verifiers: one per algorithm, each in its own file beside the algorithm
// (bfs_verifier.cc, sssp_verifier.cc, ...), as GAP keeps a verifier beside
// every kernel. A verifier checks a certificate: local conditions on every
// edge and vertex that together prove the result correct, without running
// the algorithm again. They share no code with the engines or the drivers of
// src/algorithms/*.h, only the graph storage, so that a bug in an operator or
// an engine cannot hide in the check. Each file's opening comment lists the
// invariants it checks. Used by `tiergraph run --verify` and by the tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "graph/graph.h"

namespace tg {

// Each algorithm header declares its verifier (verify_bfs in bfs.h, ...),
// which its descriptor's verify() calls.
//
// Checks `values`, as an engine returned them for `algorithm`, on `graph`
// (sources: internal ids; none for cc and pagerank). Never throws on a wrong
// result: a wrong size, value type or source is a failure.
inline Verification verify(const AlgorithmInfo& algorithm, const AnyGraph& graph, const Sources& sources,
                           const VertexValues& values, const AlgorithmOptions& options) {
  return algorithm.verify(graph, sources, values, options);
}

}  // namespace tg
