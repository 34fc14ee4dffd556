// tiergraph bench: the options and --help, and the wiring of the runner
// (bench_runner), the per-cell means (bench_summary), the files and table
// (bench_writers) and the charts (bench_chart).
#include <algorithm>
#include <memory>

#include "cli/bench_chart.h"
#include "cli/bench_placements.h"
#include "cli/bench_runner.h"
#include "cli/bench_summary.h"
#include "cli/bench_writers.h"
#include "cli/distributed_run.h"
#include "cli/choices.h"
#include "cli/commands.h"
#include "cli/graph_options.h"
#include "cli/host_mem_option.h"
#include "cli/output_path.h"
#include "cli/run_setup.h"
#include "cli/sizes.h"
#include "core/error.h"
#include "core/types.h"
#include "formats/input_file.h"
#include "generators/generators.h"

namespace tg::cli {

namespace {

std::vector<std::string> all_algorithm_names() {
  std::vector<std::string> names;
  for (const AlgorithmInfo* a : all_algorithms()) names.push_back(a->name());
  return names;
}

struct BenchOptions {
  std::vector<std::string> graphs;
  GraphOptions graph;  // transforms applied to every graph (--weights, --ids64, ...)
  std::vector<std::string> algorithms = all_algorithm_names();
  std::vector<std::string> placements = default_bench_placements();
  std::string baseline;  // default: default_baseline()
  int random_sources = 4;
  std::vector<uint64_t> sources;  // --sources LIST, the file's numbering
  int trials = 1;
  int warmup = 0;
  uint64_t source_seed = kDefaultSourceSeed;
  VerifyMode verify = VerifyMode::kAll;
  std::string gpu_mem;
  EdgeCacheMode edge_cache = EdgeCacheMode::kAuto;
  PackedListsMode packed_lists = PackedListsMode::kAuto;
  int source_blocks = GpuOptions{}.source_blocks;
  GatherLayout gather_layout = GatherLayout::kLists;
  double stream_threshold = GpuOptions{}.stream_threshold;
  int device = 0;
  int gpus = 0;
  std::optional<uint64_t> delegate_threshold;  // --gpus: TH (default: the paper's rule)
  int threads = 0;
  AlgorithmOptions algo;
  std::string host_mem;  // --host-mem SIZE
  VertexOrder vertex_order = VertexOrder::kAsLoaded;
  std::string profile;   // --profile: the planner's machine profile (auto)
  std::string output = "bench";
  bool no_chart = false;
  bool distributed = false;
};

template <typename T>
void add_once(std::vector<T>& list, T item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

// What would fail only after every cell ran, and lose their results: a
// graph file that is missing, a generator spec that does not parse, an
// output prefix in no folder or naming one.
void check_before_running(const std::vector<std::string>& graphs, const GraphOptions& options,
                          const std::string& output) {
  for (const std::string& g : graphs) {
    if (is_generator_spec(g)) parse_generator_spec(g, options.edge_factor, options.seed);
    else formats::check_input_file(g, "a graph file");
  }
  check_output_path(output, "-o", "a file name prefix (bench writes PREFIX.csv and PREFIX.json)");
}

void bench(const BenchOptions& o, const std::string& command_line) {
  BenchPlan plan;
  plan.graphs = o.graphs;
  if (!o.graph.graph.empty()) plan.graphs.insert(plan.graphs.begin(), o.graph.graph);
  if (plan.graphs.empty()) throw usage_error("bench: name at least one graph (PATH, kron:SCALE or urand:SCALE)");
  plan.graph = o.graph;
  // The names were checked by CLI11 against the same tables.
  for (const std::string& a : o.algorithms) add_once(plan.algorithms, &algorithm_named(a));
  for (const std::string& p : o.placements) add_once(plan.placements, find_bench_placement(p));
  plan.sources = {o.sources, o.random_sources, o.source_seed};
  plan.verify = o.verify;
  plan.trials = o.trials;
  plan.warmup = o.warmup;
  plan.gpu.device = o.device;
  plan.gpu.profile = o.profile;
  plan.gpu.gpus = o.gpus;
  plan.gpu.delegate_threshold = o.delegate_threshold;
  if (!o.gpu_mem.empty()) plan.gpu.memory_budget = parse_size(o.gpu_mem, "--gpu-mem");
  plan.gpu.stream_threshold = o.stream_threshold;
  plan.gpu.edge_cache = o.edge_cache;
  plan.gpu.packed_lists = o.packed_lists;
  plan.gpu.source_blocks = o.source_blocks;
  plan.gpu.gather_layout = o.gather_layout;
  plan.algorithm_options = o.algo;
  plan.distributed = o.distributed;
  if (o.distributed) {
    check_distributed_options(plan.gpu);
    for (const BenchPlacement* p : plan.placements)
      if (p->engine != EngineKind::kGpu)
        throw usage_error("bench --distributed: placement " + p->name + " is not a GPU placement (mpirun's processes drive a GPU each)");
    prepare_rank_process(o.threads);
  }
  if (!o.host_mem.empty()) {
    const bool on_gpu = std::any_of(plan.placements.begin(), plan.placements.end(),
                                    [](const BenchPlacement* p) { return p->engine != EngineKind::kCpu; });
    // Every GPU placement one GPU's stream placement: they read the file too.
    const bool gpu_stream = !o.distributed && o.gpus == 0 &&
                            std::all_of(plan.placements.begin(), plan.placements.end(),
                                        [](const BenchPlacement* p) { return p->reads_file(); });
    for (const std::string& g : plan.graphs) plan.host_mem = host_mem_budget(o.host_mem, g, o.graph, on_gpu, gpu_stream);
  }
  plan.vertex_order = o.vertex_order;
  check_vertex_order(o.vertex_order, o.distributed, plan.host_mem.has_value(), false);
  const BenchPlacement* baseline =
      o.baseline.empty() ? default_baseline(plan.placements) : find_bench_placement(o.baseline);
  if (std::find(plan.placements.begin(), plan.placements.end(), baseline) == plan.placements.end())
    throw usage_error("--baseline " + o.baseline + " is not among the placements run (-p)");
  check_before_running(plan.graphs, o.graph, o.output);
  apply_threads(o.threads);

  const bool reports = !o.distributed || distributed_rank() == 0;  // rank 0 reports for all
  auto write_files = [&](const BenchResult& result, const BenchSummary& summary, bool complete) {
    write_bench_csv(o.output + ".csv", result);
    write_bench_json(o.output + ".json", plan, result, summary, command_line, complete);
  };
  // The files so far after each placement: an hour of cells is not lost to a
  // Ctrl-C or a later graph's failure (each write replaces the last by a rename).
  const BenchResult result = run_bench(plan, stderr, [&](const BenchResult& so_far) {
    if (reports) write_files(so_far, summarize(so_far.rows, baseline), false);
  });
  if (!reports) {
    finish_distributed();
    return;
  }
  const BenchSummary summary = summarize(result.rows, baseline);
  write_files(result, summary, true);
  print_bench_table(stdout, summary);
  print_plan_checks(stdout, summary);
  std::printf("wrote %s.csv, %s.json (speedup over %s; GTEPS: harmonic mean of the runs', as Graph500; GB/s: bytes of edges needed / compute time)\n",
              o.output.c_str(), o.output.c_str(), placement_name(baseline).c_str());
  std::fflush(stdout);
  if (!o.no_chart) std::fprintf(stderr, "bench: %s\n", draw_bench_charts(o.output + ".json", o.output).c_str());
  if (summary.verification_failed())
    throw verification_error("bench: some results failed verification (see " + o.output + ".csv)");
  if (o.distributed) finish_distributed();
}

std::string algorithms_help() {
  std::string help = "Comma-separated algorithms (default: all):";
  for (const AlgorithmInfo* a : all_algorithms()) help += "\n  " + a->name() + ": " + std::string(a->traits.summary);
  return help;
}

std::string placements_help() {
  std::string defaults;
  for (const std::string& p : default_bench_placements()) defaults += (defaults.empty() ? "" : ", ") + p;
  std::string help = "Comma-separated placements (default: " + defaults + "):";
  for (const BenchPlacement& p : bench_placements()) help += "\n  " + p.name + ": " + p.help;
  return help;
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "Run algorithms x graphs x placements (x sources), verify each, write CSV and JSON, draw the charts");
  cmd->add_option("graphs", o->graphs, "Graphs: files or generator specs (kron:SCALE, urand:SCALE)");
  o->graph.add_to(*cmd, GraphOptions::GraphFlag::kOptional);
  cmd->add_option("-a,--algorithms", o->algorithms, algorithms_help())
      ->delimiter(',')
      ->check(CLI::IsMember(algorithm_names_and_aliases()));
  cmd->add_option("-p,--placements", o->placements, placements_help())
      ->delimiter(',')
      ->check(CLI::IsMember(bench_placement_names()));
  cmd->add_option("--baseline", o->baseline,
                  "Placement the speedups are measured against (default: uvm if run, else the first)")
      ->check(CLI::IsMember(bench_placement_names()));
  auto* random = cmd->add_option("-n,--random-sources", o->random_sources,
                                 "Random sources (with out-edges, seeded) per source-based algorithm; EMOGI used 64")
                     ->check(CLI::Range(1, 1 << 20))
                     ->capture_default_str();
  auto* fixed = cmd->add_option("--sources", o->sources,
                                "Comma-separated source vertices (the file's numbering) for every source-based "
                                "algorithm, instead of random ones: to compare with another tool's runs")
                    ->delimiter(',')
                    ->check(WholeNumberValidator("a vertex id"));
  random->excludes(fixed);
  cmd->add_option("--source-seed", o->source_seed, "Seed for picking the random sources")
      ->capture_default_str()
      ->check(WholeNumberValidator());
  cmd->add_option("--trials", o->trials,
                  "Runs of each algorithm from each source, one after the other in this process; the cell means "
                  "take them all (GAP's -n)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--warmup", o->warmup,
                  "Untimed runs of each algorithm on each placement before its timed ones (from the first source, "
                  "on the same placed graph), left out of the rows: a placement's first run pays one-time costs "
                  "(default 0: every run counted, as GAP's -n)")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  add_choice(*cmd, "--verify", o->verify, verify_mode_choices(), "Which runs the independent verifiers check");
  cmd->add_option("--gpu-mem", o->gpu_mem, "GPU: device-memory budget for every placement, e.g. 1G")
      ->check(SizeValidator());
  add_edge_cache_choice(*cmd, o->edge_cache);
  add_packed_lists_choice(*cmd, o->packed_lists);
  add_source_blocks(*cmd, o->source_blocks);
  add_gather_layout_choice(*cmd, o->gather_layout);
  cmd->add_option("--stream-threshold", o->stream_threshold,
                  "GPU, subgraph placements: stream the partitions when active edges exceed this fraction of all")
      ->check(FractionValidator())
      ->capture_default_str();
  cmd->add_option("--profile", o->profile,
                  "auto: the machine profile the planner reads (tiergraph calibrate; default: $TG_PROFILE, else "
                  "~/.config/tiergraph/profile.json where it exists, else built-in H100 figures)");
  cmd->add_option("--device", o->device, "GPU: device index")->capture_default_str()->check(CLI::Range(0, 1024));
  auto* gpus = cmd->add_option("--gpus", o->gpus,
                               "GPU placements run over GPUs 0..N-1, the graph split by degree separation (device "
                               "and zero-copy placements; bfs, cc, pagerank, sssp; N > 1 runs with OpenMP's workers "
                               "passive unless OMP_WAIT_POLICY is set; docs/DISTRIBUTED.md)")
                   ->check(CLI::Range(1, 1024));
  add_delegate_threshold(*cmd, gpus, o->delegate_threshold);
  cmd->add_flag("--distributed", o->distributed,
                "Run as one rank of `mpirun -np N tiergraph bench ...` (GPU placements; a process per GPU, each "
                "building only its part of each graph; rank 0 writes the results; docs/DISTRIBUTED.md)")
      ->excludes(gpus);
  cmd->add_option("-t,--threads", o->threads, "CPU threads (default: all cores)")->check(CLI::Range(1, kMaxThreads));
  cmd->add_option("--tolerance", o->algo.tolerance, "PageRank tolerance")->capture_default_str();
  cmd->add_option("--max-iters", o->algo.max_iters, "PageRank: at most this many iterations")->capture_default_str();
  cmd->add_option("--delta", o->algo.delta, "SSSP and SSWP: bucket width (0 or default: from the edge weights)");
  add_push_only(*cmd, o->algo.push_only);
  add_choice(*cmd, "--cc-method", o->algo.cc_method, cc_method_choices(), "CC: how components are linked");
  add_choice(*cmd, "--pr-contributions", o->algo.contributions, contributions_choices(),
             "PageRank: the type the pull form sends scores along edges in");
  add_vertex_order(*cmd, o->vertex_order);
  cmd->add_option("--host-mem", o->host_mem,
                  "cpu and stream placements (hybrid-stream too), .tgb graphs: keep at most SIZE bytes of each graph "
                  "in host memory, reading the edges that do not fit from the file in pages (docs/HOST-MEM.md)")
      ->check(SizeValidator());
  cmd->add_option("-o,--output", o->output,
                  "Prefix of the files written: PREFIX.csv, PREFIX.json (rewritten after each placement, so a bench "
                  "cut short keeps its finished cells; the JSON's \"complete\" is true once all ran), PREFIX.png, "
                  "PREFIX.svg")
      ->capture_default_str();
  cmd->add_flag("--no-chart", o->no_chart,
                "Do not run scripts/bench-chart.py (PREFIX.png, PREFIX.svg) at the end");
  cmd->callback([o]() { bench(*o, command_line_of_current_process()); });
}

}  // namespace tg::cli
