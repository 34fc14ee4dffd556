// Engine-generic checks of algorithm results, for the tests of every engine
// (CPU here; GPU placements reuse them): a result against the sequential
// reference (support/reference.h) and against the verifier
// (algorithms/verifier.h), and a one-call run-and-check for any engine entry
// point with the signature of run_on_cpu.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "algorithms/algorithm.h"
#include "engines/run.h"
#include "graph/graph.h"

namespace tg::test {

// got equals want within the algorithm's agreement (AlgorithmTraits):
// exactly, within a relative error per vertex (inf only where want has inf),
// or within an L1 distance. The failure names the first differing vertex
// (internal id) and both values.
::testing::AssertionResult agrees(const AlgorithmInfo& algorithm, const VertexValues& got, const VertexValues& want);

// got agrees with the reference (support/reference.h).
::testing::AssertionResult matches_reference(const AlgorithmInfo& algorithm, const AnyGraph& graph,
                                             const Sources& sources, const VertexValues& got,
                                             const AlgorithmOptions& options);

// The verifier accepts got; the failure carries its message.
::testing::AssertionResult passes_verifier(const AlgorithmInfo& algorithm, const AnyGraph& graph,
                                           const Sources& sources, const VertexValues& got,
                                           const AlgorithmOptions& options);

// An engine entry point: run_on_cpu, or a lambda calling run_on_gpu with options.
using EngineRunner = std::function<RunOutput(const AnyGraph&, const RunRequest&)>;

// prepare_request, then runner, then both checks above. The failure says
// which graph, algorithm and source.
::testing::AssertionResult runs_correctly(const EngineRunner& runner, const AlgorithmInfo& algorithm,
                                          const AnyGraph& graph, const Sources& sources,
                                          const AlgorithmOptions& options = {});

// "source 3", "sources 1,5", "no source": for failure messages.
std::string describe_sources(const Sources& sources);

// The registry's names, in its order: test matrices are built from these.
std::vector<std::string> algorithm_names();

// The registry's entry for a name (a test failure, not a crash, if absent).
const AlgorithmInfo& algorithm(const std::string& name);

}  // namespace tg::test
