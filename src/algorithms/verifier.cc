// verify(): from an algorithm and its result to the verifier of that
// algorithm (see verifier.h and the *_verifier.cc files).
#include "algorithms/verifier.h"

#include <variant>

namespace tg {

namespace {

// The result values if they hold T (the type `algorithm` returns), else null.
template <typename T>
const std::vector<T>* values_as(const VertexValues& values) {
  return std::get_if<std::vector<T>>(&values);
}

Verification wrong_type(Algorithm algorithm, const char* expected) {
  return {false, std::string("the ") + algorithm_name(algorithm) + " result does not hold " + expected + " values"};
}

}  // namespace

Verification verify(Algorithm algorithm, const AnyGraph& graph, uint64_t source, const VertexValues& values,
                    const AlgorithmOptions& options) {
  switch (algorithm) {
    case Algorithm::kBfs:
      if (auto* depth = values_as<int32_t>(values)) return verify_bfs(graph, source, *depth);
      return wrong_type(algorithm, "int32");
    case Algorithm::kSssp:
      if (auto* dist = values_as<double>(values)) return verify_sssp(graph, source, *dist);
      return wrong_type(algorithm, "double");
    case Algorithm::kCc:
      if (auto* label = values_as<uint64_t>(values)) return verify_cc(graph, *label);
      return wrong_type(algorithm, "uint64");
    case Algorithm::kPageRank:
      if (auto* score = values_as<double>(values)) return verify_pagerank(graph, *score, options);
      return wrong_type(algorithm, "double");
    case Algorithm::kSswp:
      if (auto* width = values_as<float>(values)) return verify_sswp(graph, source, *width);
      return wrong_type(algorithm, "float");
    case Algorithm::kSsnsp:
      if (auto* paths = values_as<double>(values)) return verify_ssnsp(graph, source, *paths);
      return wrong_type(algorithm, "double");
  }
  return {false, "unknown algorithm"};
}

}  // namespace tg
