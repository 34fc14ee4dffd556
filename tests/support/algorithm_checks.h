// Engine-generic checks of algorithm results, for the tests of every engine
// (CPU here; GPU placements reuse them): a result against the sequential
// reference (support/reference.h) and against the verifier
// (algorithms/verifier.h), and a one-call run-and-check for any engine entry
// point with the signature of run_on_cpu.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>

#include "algorithms/algorithm.h"
#include "engines/run.h"
#include "graph/graph.h"

namespace tg::test {

// got equals the reference: exactly for BFS, CC and SSNSP; within a relative
// 1e-9 for SSSP and SSWP (inf only where the reference has inf); within an L1
// distance of 1e-4 for PageRank. The failure names the first differing vertex
// (internal id) and both values.
::testing::AssertionResult matches_reference(Algorithm algorithm, const AnyGraph& graph, uint64_t source,
                                             const VertexValues& got, const AlgorithmOptions& options);

// The verifier accepts got; the failure carries its message.
::testing::AssertionResult passes_verifier(Algorithm algorithm, const AnyGraph& graph, uint64_t source,
                                           const VertexValues& got, const AlgorithmOptions& options);

// An engine entry point: run_on_cpu, or a lambda calling run_on_gpu with options.
using EngineRunner = std::function<RunOutput(const AnyGraph&, const RunRequest&)>;

// prepare_request, then runner, then both checks above. The failure says
// which graph, algorithm and source.
::testing::AssertionResult runs_correctly(const EngineRunner& runner, Algorithm algorithm, const AnyGraph& graph,
                                          uint64_t source, const AlgorithmOptions& options = {});

}  // namespace tg::test
