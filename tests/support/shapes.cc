#include "support/shapes.h"

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <random>
#include <stdexcept>

#include "generators/generators.h"

namespace tg::test {

namespace {

struct ShapeMaker {
  std::vector<Shape> shapes;

  EdgeList& add(const std::string& name, uint64_t n) {
    Shape s;
    s.name = name;
    s.edges.num_vertices = n;
    s.edges.name = name;
    shapes.push_back(std::move(s));
    return shapes.back().edges;
  }
};

void edge(EdgeList& e, uint64_t u, uint64_t v) {
  e.src.push_back(u);
  e.dst.push_back(v);
}

void random_edges(EdgeList& e, uint64_t m, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<uint64_t> pick(0, e.num_vertices - 1);
  for (uint64_t i = 0; i < m; ++i) {
    uint64_t u = pick(rng);
    edge(e, u, pick(rng));
  }
}

// Edges from earlier to later vertices in a random order of the ids.
void random_dag(EdgeList& e, uint64_t m, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> order(e.num_vertices);
  std::iota(order.begin(), order.end(), uint64_t{0});
  std::shuffle(order.begin(), order.end(), rng);
  std::uniform_int_distribution<uint64_t> pick(0, e.num_vertices - 1);
  for (uint64_t i = 0; i < m; ++i) {
    uint64_t a = pick(rng), b = pick(rng);
    if (a == b) continue;
    edge(e, order[std::min(a, b)], order[std::max(a, b)]);
  }
}

// Generated shapes are made on first use: most test processes need one shape.
struct GeneratedShape {
  std::string name;
  GeneratorSpec::Kind kind;
  int scale;
  int edge_factor;
  uint64_t seed;
};

const std::vector<GeneratedShape>& generated_shapes() {
  using K = GeneratorSpec::Kind;
  static const std::vector<GeneratedShape> table = {
      {"kron_1", K::kKronecker, 7, 8, 1},
      {"kron_2", K::kKronecker, 7, 8, 2},
      {"kron_large", K::kKronecker, 11, 8, 3},  // 16k edges: several push tasks per step
      {"urand_1", K::kUniform, 7, 4, 1},
      {"urand_2", K::kUniform, 7, 4, 2},
  };
  return table;
}

Shape make_generated(const GeneratedShape& g) {
  GeneratorSpec spec;
  spec.kind = g.kind;
  spec.scale = g.scale;
  spec.edge_factor = g.edge_factor;
  spec.seed = g.seed;
  spec.text = g.name;
  EdgeList edges = generate(spec);
  edges.directed = true;  // the orientation variants decide
  edges.weights.clear();
  edges.name = g.name;
  return Shape{g.name, std::move(edges)};
}

std::vector<Shape> make_hand_made_shapes() {
  ShapeMaker m;
  m.add("empty", 0);
  m.add("no_edges", 5);
  m.add("single_vertex", 1);
  edge(m.add("self_loop", 1), 0, 0);
  edge(m.add("one_edge", 2), 0, 1);
  {
    EdgeList& e = m.add("path", 8);
    for (uint64_t v = 0; v + 1 < 8; ++v) edge(e, v, v + 1);
  }
  {
    EdgeList& e = m.add("path_into_0", 8);  // 0 has no out-edges when directed
    for (uint64_t v = 7; v > 0; --v) edge(e, v, v - 1);
  }
  {
    EdgeList& e = m.add("cycle", 7);
    for (uint64_t v = 0; v < 7; ++v) edge(e, v, (v + 1) % 7);
  }
  {
    EdgeList& e = m.add("star_out", 10);
    for (uint64_t v = 1; v < 10; ++v) edge(e, 0, v);
  }
  {
    EdgeList& e = m.add("star_in", 10);
    for (uint64_t v = 1; v < 10; ++v) edge(e, v, 0);
  }
  {
    EdgeList& e = m.add("complete", 6);
    for (uint64_t u = 0; u < 6; ++u)
      for (uint64_t v = 0; v < 6; ++v)
        if (u != v) edge(e, u, v);
  }
  {
    EdgeList& e = m.add("binary_tree", 15);
    for (uint64_t v = 0; 2 * v + 2 < 15; ++v) {
      edge(e, v, 2 * v + 1);
      edge(e, v, 2 * v + 2);
    }
  }
  {
    EdgeList& e = m.add("grid", 20);  // 5 wide, 4 high: right and down
    for (uint64_t r = 0; r < 4; ++r)
      for (uint64_t c = 0; c < 5; ++c) {
        if (c + 1 < 5) edge(e, r * 5 + c, r * 5 + c + 1);
        if (r + 1 < 4) edge(e, r * 5 + c, (r + 1) * 5 + c);
      }
  }
  {
    // Components with interleaved ids, so the smallest id is not the first seen:
    // 3-7-11 path, 1-5-9 triangle, 10-2, 8-6-4, and 0 alone.
    EdgeList& e = m.add("pieces", 12);
    for (auto [u, v] : std::vector<std::pair<int, int>>{{3, 7}, {7, 11}, {1, 5}, {5, 9}, {9, 1}, {10, 2}, {8, 6}, {6, 4}})
      edge(e, u, v);
  }
  {
    EdgeList& e = m.add("isolated", 20);  // 0, 19 and most others have no edges
    for (auto [u, v] : std::vector<std::pair<int, int>>{{5, 6}, {6, 7}, {7, 5}, {12, 13}}) edge(e, u, v);
  }
  {
    EdgeList& e = m.add("loops_and_duplicates", 5);
    for (auto [u, v] : std::vector<std::pair<int, int>>{
             {0, 1}, {0, 1}, {0, 1}, {0, 0}, {1, 1}, {1, 1}, {1, 2}, {1, 2}, {0, 2}, {2, 3}, {2, 3}, {3, 3}, {3, 1}, {4, 4}})
      edge(e, u, v);
  }
  random_dag(m.add("dag", 30), 80, 7);
  {
    // 0 -> layer 1 -> ... -> layer 30, three vertices a layer, each joined to
    // all of the next: 3^k shortest paths to layer k (3^30 < 2^53, exact),
    // plus edges back a layer that must not count.
    EdgeList& e = m.add("tied_layers", 91);
    auto at = [](uint64_t layer, uint64_t i) { return 1 + (layer - 1) * 3 + i; };
    for (uint64_t i = 0; i < 3; ++i) edge(e, 0, at(1, i));
    for (uint64_t layer = 1; layer < 30; ++layer)
      for (uint64_t i = 0; i < 3; ++i) {
        for (uint64_t j = 0; j < 3; ++j) edge(e, at(layer, i), at(layer + 1, j));
        edge(e, at(layer + 1, i), at(layer, (i + 1) % 3));
      }
  }
  {
    // 64 diamonds in a chain: 2^64 shortest paths at the end, beyond 2^53
    // (powers of two stay exact in doubles).
    EdgeList& e = m.add("diamonds", 1 + 64 * 3);
    for (uint64_t k = 0; k < 64; ++k) {
      uint64_t hub = 3 * k, a = hub + 1, b = hub + 2, next = hub + 3;
      edge(e, hub, a);
      edge(e, hub, b);
      edge(e, a, next);
      edge(e, b, next);
    }
  }
  for (uint64_t seed : {1, 2, 3}) random_edges(m.add("random_" + std::to_string(seed), 40), 120, seed);
  random_edges(m.add("random_sparse", 60), 45, 4);  // many small components
  {
    // A hub of out-degree 6000 and a ring among its leaves: the CPU engine
    // cuts a frontier's edges into ranges of 2048, so one vertex's list is
    // spread over several tasks (and threads).
    EdgeList& e = m.add("big_star", 6001);
    for (uint64_t v = 1; v <= 6000; ++v) edge(e, 0, v);
    for (uint64_t v = 1; v <= 6000; v += 7) edge(e, v, v % 6000 + 1);
  }
  {
    // In-degree 3999 at vertex 3, longer than a GPU chunk (1024 entries):
    // pulls and gathers cut its in-list; a path through every vertex and an
    // edge back from 3 keep it reachable and reaching.
    EdgeList& e = m.add("big_star_in", 4001);
    for (uint64_t v = 0; v < 4000; ++v)
      if (v != 3) edge(e, v, 3);
    for (uint64_t v = 0; v + 1 < 4000; ++v) edge(e, v, v + 1);
    edge(e, 3, 0);
  }
  {
    // 1500 levels: many small steps, and SSSP buckets in a long row.
    EdgeList& e = m.add("long_path", 1500);
    for (uint64_t v = 0; v + 1 < 1500; ++v) edge(e, v, v + 1);
  }
  return std::move(m.shapes);
}

const std::vector<Shape>& hand_made_shapes() {
  static const std::vector<Shape> shapes = make_hand_made_shapes();
  return shapes;
}

}  // namespace

const std::vector<std::string>& shape_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Shape& s : hand_made_shapes()) out.push_back(s.name);
    for (const GeneratedShape& g : generated_shapes()) out.push_back(g.name);
    return out;
  }();
  return names;
}

const Shape& find_shape(const std::string& name) {
  for (const Shape& s : hand_made_shapes())
    if (s.name == name) return s;
  static std::mutex mutex;
  static std::map<std::string, Shape> made;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = made.find(name); it != made.end()) return it->second;
  for (const GeneratedShape& g : generated_shapes())
    if (g.name == name) return made.emplace(name, make_generated(g)).first->second;
  throw std::invalid_argument("no test shape named " + name);
}

const std::vector<Shape>& all_shapes() {
  static const std::vector<Shape> shapes = [] {
    std::vector<Shape> out;
    for (const std::string& name : shape_names()) out.push_back(find_shape(name));
    return out;
  }();
  return shapes;
}

const char* orientation_name(Orientation o) {
  switch (o) {
    case Orientation::kDirected: return "directed";
    case Orientation::kDirectedNoCsc: return "directed_no_csc";
    case Orientation::kUndirected: return "undirected";
  }
  return "?";
}

std::vector<Orientation> all_orientations() {
  return {Orientation::kDirected, Orientation::kDirectedNoCsc, Orientation::kUndirected};
}

const char* weight_kind_name(WeightKind k) {
  switch (k) {
    case WeightKind::kInteger: return "integer";
    case WeightKind::kReal: return "real";
    case WeightKind::kEqual: return "equal";
    case WeightKind::kWithZeros: return "with_zeros";
    case WeightKind::kWithInf: return "with_inf";
  }
  return "?";
}

std::vector<WeightKind> all_weight_kinds() {
  return {WeightKind::kInteger, WeightKind::kReal, WeightKind::kEqual, WeightKind::kWithZeros, WeightKind::kWithInf};
}

EdgeList with_weights(EdgeList edges, WeightKind kind, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> integer(1, 9), small(0, 2);
  std::uniform_real_distribution<float> real(0.0f, 10.0f);
  edges.weights.resize(edges.num_edges());
  for (weight_t& w : edges.weights) {
    switch (kind) {
      case WeightKind::kInteger: w = static_cast<weight_t>(integer(rng)); break;
      case WeightKind::kReal:
        do w = real(rng);
        while (w == 0);
        break;
      case WeightKind::kEqual: w = 1; break;
      case WeightKind::kWithZeros: w = static_cast<weight_t>(small(rng)); break;
      case WeightKind::kWithInf:
        w = rng() % 5 == 0 ? std::numeric_limits<weight_t>::infinity() : static_cast<weight_t>(integer(rng));
        break;
    }
  }
  return edges;
}

AnyGraph build_variant(const EdgeList& edges, Orientation orientation, bool ids64) {
  BuildOptions options;
  options.undirected = orientation == Orientation::kUndirected;
  options.in_edges = orientation == Orientation::kDirected;
  options.force_64bit_ids = ids64;
  EdgeList copy = edges;
  return build_graph(std::move(copy), options);
}

std::vector<uint64_t> test_sources(const AnyGraph& graph, int random, uint64_t seed) {
  return std::visit(
      [&](const auto& g) {
        std::vector<uint64_t> sources;
        const uint64_t n = g.num_vertices;
        if (n == 0) return sources;
        auto add = [&](uint64_t v) {
          if (std::find(sources.begin(), sources.end(), v) == sources.end()) sources.push_back(v);
        };
        add(0);
        uint64_t hub = 0;
        for (uint64_t v = 1; v < n; ++v)
          if (g.out.degree(v) > g.out.degree(hub)) hub = v;
        add(hub);
        std::vector<uint8_t> has_in(n, 0);
        for (uint64_t u = 0; u < n; ++u)
          for (eid_t e = g.out.offsets[u]; e < g.out.offsets[u + 1]; ++e) has_in[g.out.neighbors[e]] = 1;
        for (uint64_t v = 0; v < n; ++v)
          if (g.out.degree(v) == 0) {
            add(v);
            break;
          }
        for (uint64_t v = 0; v < n; ++v)
          if (g.out.degree(v) == 0 && !has_in[v]) {
            add(v);
            break;
          }
        std::mt19937_64 rng(seed);
        for (int i = 0; i < random; ++i) add(std::uniform_int_distribution<uint64_t>(0, n - 1)(rng));
        return sources;
      },
      graph);
}

}  // namespace tg::test
