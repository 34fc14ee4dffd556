// tiergraph::run: the options checked and turned into a tg::RunRequest, the
// engine chosen as the program chooses it, the record built as the program
// builds it.
#include <omp.h>

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "algorithms/verifier.h"
#include "api/api_errors.h"
#include "api/graph_access.h"
#include "core/error.h"
#include "core/named_choice.h"
#include "core/types.h"
#include "engines/engine_choice.h"
#include "engines/vertex_order.h"
#include "graph/builder.h"
#include "graph/source_picker.h"
#include "report/run_report.h"
#include "tiergraph/run.h"

namespace tiergraph {

// The engines' results (tg::VertexValues) are vectors that skip the
// zero-fill (tg::ResultVector); the API hands out plain std::vectors, so a
// result is copied once on its way out, timed as the phase "copy out".
static_assert(std::variant_size_v<Values> == std::variant_size_v<tg::VertexValues>,
              "Values must hold what the engines' VertexValues hold");

namespace {

const tg::AlgorithmInfo& algorithm_named(const std::string& name) {
  const tg::AlgorithmInfo* a = tg::find_algorithm(name);
  if (a == nullptr) throw tg::usage_error("unknown algorithm '" + name + "' (" + tg::algorithm_list() + ")");
  return *a;
}

// The value named `name` among `choices`, or a usage error naming the
// option `field` and the names it takes.
template <typename E>
E choice_named(const std::vector<tg::NamedChoice<E>>& choices, const std::string& name, const char* field) {
  if (auto value = tg::choice_value(choices, name)) return *value;
  throw tg::usage_error("unknown " + std::string(field) + " '" + name + "' (" + tg::names_of(choices) + ")");
}

tg::GpuOptions gpu_options(const RunOptions& o) {
  tg::GpuOptions gpu;
  auto placement = tg::parse_placement(o.placement);
  if (!placement)
    throw tg::usage_error("unknown placement '" + o.placement + "' (" + tg::names_of(tg::placement_choices()) + ")");
  gpu.placement = *placement;
  gpu.memory_budget = o.gpu_memory_budget;
  gpu.edge_cache = choice_named(tg::edge_cache_choices(), o.edge_cache, "edge_cache");
  gpu.profile = o.profile;
  if (o.device < 0) throw tg::usage_error("device " + std::to_string(o.device) + ": must be 0 or more");
  gpu.device = o.device;
  if (o.gpus < 0) throw tg::usage_error("gpus " + std::to_string(o.gpus) + ": must be 0 or more");
  gpu.gpus = o.gpus;
  gpu.async = o.async;
  return gpu;
}

tg::EngineChoice engine_named(const std::string& name) {
  auto e = tg::parse_engine_choice(name);
  if (!e) throw tg::usage_error("unknown engine '" + name + "' (" + tg::names_of(tg::engine_choices()) + ")");
  return *e;
}

// The sources in internal ids. An id below id_base wraps around to a huge
// internal id, which prepare_request then reports as out of range with the
// id as given.
tg::Sources internal_sources(const tg::AnyGraph& graph, const tg::AlgorithmInfo& algorithm,
                             const std::vector<uint64_t>& given) {
  if (given.empty()) {
    if (!algorithm.needs_source()) return {};
    return {tg::default_source(graph)};
  }
  const uint64_t base = static_cast<uint64_t>(std::visit([](const auto& g) { return g.id_base; }, graph));
  tg::Sources out;
  for (uint64_t s : given) out.push_back(s - base);
  return out;
}

// OpenMP's thread count for the calling thread, for one run only: the
// embedding program's own setting comes back afterwards.
class ThreadCount {
 public:
  explicit ThreadCount(int threads) : previous_(omp_get_max_threads()), set_(threads > 0) {
    if (threads < 0 || threads > tg::kMaxThreads)
      throw tg::usage_error("threads " + std::to_string(threads) + ": must be 0 (all cores) to " +
                            std::to_string(tg::kMaxThreads));
    if (set_) omp_set_num_threads(threads);
  }
  ~ThreadCount() {
    if (set_) omp_set_num_threads(previous_);
  }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int previous_;
  bool set_;
};

// Directed graphs get their CSC on the first run that pulls or gathers (the
// program builds it at load time, knowing the algorithm).
void ensure_in_edges_for(Graph::Impl& impl, const tg::RunRequest& request) {
  if (tg::edge_reads(request).in_edges >= tg::Need::kIfPresent) ensure_in_edges(impl);
}

Result result_of(const tg::AnyGraph& graph, const tg::RunReport& report) {
  Result r;
  const int base = std::visit([](const auto& g) { return g.id_base; }, graph);
  r.algorithm = report.algorithm->name();
  r.engine = tg::engine_name(report.output.engine);
  r.placement = tg::placement_of(report.output);
  r.engine_note = report.engine_note;
  for (uint64_t s : report.sources) r.sources.push_back(s + base);
  const tg::RunStats& s = report.output.stats;
  r.time_s = s.phases_s;
  r.iterations = s.iterations;
  r.edges_traversed = s.edges_traversed;
  r.bytes_moved = s.bytes_moved;
  r.bytes_needed = s.bytes_needed;
  nlohmann::json j = tg::to_json(graph, report);
  r.summary = j["result"].get<std::string>();
  r.json = j.dump();
  if (report.verification) {
    r.verified = report.verification->ok;
    r.verification = report.verification->message;
  }
  return r;
}

}  // namespace

Result run(const std::string& algorithm_name, const Graph& graph, const RunOptions& options) {
  try {
    const tg::AlgorithmInfo& algorithm = algorithm_named(algorithm_name);
    Graph::Impl* impl = GraphAccess::impl(graph);
    if (impl == nullptr) throw tg::usage_error("the graph is empty (a default-constructed tiergraph::Graph)");
    const tg::EngineChoice engine = engine_named(options.engine);
    const tg::GpuOptions gpu = gpu_options(options);
    ThreadCount threads(options.threads);
    tg::ChosenEngine choice = tg::choose_engine(engine, gpu);

    tg::AlgorithmOptions algo;
    algo.tolerance = options.tolerance;
    algo.max_iters = options.max_iters;
    algo.damping = options.damping;
    algo.delta = options.delta;
    algo.accumulative = options.accumulative || options.async;
    algo.push_only = options.push_only;
    algo.cc_method = choice_named(tg::cc_method_choices(), options.cc_method, "cc_method");
    algo.contributions =
        choice_named(tg::contributions_choices(), options.pagerank_contributions, "pagerank_contributions");
    tg::RunRequest request = tg::make_request(algorithm, {}, algo);
    ensure_in_edges_for(*impl, request);

    std::shared_lock lock(impl->mutex);
    const tg::AnyGraph& g = impl->graph;
    request.sources = internal_sources(g, algorithm, options.sources);
    request = tg::prepare_request(g, request);

    tg::RunReport report;
    report.algorithm = &algorithm;
    report.sources = request.sources;
    report.engine_note = choice.note;
    // vertex_order: the run on a renumbered copy, its output back in the graph's ids (engines/vertex_order.h).
    std::optional<tg::Renumbering> renumbered;
    const tg::VertexOrder order = choice_named(tg::vertex_order_choices(), options.vertex_order, "vertex_order");
    if (order != tg::VertexOrder::kAsLoaded)
      renumbered = tg::renumber(g, order);
    auto run_here = [&](const tg::AnyGraph& graph_run, const tg::RunRequest& r) {
      return tg::run_on_engine(graph_run, r, choice, gpu);
    };
    report.output = renumbered ? tg::run_renumbered(*renumbered, request, run_here) : run_here(g, request);
    if (renumbered) {
      auto& phases = report.output.stats.phases_s;
      phases.insert(phases.begin(), {"renumber", renumbered->seconds});
      renumbered.reset();
    }
    if (options.verify) {
      auto t0 = std::chrono::steady_clock::now();
      report.verification = tg::verify(algorithm, g, request.sources, report.output.values, request.options);
      report.output.stats.add_phase("verify",
                                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    Result result = result_of(g, report);
    const auto t0 = std::chrono::steady_clock::now();
    result.values = std::visit([](const auto& v) -> Values { return tg::to_std_vector(v); }, report.output.values);
    result.time_s.emplace_back("copy out", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return result;
  } catch (...) {
    rethrow_as_api_error();
  }
}

}  // namespace tiergraph
