#include "algorithms/algorithm.h"

namespace tg {

const char* algorithm_name(Algorithm a) {
  switch (a) {
    case Algorithm::kBfs: return "bfs";
    case Algorithm::kSssp: return "sssp";
    case Algorithm::kCc: return "cc";
    case Algorithm::kPageRank: return "pagerank";
    case Algorithm::kSswp: return "sswp";
    case Algorithm::kSsnsp: return "ssnsp";
  }
  return "?";
}

const std::vector<Algorithm>& all_algorithms() {
  static const std::vector<Algorithm> all = {Algorithm::kBfs,      Algorithm::kSssp, Algorithm::kCc,
                                             Algorithm::kPageRank, Algorithm::kSswp, Algorithm::kSsnsp};
  return all;
}

std::optional<Algorithm> parse_algorithm(const std::string& name) {
  for (Algorithm a : all_algorithms())
    if (name == algorithm_name(a)) return a;
  if (name == "pr") return Algorithm::kPageRank;
  return std::nullopt;
}

bool needs_source(Algorithm a) { return a != Algorithm::kCc && a != Algorithm::kPageRank; }
bool needs_weights(Algorithm a) { return a == Algorithm::kSssp || a == Algorithm::kSswp; }
bool uses_in_edges(Algorithm a) {
  return a == Algorithm::kBfs || a == Algorithm::kSsnsp || a == Algorithm::kPageRank;
}

}  // namespace tg
