// Which algorithms may run with asynchronous subgraph processing (`--async`,
// Subway algorithm 4): each loaded piece or partition is iterated to local
// convergence before the next is loaded, so vertices see values of the
// current outer iteration in an order the synchronous run never uses.
//
// Subway's condition (section 3.2): the final values must not depend on the
// evaluation order. Checked against our operators (src/algorithms/):
//   sssp (SsspRelax: atomic_min of dist[u] + w), sswp (SswpRelax: atomic_max
//   of min(width[u], w)), cc (CcHook: atomic_min on labels): monotone
//   relaxations that read the source's current value: allowed.
//   bfs (BfsStep writes depth = the driver's level) and ssnsp (SsnspStep adds
//   paths at the driver's level): a second inner step would stamp the same
//   level on vertices one hop further, so they are refused until a
//   relaxation-form operator (depth[v] = min(depth[v], depth[u] + 1)) exists.
//   pagerank (gather form, not the accumulative form Subway runs): refused.
#pragma once

#include <string>

#include "algorithms/algorithm.h"

namespace tg::subgraph {

// Empty when `--async` may run `a`; otherwise the one-line reason.
std::string async_refusal(Algorithm a);

// Throws tg::Error with that reason.
void check_async(Algorithm a);

}  // namespace tg::subgraph
