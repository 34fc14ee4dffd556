#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "engines/run.h"

namespace tg {

namespace {

template <typename V>
void check_weights(const Graph<V>& graph, const RunRequest& request) {
  if (!needs_weights(request.algorithm)) return;
  if (!graph.weighted() && graph.num_edges() > 0)  // without edges no weight is ever read
    throw input_error(std::string(algorithm_name(request.algorithm)) +
                      ": the graph has no edge weights; use a weighted format (.wel, .gr, .wsg, weighted .mtx) "
                      "or add random ones with --weights 8:72");
  const weight_t* w = graph.out.weights.data();
  const eid_t m = graph.num_edges();
  eid_t bad = m;
#pragma omp parallel for reduction(min : bad)
  for (eid_t e = 0; e < m; ++e)
    if (!(w[e] >= 0)) bad = std::min(bad, e);  // +inf passes: such an edge is never taken (sssp) or unbounded (sswp)
  if (bad != m)
    throw input_error(std::string(algorithm_name(request.algorithm)) + ": edge weights must be non-negative (found " +
                      std::to_string(w[bad]) + ")");
}

template <typename V>
double default_delta(const Graph<V>& graph) {
  const weight_t* w = graph.out.weights.data();
  const eid_t m = graph.num_edges();
  // Over finite weights only: one inf edge would make every bucket infinite
  // wide, and delta-stepping would degrade to Bellman-Ford.
  double sum = 0;
  eid_t finite = 0;
#pragma omp parallel for reduction(+ : sum, finite)
  for (eid_t e = 0; e < m; ++e)
    if (std::isfinite(w[e])) {
      sum += w[e];
      ++finite;
    }
  double mean = finite > 0 ? sum / static_cast<double>(finite) : 1.0;
  return std::isfinite(mean) && mean > 0 ? mean : 1.0;
}

}  // namespace

RunRequest prepare_request(const AnyGraph& any, RunRequest request) {
  std::visit(
      [&](const auto& graph) {
        if (needs_source(request.algorithm) && request.source >= graph.num_vertices)
          throw usage_error("--source " + std::to_string(request.source + graph.id_base) + " is out of range: the graph has " +
                            std::to_string(graph.num_vertices) + " vertices (ids " + std::to_string(graph.id_base) + ".." +
                            std::to_string(graph.num_vertices - 1 + graph.id_base) + ")");
        check_weights(graph, request);
        if (request.algorithm == Algorithm::kSssp) {
          if (request.options.delta < 0 || std::isnan(request.options.delta))
            throw usage_error("--delta must be positive");
          if (request.options.delta == 0) request.options.delta = default_delta(graph);
        }
        if (request.algorithm == Algorithm::kPageRank) {
          if (!(request.options.tolerance >= 0)) throw usage_error("--tolerance must be non-negative");
          if (request.options.max_iters < 1) throw usage_error("--max-iters must be at least 1");
          if (!(request.options.damping > 0 && request.options.damping < 1))
            throw usage_error("--damping must be between 0 and 1");
        }
      },
      any);
  return request;
}

}  // namespace tg
