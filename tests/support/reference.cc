#include "support/reference.h"

#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <limits>
#include <numeric>
#include <queue>
#include <utility>

namespace tg::test {

namespace {

template <typename V>
double weight(const Graph<V>& g, eid_t e) {
  return g.weighted() ? static_cast<double>(g.out.weights[e]) : 1.0;
}

template <typename V>
std::vector<int32_t> bfs(const Graph<V>& g, uint64_t source) {
  std::vector<int32_t> depth(g.num_vertices, -1);
  std::queue<uint64_t> queue;
  depth[source] = 0;
  queue.push(source);
  while (!queue.empty()) {
    uint64_t u = queue.front();
    queue.pop();
    for (eid_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e) {
      uint64_t v = g.out.neighbors[e];
      if (depth[v] == -1) {
        depth[v] = depth[u] + 1;
        queue.push(v);
      }
    }
  }
  return depth;
}

template <typename V>
std::vector<double> dijkstra(const Graph<V>& g, uint64_t source) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(g.num_vertices, inf);
  using Item = std::pair<double, uint64_t>;  // (distance, vertex), smallest first
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  dist[source] = 0;
  heap.push({0.0, source});
  while (!heap.empty()) {
    auto [d, u] = heap.top();
    heap.pop();
    if (d > dist[u]) continue;  // stale entry
    for (eid_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e) {
      uint64_t v = g.out.neighbors[e];
      double candidate = d + weight(g, e);
      if (candidate < dist[v]) {
        dist[v] = candidate;
        heap.push({candidate, v});
      }
    }
  }
  return dist;
}

template <typename V>
std::vector<uint64_t> union_find_cc(const Graph<V>& g) {
  std::vector<uint64_t> parent(g.num_vertices);
  std::iota(parent.begin(), parent.end(), uint64_t{0});
  auto find = [&](uint64_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (uint64_t u = 0; u < g.num_vertices; ++u)
    for (eid_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e) {
      uint64_t a = find(u), b = find(g.out.neighbors[e]);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root is always the smallest id
    }
  std::vector<uint64_t> label(g.num_vertices);
  for (uint64_t v = 0; v < g.num_vertices; ++v) label[v] = find(v);
  return label;
}

template <typename V>
std::vector<double> power_iteration(const Graph<V>& g, double damping) {
  const uint64_t n = g.num_vertices;
  if (n == 0) return {};
  std::vector<double> score(n, 1.0 / n), next(n);
  for (int iter = 0; iter < 1000; ++iter) {
    double dangling = 0;
    for (uint64_t u = 0; u < n; ++u)
      if (g.out.degree(u) == 0) dangling += score[u];
    std::fill(next.begin(), next.end(), (1 - damping) / n + damping * dangling / n);
    for (uint64_t u = 0; u < n; ++u)
      for (eid_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e)
        next[g.out.neighbors[e]] += damping * score[u] / g.out.degree(u);
    double change = 0;
    for (uint64_t v = 0; v < n; ++v) change += std::fabs(next[v] - score[v]);
    score.swap(next);
    if (change < 1e-12) break;
  }
  return score;
}

template <typename V>
std::vector<float> widest(const Graph<V>& g, uint64_t source) {
  std::vector<float> width(g.num_vertices, 0.0f);
  std::vector<bool> done(g.num_vertices, false);
  using Item = std::pair<float, uint64_t>;  // (width, vertex), widest first
  std::priority_queue<Item> heap;
  width[source] = std::numeric_limits<float>::infinity();
  heap.push({width[source], source});
  while (!heap.empty()) {
    auto [w, u] = heap.top();
    heap.pop();
    if (done[u]) continue;
    done[u] = true;
    for (eid_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e) {
      uint64_t v = g.out.neighbors[e];
      float candidate = std::min(w, static_cast<float>(weight(g, e)));
      if (candidate > width[v]) {
        width[v] = candidate;
        heap.push({candidate, v});
      }
    }
  }
  return width;
}

template <typename V>
std::vector<double> count_paths(const Graph<V>& g, uint64_t source) {
  std::vector<int64_t> depth(g.num_vertices, -1);
  std::vector<double> paths(g.num_vertices, 0.0);
  std::vector<uint64_t> order;  // BFS order: all of depth d before depth d + 1
  depth[source] = 0;
  paths[source] = 1;
  order.push_back(source);
  for (size_t head = 0; head < order.size(); ++head) {
    uint64_t u = order[head];
    for (eid_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e) {
      uint64_t v = g.out.neighbors[e];
      if (depth[v] == -1) {
        depth[v] = depth[u] + 1;
        order.push_back(v);
      }
      // u's count is final here: every in-neighbour of u one level up came
      // earlier in the queue and has already pushed its count into u.
      if (depth[v] == depth[u] + 1) paths[v] += paths[u];
    }
  }
  return paths;
}

}  // namespace

std::vector<int32_t> reference_bfs(const AnyGraph& graph, uint64_t source) {
  return std::visit([&](const auto& g) { return bfs(g, source); }, graph);
}
std::vector<double> reference_sssp(const AnyGraph& graph, uint64_t source) {
  return std::visit([&](const auto& g) { return dijkstra(g, source); }, graph);
}
std::vector<uint64_t> reference_cc(const AnyGraph& graph) {
  return std::visit([&](const auto& g) { return union_find_cc(g); }, graph);
}
std::vector<double> reference_pagerank(const AnyGraph& graph, const AlgorithmOptions& options) {
  return std::visit([&](const auto& g) { return power_iteration(g, options.damping); }, graph);
}
std::vector<float> reference_sswp(const AnyGraph& graph, uint64_t source) {
  return std::visit([&](const auto& g) { return widest(g, source); }, graph);
}
std::vector<double> reference_ssnsp(const AnyGraph& graph, uint64_t source) {
  return std::visit([&](const auto& g) { return count_paths(g, source); }, graph);
}

namespace {

std::map<std::string, ReferenceFn>& references() {
  static std::map<std::string, ReferenceFn> all;
  return all;
}

const bool builtin_registered = [] {
  register_reference("bfs", [](const AnyGraph& g, const Sources& s, const AlgorithmOptions&) -> VertexValues {
    return to_result_vector(reference_bfs(g, s.at(0)));
  });
  register_reference("sssp", [](const AnyGraph& g, const Sources& s, const AlgorithmOptions&) -> VertexValues {
    return to_result_vector(reference_sssp(g, s.at(0)));
  });
  register_reference("cc", [](const AnyGraph& g, const Sources&, const AlgorithmOptions&) -> VertexValues {
    return to_result_vector(reference_cc(g));
  });
  register_reference("pagerank", [](const AnyGraph& g, const Sources&, const AlgorithmOptions& o) -> VertexValues {
    return to_result_vector(reference_pagerank(g, o));
  });
  register_reference("sswp", [](const AnyGraph& g, const Sources& s, const AlgorithmOptions&) -> VertexValues {
    return to_result_vector(reference_sswp(g, s.at(0)));
  });
  register_reference("ssnsp", [](const AnyGraph& g, const Sources& s, const AlgorithmOptions&) -> VertexValues {
    return to_result_vector(reference_ssnsp(g, s.at(0)));
  });
  return true;
}();

}  // namespace

bool register_reference(const std::string& algorithm, ReferenceFn fn) {
  references()[algorithm] = fn;
  return true;
}

VertexValues reference(const AlgorithmInfo& algorithm, const AnyGraph& graph, const Sources& sources,
                       const AlgorithmOptions& options) {
  auto it = references().find(algorithm.name());
  if (it == references().end())
    throw std::logic_error("no reference implementation is registered for " + algorithm.name() +
                           " (tests/support/reference.h)");
  return it->second(graph, sources, options);
}

}  // namespace tg::test
