// tiergraph::tier_scores, order_by_score and relabel over features/ and graph/.
#include "tiergraph/tiering.h"

#include <shared_mutex>

#include "api/api_errors.h"
#include "api/graph_access.h"
#include "core/error.h"
#include "features/tier_scores.h"
#include "graph/relabel.h"

namespace tiergraph {

namespace {

Graph::Impl& impl_of(const Graph& graph, const char* what) {
  Graph::Impl* impl = GraphAccess::impl(graph);
  if (impl == nullptr) throw tg::usage_error(std::string(what) + ": the graph handle is empty");
  return *impl;
}

}  // namespace

std::vector<double> tier_scores(const Graph& graph, const std::string& score, const std::vector<uint64_t>& train_ids,
                                int iterations, double damping) {
  try {
    const std::optional<tg::TierScore> kind = tg::parse_tier_score(score);
    if (!kind)
      throw tg::usage_error("tier scores: '" + score +
                            "' is not a score (degree, reverse-pagerank, weighted-reverse-pagerank)");
    Graph::Impl& impl = impl_of(graph, "tier scores");
    ensure_in_edges(impl);
    std::shared_lock lock(impl.mutex);
    return tg::tier_scores(impl.graph, {*kind, train_ids, iterations, damping});
  } catch (...) {
    rethrow_as_api_error();
  }
}

std::vector<uint64_t> order_by_score(const std::vector<double>& scores) {
  try {
    return tg::order_by_score(scores);
  } catch (...) {
    rethrow_as_api_error();
  }
}

Graph relabel(const Graph& graph, const uint64_t* order, size_t n) {
  try {
    if (n > 0 && order == nullptr) throw tg::usage_error("relabel: order is null");
    Graph::Impl& impl = impl_of(graph, "relabel");
    std::shared_lock lock(impl.mutex);
    auto out = std::make_shared<Graph::Impl>();
    out->graph = tg::relabel(impl.graph, std::span<const uint64_t>(order, n));
    return GraphAccess::wrap(std::move(out));
  } catch (...) {
    rethrow_as_api_error();
  }
}

}  // namespace tiergraph
