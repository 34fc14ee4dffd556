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

struct Verification {
  bool ok = false;
  // The first failure found, on one line, naming the vertex or edge (with the
  // file's ids, that is internal id + id_base) and the values involved; on
  // success a short summary such as "checked 34 vertices, 156 edges".
  std::string message;
};

// Checks `values` (as returned by an engine for `algorithm`) on `graph`.
// `source` is the internal (0-based) id; ignored by CC and PageRank. Never
// throws on a wrong result: a wrong size, value type or source is a failure.
Verification verify(Algorithm algorithm, const AnyGraph& graph, uint64_t source, const VertexValues& values,
                    const AlgorithmOptions& options);

// The per-algorithm verifiers behind verify().
Verification verify_bfs(const AnyGraph& graph, uint64_t source, const std::vector<int32_t>& depth);
Verification verify_sssp(const AnyGraph& graph, uint64_t source, const std::vector<double>& dist);
Verification verify_cc(const AnyGraph& graph, const std::vector<uint64_t>& label);
Verification verify_pagerank(const AnyGraph& graph, const std::vector<double>& score, const AlgorithmOptions& options);
Verification verify_sswp(const AnyGraph& graph, uint64_t source, const std::vector<float>& width);
Verification verify_ssnsp(const AnyGraph& graph, uint64_t source, const std::vector<double>& paths);

}  // namespace tg
