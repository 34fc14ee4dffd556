// The registry: every algorithm tiergraph runs, listed once. Adding an
// algorithm is its header (operators, driver, descriptor), its verifier, its
// tests, and one name in `Algorithms` below.
//
// Included by the code that runs algorithms on an engine (run_algorithm) and
// by the GPU build (each algorithm's operator list); the rest of the program
// uses the type-erased AlgorithmInfo of algorithm.h.
#pragma once

#include <string>
#include <utility>

#include "algorithms/algorithm.h"
#include "algorithms/bc.h"
#include "algorithms/bfs.h"
#include "algorithms/cc.h"
#include "algorithms/pagerank.h"
#include "algorithms/ssnsp.h"
#include "algorithms/sssp.h"
#include "algorithms/sswp.h"
#include "core/error.h"

namespace tg {

template <typename... A>
struct AlgorithmList {};

using Algorithms = AlgorithmList<Bfs, Sssp, Cc, PageRank, Sswp, Ssnsp, Bc>;

// f.template operator()<A>() for every algorithm A of the registry, in order.
template <typename F, typename... A>
void for_each_algorithm(AlgorithmList<A...>, F&& f) {
  (f.template operator()<A>(), ...);
}
template <typename F>
void for_each_algorithm(F&& f) {
  for_each_algorithm(Algorithms{}, std::forward<F>(f));
}

// Runs the algorithm of `info` on the engine: the one dispatch from a name to
// a driver, shared by every engine.
template <typename Engine>
VertexValues run_algorithm(Engine& engine, const AlgorithmInfo& info, const Sources& sources,
                           const AlgorithmOptions& options) {
  VertexValues out;
  bool found = false;
  for_each_algorithm([&]<typename A>() {
    if (found || A::traits.name != info.traits.name) return;
    found = true;
    out = A::run(engine, sources, options);
  });
  if (!found) throw Error("algorithm '" + info.name() + "' is not in the registry");
  return out;
}

}  // namespace tg
