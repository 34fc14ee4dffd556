// The algorithms tiergraph runs, their options, and what each returns per
// vertex. The per-algorithm files hold the operators and driver loops.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tg {

enum class Algorithm { kBfs, kSssp, kCc, kPageRank, kSswp, kSsnsp };

const char* algorithm_name(Algorithm a);                   // "bfs", "sssp", ...
std::optional<Algorithm> parse_algorithm(const std::string& name);
const std::vector<Algorithm>& all_algorithms();
bool needs_source(Algorithm a);   // bfs, sssp, sswp, ssnsp
bool needs_weights(Algorithm a);  // sssp, sswp
// Whether the driver pulls over in-edges (a directed graph then needs its CSC).
bool uses_in_edges(Algorithm a);

struct AlgorithmOptions {
  double tolerance = 1e-6;  // PageRank: stop when the L1 change is below this
  int max_iters = 100;      // PageRank
  double damping = 0.85;    // PageRank
  double delta = 0;         // SSSP bucket width; 0 picks one from the weights
  // Run the order-independent (accumulative) form where one differs (ssnsp,
  // pagerank; bfs relaxes reached vertices too); --async sets it.
  bool accumulative = false;
};

// Per-vertex results, indexed by internal (0-based) vertex id:
//   bfs: int32 hop depth, -1 unreachable      sssp: double distance, inf unreachable
//   cc: uint64 smallest vertex id of the component
//   pagerank: double score                    sswp: float width, source inf, unreachable 0
//   ssnsp: double number of shortest hop paths, source 1, unreachable 0
using VertexValues = std::variant<std::vector<int32_t>, std::vector<double>, std::vector<float>, std::vector<uint64_t>>;

constexpr int32_t kUnreached = -1;
constexpr double kInfDistance = std::numeric_limits<double>::infinity();
constexpr float kInfWidth = std::numeric_limits<float>::infinity();

}  // namespace tg
