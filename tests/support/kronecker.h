// A Kronecker graph of edge factor 16 for tests (generators.h), undirected or
// directed, built with the options given: the several-GPU tests' graph with
// hubs of thousands of edges.
#pragma once

#include <cstdint>
#include <utility>

#include "generators/generators.h"
#include "graph/builder.h"

namespace tg::test {

inline AnyGraph kronecker(int scale, uint64_t seed, bool undirected, BuildOptions options = {}) {
  GeneratorSpec spec;
  spec.scale = scale;
  spec.edge_factor = 16;
  spec.seed = seed;
  EdgeList edges = generate(spec);
  edges.directed = !undirected;
  return build_graph(std::move(edges), options);
}

}  // namespace tg::test
