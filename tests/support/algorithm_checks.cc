#include "support/algorithm_checks.h"

#include <cmath>
#include <span>
#include <sstream>
#include <stdexcept>

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
::testing::AssertionResult compare_each(std::span<const T> got, std::span<const T> want, Same same) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "got " << got.size() << " values, the reference has " << want.size();
  for (size_t v = 0; v < got.size(); ++v)
    if (!same(got[v], want[v]))
      return ::testing::AssertionFailure() << "vertex " << v << ": got " << show(got[v]) << ", the reference has "
                                           << show(want[v]);
  return ::testing::AssertionSuccess();
}

template <typename T>
bool close_relative(T a, T b, double relative) {
  if (a == b) return true;  // both inf too
  double x = a, y = b;
  return std::fabs(x - y) <= relative * std::max(std::fabs(x), std::fabs(y));
}

template <typename T>
::testing::AssertionResult compare(const VertexValues& got_values, const VertexValues& want_values,
                                   const Agreement& agreement) {
  const auto* got = std::get_if<ResultVector<T>>(&got_values);
  const auto& want = std::get<ResultVector<T>>(want_values);
  if (got == nullptr) return ::testing::AssertionFailure() << "the result holds the wrong value type";
  if (agreement.l1 > 0) {
    if (got->size() != want.size())
      return ::testing::AssertionFailure() << "got " << got->size() << " values, the reference has " << want.size();
    double l1 = 0;
    for (size_t v = 0; v < want.size(); ++v) l1 += std::fabs(double((*got)[v]) - double(want[v]));
    if (!(l1 < agreement.l1)) return ::testing::AssertionFailure() << "L1 distance to the reference is " << show(l1);
    return ::testing::AssertionSuccess();
  }
  return compare_each<T>(*got, want, [&](T x, T y) { return close_relative(x, y, agreement.relative); });
}

}  // namespace

::testing::AssertionResult agrees(const AlgorithmInfo& algorithm, const VertexValues& got, const VertexValues& want) {
  return std::visit(
      [&](const auto& w) {
        using T = typename std::decay_t<decltype(w)>::value_type;
        return compare<T>(got, want, algorithm.traits.agreement);
      },
      want);
}

std::string describe_sources(const Sources& sources) {
  if (sources.empty()) return "no source";
  std::string s = sources.size() == 1 ? "source " : "sources ";
  for (size_t i = 0; i < sources.size(); ++i) s += (i ? "," : "") + std::to_string(sources[i]);
  return s;
}

::testing::AssertionResult matches_reference(const AlgorithmInfo& algorithm, const AnyGraph& graph,
                                             const Sources& sources, const VertexValues& got,
                                             const AlgorithmOptions& options) {
  ::testing::AssertionResult result = agrees(algorithm, got, reference(algorithm, graph, sources, options));
  if (!result) result << " (" << algorithm.name() << " on " << graph_name(graph) << ", " << describe_sources(sources) << ")";
  return result;
}

::testing::AssertionResult passes_verifier(const AlgorithmInfo& algorithm, const AnyGraph& graph,
                                           const Sources& sources, const VertexValues& got,
                                           const AlgorithmOptions& options) {
  Verification v = verify(algorithm, graph, sources, got, options);
  if (v.ok) return ::testing::AssertionSuccess() << v.message;
  return ::testing::AssertionFailure() << "verifier: " << v.message << " (" << algorithm.name() << " on "
                                       << graph_name(graph) << ", " << describe_sources(sources) << ")";
}

::testing::AssertionResult runs_correctly(const EngineRunner& runner, const AlgorithmInfo& algorithm,
                                          const AnyGraph& graph, const Sources& sources,
                                          const AlgorithmOptions& options) {
  RunRequest request = make_request(algorithm, sources, options);
  RunOutput out;
  try {
    request = prepare_request(graph, request);
    out = runner(graph, request);
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << algorithm.name() << " on " << graph_name(graph) << ", "
                                         << describe_sources(sources) << " threw: " << e.what();
  }
  if (auto r = matches_reference(algorithm, graph, sources, out.values, request.options); !r) return r;
  return passes_verifier(algorithm, graph, sources, out.values, request.options);
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const AlgorithmInfo* a : all_algorithms()) names.push_back(a->name());
  return names;
}

const AlgorithmInfo& algorithm(const std::string& name) {
  const AlgorithmInfo* a = find_algorithm(name);
  if (a == nullptr) throw std::logic_error("no algorithm named " + name + " in the registry");
  return *a;
}

}  // namespace tg::test
