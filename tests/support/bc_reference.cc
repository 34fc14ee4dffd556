// The reference for bc: Brandes' algorithm as the paper writes it [Brandes,
// J. Math. Sociology 2001, algorithm 1]: a FIFO BFS that records each
// vertex's predecessors and path counts and a stack of the visit order, then
// dependencies popped off the stack. Summed over the sources; parallel edges
// are distinct paths (each is its own predecessor entry).
#include <queue>
#include <vector>

#include "support/reference.h"

namespace tg::test {

namespace {

template <typename V>
std::vector<double> brandes(const Graph<V>& g, const Sources& sources) {
  const uint64_t n = g.num_vertices;
  std::vector<double> total(n, 0.0);
  for (uint64_t s : sources) {
    std::vector<std::vector<uint64_t>> predecessors(n);
    std::vector<double> sigma(n, 0.0), delta(n, 0.0);
    std::vector<int64_t> dist(n, -1);
    std::vector<uint64_t> stack;
    std::queue<uint64_t> queue;
    sigma[s] = 1;
    dist[s] = 0;
    queue.push(s);
    while (!queue.empty()) {
      uint64_t v = queue.front();
      queue.pop();
      stack.push_back(v);
      for (eid_t e = g.out.offsets[v]; e < g.out.offsets[v + 1]; ++e) {
        uint64_t w = g.out.neighbors[e];
        if (dist[w] < 0) {
          dist[w] = dist[v] + 1;
          queue.push(w);
        }
        if (dist[w] == dist[v] + 1) {
          sigma[w] += sigma[v];
          predecessors[w].push_back(v);
        }
      }
    }
    while (!stack.empty()) {
      uint64_t w = stack.back();
      stack.pop_back();
      for (uint64_t v : predecessors[w]) delta[v] += sigma[v] / sigma[w] * (1 + delta[w]);
      if (w != s) total[w] += delta[w];
    }
  }
  return total;
}

const bool registered = register_reference("bc", [](const AnyGraph& graph, const Sources& sources,
                                                    const AlgorithmOptions&) -> VertexValues {
  return std::visit([&](const auto& g) { return to_result_vector(brandes(g, sources)); }, graph);
});

}  // namespace

}  // namespace tg::test
