// What a tiergraph::Graph handle holds, for the API's own sources.
#pragma once

#include <memory>
#include <shared_mutex>

#include "graph/graph.h"
#include "tiergraph/graph.h"

namespace tiergraph {

struct Graph::Impl {
  tg::AnyGraph graph;
  // Runs share the graph (shared lock); building its in-edges on a run's
  // first need of them changes it (exclusive lock).
  std::shared_mutex mutex;
};

// Builds a directed graph's in-edges (CSC) once, for whatever first needs
// them (a pulling run, sampling, tier scores): checked under the shared lock,
// built under the exclusive one.
void ensure_in_edges(Graph::Impl& impl);

struct GraphAccess {
  static Graph wrap(std::shared_ptr<Graph::Impl> impl) {
    Graph g;
    g.impl_ = std::move(impl);
    return g;
  }
  static Graph::Impl* impl(const Graph& g) { return g.impl_.get(); }
};

}  // namespace tiergraph
