// tiergraph::load and the Graph handle over tg::load_graph's AnyGraph.
#include "api/api_errors.h"
#include "api/graph_access.h"
#include "formats/load_graph.h"
#include "core/error.h"
#include "graph/builder.h"
#include "graph/weight_order.h"

#include <algorithm>
#include <mutex>
#include <shared_mutex>

namespace tiergraph {

namespace {

// An empty handle reads as an empty graph. No lock: a run that builds the
// in-edges changes nothing read here.
template <typename T, typename F>
T read(const Graph& g, F f) {
  const Graph::Impl* impl = GraphAccess::impl(g);
  if (impl == nullptr) return T{};
  return std::visit([&](const auto& x) -> T { return f(x); }, impl->graph);
}

}  // namespace

Graph::Graph() = default;

void ensure_in_edges(Graph::Impl& impl) {
  auto has = [&] { return std::visit([](const auto& g) { return g.has_in_edges(); }, impl.graph); };
  {
    std::shared_lock lock(impl.mutex);
    if (has()) return;
  }
  std::unique_lock lock(impl.mutex);
  if (!has()) tg::ensure_in_edges(impl.graph);
}

uint64_t Graph::num_vertices() const {
  return read<uint64_t>(*this, [](const auto& g) { return g.num_vertices; });
}
uint64_t Graph::num_edges() const {
  return read<uint64_t>(*this, [](const auto& g) { return g.num_edges(); });
}
bool Graph::directed() const {
  return read<bool>(*this, [](const auto& g) { return g.directed; });
}
bool Graph::weighted() const {
  return read<bool>(*this, [](const auto& g) { return g.weighted(); });
}
int Graph::id_base() const {
  return read<int>(*this, [](const auto& g) { return g.id_base; });
}
int Graph::vertex_id_bytes() const {
  return read<int>(*this, [](const auto& g) { return static_cast<int>(sizeof(typename std::decay_t<decltype(g)>::vertex_t)); });
}
std::string Graph::name() const {
  return read<std::string>(*this, [](const auto& g) { return g.name; });
}

namespace {

tg::BuildOptions build_options(const LoadOptions& options) {
  tg::BuildOptions b;
  b.undirected = options.undirected;
  b.simplify = options.simplify;
  b.force_64bit_ids = options.ids64;
  if (!options.random_weights.empty()) b.random_weights = tg::parse_weight_range(options.random_weights);
  b.weight_seed = options.weight_seed;
  return b;
}

}  // namespace

Graph load(const std::string& spec, const LoadOptions& options) {
  try {
    if (spec.empty()) throw tg::usage_error("load: the path is empty");
    if (spec.find('\0') != std::string::npos) throw tg::usage_error("load: the path holds a NUL byte");
    tg::LoadOptions o;
    o.build = build_options(options);
    o.edge_factor = options.edge_factor;
    o.seed = options.seed;
    o.lists_by_weight = options.lists_by_weight;
    auto impl = std::make_shared<Graph::Impl>();
    impl->graph = tg::load_graph(spec, o);
    return GraphAccess::wrap(std::move(impl));
  } catch (...) {
    rethrow_as_api_error();
  }
}

Graph from_edges(const uint64_t* src, const uint64_t* dst, size_t num_edges, const float* weights,
                 uint64_t num_vertices, const LoadOptions& options, const std::string& name) {
  try {
    if (weights != nullptr && !options.random_weights.empty())
      throw tg::usage_error("give the edges' weights or random weights, not both");
    // Arrays of 8-byte ids past 2^56 entries hold more bytes than any address space: a count that large
    // wrapped the pointer arithmetic below.
    if (num_edges > (size_t{1} << 56))
      throw tg::usage_error("from_edges: " + std::to_string(num_edges) + " edges is more than arrays can hold");
    if (num_edges > 0 && (src == nullptr || dst == nullptr))
      throw tg::usage_error("from_edges: " + std::to_string(num_edges) + " edges but no source or destination array");
    tg::EdgeList e;
    e.name = name;
    e.src.assign(src, src + num_edges);
    e.dst.assign(dst, dst + num_edges);
    if (weights != nullptr) e.weights.assign(weights, weights + num_edges);
    e.num_vertices = num_vertices;
    if (num_vertices == 0 && num_edges > 0) {  // the largest id + 1 (the builder checks ids against a given count)
      const uint64_t largest = std::max(*std::max_element(src, src + num_edges), *std::max_element(dst, dst + num_edges));
      if (largest >= (uint64_t{1} << 48))  // largest + 1 vertices, which wrapped to 0 at 2^64 - 1
        throw tg::input_error(name, "vertex id " + std::to_string(largest) + " is more than tiergraph supports (ids below 2^48)");
      e.num_vertices = largest + 1;
    }
    auto impl = std::make_shared<Graph::Impl>();
    impl->graph = tg::build_graph(std::move(e), build_options(options));
    if (options.lists_by_weight) tg::order_lists_by_weight(impl->graph, name);
    return GraphAccess::wrap(std::move(impl));
  } catch (...) {
    rethrow_as_api_error();
  }
}

}  // namespace tiergraph
