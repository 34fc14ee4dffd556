// Reference implementations for the tests: plain sequential textbook
// algorithms, written without the engines, the drivers or the verifiers, and
// slow but obviously right. Each reads the out-CSR only (building a reverse
// adjacency inside where it needs one) and returns the values the engines
// return (see VertexValues in algorithms/algorithm.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "graph/graph.h"

namespace tg::test {

// Hop depth by a FIFO queue; -1 where unreachable.
std::vector<int32_t> reference_bfs(const AnyGraph& graph, uint64_t source);
// Dijkstra with a binary heap (lazy deletion); inf where unreachable. An
// unweighted graph counts every edge as 1.
std::vector<double> reference_sssp(const AnyGraph& graph, uint64_t source);
// Union-find over all edges (ignoring direction); label = smallest id of the set.
std::vector<uint64_t> reference_cc(const AnyGraph& graph);
// Power iteration from the uniform vector, damping options.damping, dangling
// mass spread evenly, until the L1 change is below 1e-12 or 1000 iterations
// (the run's own tolerance and max_iters are ignored: this is the limit).
std::vector<double> reference_pagerank(const AnyGraph& graph, const AlgorithmOptions& options);
// Dijkstra-like with a max-heap on the bottleneck; source inf, unreachable 0.
std::vector<float> reference_sswp(const AnyGraph& graph, uint64_t source);
// BFS, then counts in BFS order: each edge (u, v) with depth[v] = depth[u] + 1
// adds paths[u] to paths[v] (parallel edges each add). Source 1, unreachable 0.
std::vector<double> reference_ssnsp(const AnyGraph& graph, uint64_t source);

// References are registered by algorithm name, each beside its own tests'
// support (this file's six in reference.cc; bc's in bc_reference.cc), so
// adding an algorithm adds a file here and touches none.
using ReferenceFn = VertexValues (*)(const AnyGraph& graph, const Sources& sources, const AlgorithmOptions& options);
// Call at namespace scope: `const bool registered = register_reference("bc", &fn);`
bool register_reference(const std::string& algorithm, ReferenceFn fn);

// The reference for any registered algorithm, as the engines would return it
// (summed over the sources where the algorithm takes several). Throws
// std::logic_error for an algorithm without one.
VertexValues reference(const AlgorithmInfo& algorithm, const AnyGraph& graph, const Sources& sources,
                       const AlgorithmOptions& options);

}  // namespace tg::test
