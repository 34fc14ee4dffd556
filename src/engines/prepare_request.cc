// Checking a request against its graph before any engine runs it: the parts
// every algorithm shares (sources, weights); the algorithm's own options go
// to its descriptor's prepare().
#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "engines/run.h"

namespace tg {

namespace {

template <typename V>
void check_weights(const Graph<V>& graph, const AlgorithmInfo& algorithm) {
  if (!algorithm.needs_weights()) return;
  if (!graph.weighted() && graph.num_edges() > 0)  // without edges no weight is ever read
    throw input_error(algorithm.name() +
                      ": the graph has no edge weights; use a weighted format (.wel, .gr, .wsg, weighted .mtx) "
                      "or add random ones with --weights 8:72");
  const weight_t* w = graph.out.weights.data();
  const eid_t m = graph.num_edges();
  eid_t bad = m;
#pragma omp parallel for reduction(min : bad)
  for (eid_t e = 0; e < m; ++e)
    if (!(w[e] >= 0)) bad = std::min(bad, e);  // +inf passes: such an edge is never taken (sssp) or unbounded (sswp)
  if (bad != m)
    throw input_error(algorithm.name() + ": edge weights must be non-negative (found " + std::to_string(w[bad]) + ")");
}

template <typename V>
void check_sources(const Graph<V>& graph, const RunRequest& request) {
  const AlgorithmInfo& a = *request.algorithm;
  if (a.traits.sources == SourceUse::kNone) {
    if (!request.sources.empty()) throw usage_error(a.name() + " takes no source");
    return;
  }
  if (request.sources.empty()) throw usage_error(a.name() + " needs a source");
  if (a.traits.sources == SourceUse::kOne && request.sources.size() > 1)
    throw usage_error(a.name() + " takes one source, not " + std::to_string(request.sources.size()));
  const std::string has = graph.num_vertices == 0
                              ? std::string("no vertices")
                              : std::to_string(graph.num_vertices) + " vertices (ids " + std::to_string(graph.id_base) +
                                    ".." + std::to_string(graph.num_vertices - 1 + graph.id_base) + ")";
  for (uint64_t s : request.sources)
    if (s >= graph.num_vertices)
      throw usage_error("--source " + std::to_string(s + graph.id_base) + " is out of range: the graph has " + has);
  // A source given twice would count twice in a sum over sources (bc): as the sampler's seeds, refused.
  if (request.sources.size() > 1) {
    Sources sorted = request.sources;
    std::sort(sorted.begin(), sorted.end());
    if (auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
      throw usage_error("--sources: vertex " + std::to_string(*twice + graph.id_base) + " is given twice");
  }
}

}  // namespace

RunRequest make_request(const AlgorithmInfo& algorithm, Sources sources, AlgorithmOptions options) {
  RunRequest r;
  r.algorithm = &algorithm;
  r.sources = std::move(sources);
  r.options = options;
  return r;
}

const char* engine_name(EngineKind e) {
  switch (e) {
    case EngineKind::kCpu: return "cpu";
    case EngineKind::kGpu: return "gpu";
    case EngineKind::kHybrid: return "hybrid";
  }
  return "?";
}

EdgeReads edge_reads(const RunRequest& request) { return request.algorithm->reads(request.options); }

std::string in_edge_reader(const std::vector<RunRequest>& requests) {
  for (const RunRequest& r : requests)
    if (edge_reads(r).in_edges == Need::kYes) return r.algorithm->name();
  return requests.empty() ? std::string() : requests.front().algorithm->name();
}

RunRequest prepare_request(const AnyGraph& any, RunRequest request) {
  if (request.algorithm == nullptr) throw Error("no algorithm was named");
  std::visit(
      [&](const auto& graph) {
        check_sources(graph, request);
        check_weights(graph, *request.algorithm);
      },
      any);
  request.algorithm->prepare(any, request.options);
  return request;
}

RunRequest prepare_request_like(const AnyGraph& any, RunRequest request, const RunRequest& prepared) {
  if (request.algorithm != prepared.algorithm) throw Error("prepare_request_like: another algorithm (a bug)");
  std::visit([&](const auto& graph) { check_sources(graph, request); }, any);
  request.options = prepared.options;
  return request;
}

}  // namespace tg
