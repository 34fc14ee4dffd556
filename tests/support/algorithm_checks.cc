#include "support/algorithm_checks.h"

#include <cmath>
#include <sstream>

#include "algorithms/verifier.h"
#include "core/error.h"
#include "support/reference.h"

namespace tg::test {

namespace {

std::string graph_name(const AnyGraph& graph) {
  return std::visit([](const auto& g) { return g.name.empty() ? std::string("graph") : g.name; }, graph);
}

template <typename T>
std::string show(T x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

template <typename T, typename Same>
::testing::AssertionResult compare_each(const std::vector<T>& got, const std::vector<T>& want, Same same) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "got " << got.size() << " values, the reference has " << want.size();
  for (size_t v = 0; v < got.size(); ++v)
    if (!same(got[v], want[v]))
      return ::testing::AssertionFailure() << "vertex " << v << ": got " << show(got[v]) << ", the reference has "
                                           << show(want[v]);
  return ::testing::AssertionSuccess();
}

template <typename T>
bool close_relative(T a, T b) {
  if (a == b) return true;  // both inf too
  double x = a, y = b;
  return std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
}

template <typename T>
::testing::AssertionResult compare(const VertexValues& got_values, const VertexValues& want_values, Algorithm a) {
  const auto* got = std::get_if<std::vector<T>>(&got_values);
  const auto& want = std::get<std::vector<T>>(want_values);
  if (got == nullptr) return ::testing::AssertionFailure() << "the result holds the wrong value type";
  switch (a) {
    case Algorithm::kSssp:
    case Algorithm::kSswp: return compare_each(*got, want, [](T x, T y) { return close_relative(x, y); });
    case Algorithm::kPageRank: {
      if (got->size() != want.size())
        return ::testing::AssertionFailure() << "got " << got->size() << " values, the reference has " << want.size();
      double l1 = 0;
      for (size_t v = 0; v < want.size(); ++v) l1 += std::fabs(double((*got)[v]) - double(want[v]));
      if (!(l1 < 1e-4)) return ::testing::AssertionFailure() << "L1 distance to the reference is " << show(l1);
      return ::testing::AssertionSuccess();
    }
    default: return compare_each(*got, want, [](T x, T y) { return x == y; });
  }
}

}  // namespace

::testing::AssertionResult matches_reference(Algorithm algorithm, const AnyGraph& graph, uint64_t source,
                                             const VertexValues& got, const AlgorithmOptions& options) {
  VertexValues want = reference(algorithm, graph, source, options);
  ::testing::AssertionResult result = std::visit(
      [&](const auto& w) {
        using T = typename std::decay_t<decltype(w)>::value_type;
        return compare<T>(got, want, algorithm);
      },
      want);
  if (!result) result << " (" << algorithm_name(algorithm) << " on " << graph_name(graph) << ", source " << source << ")";
  return result;
}

::testing::AssertionResult passes_verifier(Algorithm algorithm, const AnyGraph& graph, uint64_t source,
                                           const VertexValues& got, const AlgorithmOptions& options) {
  Verification v = verify(algorithm, graph, source, got, options);
  if (v.ok) return ::testing::AssertionSuccess() << v.message;
  return ::testing::AssertionFailure() << "verifier: " << v.message << " (" << algorithm_name(algorithm) << " on "
                                       << graph_name(graph) << ", source " << source << ")";
}

::testing::AssertionResult runs_correctly(const EngineRunner& runner, Algorithm algorithm, const AnyGraph& graph,
                                          uint64_t source, const AlgorithmOptions& options) {
  RunRequest request;
  request.algorithm = algorithm;
  request.source = source;
  request.options = options;
  RunOutput out;
  try {
    request = prepare_request(graph, request);
    out = runner(graph, request);
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << algorithm_name(algorithm) << " on " << graph_name(graph) << ", source "
                                         << source << " threw: " << e.what();
  }
  if (auto r = matches_reference(algorithm, graph, source, out.values, request.options); !r) return r;
  return passes_verifier(algorithm, graph, source, out.values, request.options);
}

}  // namespace tg::test
