// tiergraph plan ALGO --graph G [--gpu-mem B] [--profile P]: the planner's
// choice of placement for a run and the predicted time of each, without
// running anything and without a GPU (planner/planner.h).
#include <cstdio>
#include <memory>

#include "cli/choices.h"
#include "cli/commands.h"
#include "cli/graph_options.h"
#include "cli/sizes.h"
#include "engines/gpu_footprint.h"
#include "planner/planner.h"

namespace tg::cli {

namespace {

struct PlanOptions {
  std::string algorithm;
  GraphOptions graph;
  AlgorithmOptions algo;
  std::string gpu_mem;
  std::string profile;
  bool json = false;
};

void plan(const PlanOptions& o) {
  const AlgorithmInfo& algorithm = algorithm_named(o.algorithm);
  const planner::MachineProfile profile = planner::find_profile(o.profile);
  RunRequest request = make_request(algorithm, {}, o.algo);
  const Need in_edges = edge_reads(request).in_edges;
  AnyGraph graph = load_graph(o.graph.graph, o.graph.load_options(in_edges >= Need::kIfPresent));
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
  const planner::Plan p = planner::make_plan(facts, request, budget, room, profile);
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
  add_choice(*cmd, "--cc-method", o->algo.cc_method, cc_method_choices(), "CC: how components are linked");
  cmd->add_flag("--json", o->json, "Print one JSON record instead of the table");
  cmd->callback([o]() { plan(*o); });
}

}  // namespace tg::cli
