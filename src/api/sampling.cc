// tiergraph::sample_neighbors over tg::sample_neighbors.
#include "tiergraph/sampling.h"

#include <shared_mutex>

#include "api/api_errors.h"
#include "api/graph_access.h"
#include "core/error.h"
#include "sampling/neighbor_sampler.h"

namespace tiergraph {

std::vector<SampledHop> sample_neighbors(const Graph& graph, const uint64_t* seeds, size_t num_seeds,
                                         const SampleOptions& options) {
  try {
    Graph::Impl* impl = GraphAccess::impl(graph);
    if (impl == nullptr) throw tg::usage_error("sample_neighbors: the graph handle is empty");
    if (num_seeds > 0 && seeds == nullptr) throw tg::usage_error("sample_neighbors: seeds is null");
    ensure_in_edges(*impl);
    std::shared_lock lock(impl->mutex);
    tg::SampleOptions o{options.fanouts, options.replace, options.seed};
    std::vector<SampledHop> out;
    for (tg::SampledHop& h : tg::sample_neighbors(impl->graph, std::vector<uint64_t>(seeds, seeds + num_seeds), o))
      out.push_back({std::move(h.dst_nodes), std::move(h.src_nodes), std::move(h.edge_src), std::move(h.edge_dst)});
    return out;
  } catch (...) {
    rethrow_as_api_error();
  }
}

}  // namespace tiergraph
