// tiergraph plan ALGO --graph G [--gpu-mem B] [--profile P]: the planner's
// choice of placement for a run and the predicted time of each, without
// running anything and without a GPU (planner/planner.h). With --gpus N: the
// degree-separated partition over N GPUs instead, counted without building
// it, and where each rank's part would go (distributed/rank_memory.h).
#include <cstdio>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/choices.h"
#include "cli/commands.h"
#include "cli/graph_options.h"
#include "cli/run_setup.h"
#include "cli/sizes.h"
#include "distributed/multi_gpu_checks.h"
#include "distributed/partition_summary.h"
#include "distributed/rank_memory.h"
#include "engines/gpu_footprint.h"
#include "planner/calibrate.h"
#include "planner/planner.h"

namespace tg::cli {

namespace {

struct PlanOptions {
  std::string algorithm;
  GraphOptions graph;
  AlgorithmOptions algo;
  std::string gpu_mem;
  std::string profile;
  int gpus = 0;
  std::optional<uint64_t> delegate_threshold;
  EdgeCacheMode edge_cache = EdgeCacheMode::kAuto;
  bool json = false;
};

// Each rank's GPU memory for the algorithm, and where --placement auto puts
// its part: in GPU memory where it and the state fit the budget, else in
// host memory (read by zero-copy), else nowhere.
void plan_gpus(const PlanOptions& o, const AlgorithmInfo& algorithm, const AnyGraph& graph, uint64_t budget) {
  const dist::PartitionSummary summary =
      dist::plan_partition(graph, o.gpus, dist::PartitionOptions{.threshold = o.delegate_threshold,
                                                                .rule = dist::threshold_rule_for(algorithm, o.algo.push_only)});
  nlohmann::json ranks = nlohmann::json::array();
  std::string table;
  char line[256];
  std::snprintf(line, sizeof line, "%4s %14s %14s %14s  %s\n", "rank", "lists MB", "state MB", "offsets MB", "part");
  table += line;
  for (int r = 0; r < o.gpus; ++r) {
    const dist::RankMemory m = dist::rank_memory(algorithm.name(), dist::shape_of(summary, r));
    const char* where = m.on_gpu(true) <= budget ? "gpu" : m.on_gpu(false) <= budget ? "host (zero-copy)" : "does not fit";
    std::snprintf(line, sizeof line, "%4d %14.1f %14.1f %14.1f  %s\n", r, m.lists / 1e6, m.state / 1e6, m.offsets / 1e6, where);
    table += line;
    ranks.push_back({{"rank", r}, {"lists_bytes", m.lists}, {"state_bytes", m.state}, {"offsets_bytes", m.offsets},
                     {"part", where}});
  }
  if (o.json) {
    std::printf("%s\n", nlohmann::json{{"algorithm", algorithm.name()},
                                       {"gpus", o.gpus},
                                       {"threshold", summary.threshold},
                                       {"delegates", summary.delegates},
                                       {"budget_bytes_per_gpu", budget},
                                       {"ranks", ranks}}
                            .dump()
                            .c_str());
    return;
  }
  std::printf("%s", summary.to_string().c_str());
  std::printf("%s over %d GPUs, a budget of %.1f MB each (--gpu-mem, else the profile's GPU memory less a margin):\n%s",
              algorithm.name().c_str(), o.gpus, budget / 1e6, table.c_str());
}

void plan(const PlanOptions& o) {
  const AlgorithmInfo& algorithm = algorithm_named(o.algorithm);
  const planner::MachineProfile profile = planner::find_profile(o.profile);
  RunRequest request = make_request(algorithm, {}, o.algo);
  const Need in_edges = edge_reads(request).in_edges;
  AnyGraph graph = load_graph(o.graph.graph, o.graph.load_options(in_edges >= Need::kIfPresent));
  if (o.gpus > 0) {  // what the run would refuse, refused here too
    GpuOptions several;
    several.gpus = o.gpus;
    dist::check_multi_gpu_run({request}, several, std::visit([](const auto& g) { return g.directed; }, graph));
  }
  request.sources = {};
  if (algorithm.needs_source()) request.sources = {0};
  request = prepare_request(graph, request);
  const planner::GraphFacts facts = planner::facts_of(graph);
  // The GPU's room for edges as the engine would find it, its memory less the
  // margin and the vertex data (as for a planned run, which may stream).
  const uint64_t vertex_bytes = gpu_footprint(facts, edge_reads(request), true).vertex_bytes;
  const uint64_t memory = profile.gpu_memory_bytes;
  const uint64_t room = memory > vertex_bytes + kGpuMemoryMargin ? memory - vertex_bytes - kGpuMemoryMargin : 0;
  const uint64_t budget = o.gpu_mem.empty() ? room : parse_size(o.gpu_mem, "--gpu-mem");
  if (o.gpus > 0) {
    // The several-GPU programs keep no per-vertex arrays of the whole graph
    // on a GPU: the budget is the GPU's memory less the margin their fit check keeps.
    const uint64_t margin = dist::kRankMemoryMargin;
    const uint64_t per_gpu = o.gpu_mem.empty() ? (memory > margin ? memory - margin : 0) : budget;
    return plan_gpus(o, algorithm, graph, per_gpu);
  }
  const EdgeCachePlan cache = planner::zero_copy_cache_plan(graph, request, budget, room, o.edge_cache);
  planner::Plan p = planner::make_plan(facts, request, budget, room, profile, &cache,
                                       planner::streamed_heads_cache(facts, request, budget, room, o.edge_cache));
  p.profile_note = planner::profile_note(profile, planner::gpu_identity(0));  // none without a GPU
  if (o.json) std::printf("%s\n", planner::to_json(p).dump().c_str());
  else std::printf("%s", planner::describe(p).c_str());
}

}  // namespace

void add_plan_command(CLI::App& app) {
  auto o = std::make_shared<PlanOptions>();
  CLI::App* cmd = app.add_subcommand(
      "plan", "Print the placement --placement auto would choose for a run, and the predicted time of each (no GPU needed)");
  add_algorithm_argument(*cmd, o->algorithm);
  o->graph.add_to(*cmd);
  cmd->add_option("--gpu-mem", o->gpu_mem, "GPU: device-memory budget, e.g. 4G (default: the profile's GPU memory)")
      ->check(SizeValidator());
  cmd->add_option("--profile", o->profile,
                  "The machine profile of tiergraph calibrate (default: $TG_PROFILE, else "
                  "~/.config/tiergraph/profile.json where it exists, else built-in H100 figures)");
  cmd->add_option("--tolerance", o->algo.tolerance, "PageRank: stop when the L1 change is below this")->capture_default_str();
  cmd->add_option("--max-iters", o->algo.max_iters, "PageRank: at most this many iterations")->capture_default_str();
  add_push_only(*cmd, o->algo.push_only);
  add_choice(*cmd, "--cc-method", o->algo.cc_method, cc_method_choices(), "CC: how components are linked");
  add_edge_cache_choice(*cmd, o->edge_cache);
  auto* gpus = cmd->add_option("--gpus", o->gpus,
                               "Plan a run over N GPUs (bfs, cc, sssp, pagerank): the partition and where each "
                               "rank's part goes (docs/DISTRIBUTED.md)")
                   ->check(CLI::Range(1, 1024));
  add_delegate_threshold(*cmd, gpus, o->delegate_threshold);
  cmd->add_flag("--json", o->json, "Print one JSON record instead of the table");
  cmd->callback([o]() { plan(*o); });
}

}  // namespace tg::cli
