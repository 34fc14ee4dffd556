// One switch from an algorithm name to its driver, shared by every engine.
#pragma once

#include "algorithms/bfs.h"
#include "algorithms/cc.h"
#include "algorithms/pagerank.h"
#include "algorithms/ssnsp.h"
#include "algorithms/sssp.h"
#include "algorithms/sswp.h"
#include "engines/run.h"

namespace tg {

template <typename Engine>
VertexValues run_algorithm(Engine& engine, const RunRequest& request) {
  using V = typename Engine::vertex_t;
  const V source = static_cast<V>(request.source);
  switch (request.algorithm) {
    case Algorithm::kBfs: return bfs(engine, source, request.options);
    case Algorithm::kSssp: return sssp(engine, source, request.options.delta);
    case Algorithm::kCc: return cc(engine);
    case Algorithm::kPageRank: {
      PageRankOutput out = pagerank(engine, request.options);
      engine.stats().details["pagerank_last_change"] = out.last_change;
      return std::move(out.score);
    }
    case Algorithm::kSswp: return sswp(engine, source);
    case Algorithm::kSsnsp: return std::move(ssnsp(engine, source, request.options).paths);
  }
  return {};
}

}  // namespace tg
