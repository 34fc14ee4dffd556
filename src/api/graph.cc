// tiergraph::load and the Graph handle over tg::load_graph's AnyGraph.
#include "api/api_errors.h"
#include "api/graph_access.h"
#include "formats/load_graph.h"

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

Graph load(const std::string& spec, const LoadOptions& options) {
  try {
    tg::LoadOptions o;
    o.build.undirected = options.undirected;
    o.build.simplify = options.simplify;
    o.build.force_64bit_ids = options.ids64;
    if (!options.random_weights.empty()) o.build.random_weights = tg::parse_weight_range(options.random_weights);
    o.build.weight_seed = options.weight_seed;
    o.edge_factor = options.edge_factor;
    o.seed = options.seed;
    auto impl = std::make_shared<Graph::Impl>();
    impl->graph = tg::load_graph(spec, o);
    return GraphAccess::wrap(std::move(impl));
  } catch (...) {
    rethrow_as_api_error();
  }
}

}  // namespace tiergraph
