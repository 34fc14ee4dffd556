// tiergraph run ALGO --graph G: load, run on the chosen engine, optionally
// verify and write per-vertex results, then report.
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "algorithms/verifier.h"
#include "cli/choices.h"
#include "cli/commands.h"
#include "cli/distributed_run.h"
#include "cli/graph_options.h"
#include "cli/host_mem_option.h"
#include "cli/report.h"
#include "cli/result_file.h"
#include "cli/run_setup.h"
#include "checkpoint/checkpoint.h"
#include "core/error.h"
#include "distributed/multi_gpu_checks.h"
#include "engines/paged/host_mem.h"
#include "engines/vertex_order.h"

namespace tg::cli {

namespace {

struct RunCommandOptions {
  std::string algorithm;
  GraphOptions graph;
  EngineOptions engine;
  SourceOptions sources;
  AlgorithmOptions algo;
  std::string output;
  bool json = false;
  bool verify = false;
  bool distributed = false;
  std::string checkpoint;  // folder to save into
  std::string resume;      // folder to resume from (and go on saving into)
  int checkpoint_every = 10;
  std::string host_mem;  // --host-mem SIZE: graph bytes kept in host memory
  VertexOrder vertex_order = VertexOrder::kAsLoaded;
};

// --host-mem: the budget, if given (cli/host_mem_option.h).
std::optional<uint64_t> host_mem_budget(const RunCommandOptions& o, const ChosenEngine& choice) {
  if (o.host_mem.empty()) return std::nullopt;
  const EngineChoice asked = o.engine.engine;
  const bool on_gpu = choice.gpu || o.distributed || asked == EngineChoice::kGpu || asked == EngineChoice::kHybrid;
  // One GPU's stream placement reads its partitions from the file too (on
  // the GPU engine, or as the hybrid engine's accelerator beside a paged CPU
  // side); --placement auto takes it there (run()).
  const Placement placement = o.engine.gpu.placement;
  const bool gpu_stream = asked != EngineChoice::kCpu && !o.distributed && o.engine.gpu.gpus == 0 &&
                          (placement == Placement::kStream || placement == Placement::kAuto);
  return host_mem_budget(o.host_mem, o.graph.graph, o.graph, on_gpu, gpu_stream);
}

// --checkpoint / --resume: the checkpointer for this run, or null. The
// algorithms whose descriptor names its key's options (checkpoint_options)
// on the CPU, GPU and hybrid engines (checkpoint/checkpoint.h); the rest is
// refused in one line rather than run without the checkpoints asked for.
std::unique_ptr<Checkpointer> make_checkpointer(const RunCommandOptions& o, const AnyGraph& graph,
                                                const RunRequest& request) {
  if (o.checkpoint.empty() && o.resume.empty()) return nullptr;
  if (!o.checkpoint.empty() && !o.resume.empty() && o.checkpoint != o.resume)
    throw usage_error("--checkpoint " + o.checkpoint + " and --resume " + o.resume +
                      ": a resumed run goes on saving where it resumes from; give one folder");
  const AlgorithmInfo& algorithm = *request.algorithm;
  if (algorithm.checkpoint_options == nullptr) {
    std::string able;
    for (const AlgorithmInfo* a : all_algorithms())
      if (a->checkpoint_options != nullptr) able += (able.empty() ? "" : ", ") + a->name();
    throw usage_error("--checkpoint/--resume: " + algorithm.name() + " cannot checkpoint yet (" + able + " can)");
  }
  if (o.distributed || o.engine.gpu.gpus > 0)
    throw usage_error("--checkpoint/--resume: runs over several GPUs do not checkpoint yet (one GPU, the hybrid or the CPU engine do)");
  // What changes the result: a checkpoint made with other values is refused.
  const std::string options = algorithm.checkpoint_options(request.options, request.sources);
  const std::string& dir = o.resume.empty() ? o.checkpoint : o.resume;
  auto checkpointer = std::make_unique<Checkpointer>(
      dir, o.checkpoint_every, !o.resume.empty(), checkpoint_key(graph, algorithm.name(), options, algorithm.needs_weights()));
  checkpointer->lock_folder();
  // A run killed before its first checkpoint resumes from the beginning; so does a mistyped folder, which
  // would lose a long run's progress without a word.
  if (!o.resume.empty() && !std::filesystem::exists(checkpointer->path()) && !o.graph.quiet)
    std::fprintf(stderr, "note: --resume %s: no checkpoint there yet, starting from the beginning\n", dir.c_str());
  return checkpointer;
}


void run(const RunCommandOptions& o, const std::string& command_line) {
  const AlgorithmInfo& algorithm = algorithm_named(o.algorithm);
  apply_threads(o.engine.threads);
  if (o.distributed && o.engine.engine == EngineChoice::kCpu) throw usage_error("--distributed needs --engine gpu (or auto)");
  if (o.distributed) prepare_rank_process(o.engine.threads);
  // --host-mem is checked first: --engine gpu without a GPU is its refusal, not "no GPU".
  std::optional<uint64_t> host_mem = host_mem_budget(o, ChosenEngine{});
  RunRequest request = make_request(algorithm, {}, o.algo);
  // What --gpus cannot do is a usage error before "no usable GPU" (cc on a
  // directed graph is known only once the graph is loaded).
  if (o.engine.gpu.gpus > 0 && o.engine.engine != EngineChoice::kCpu)
    dist::check_multi_gpu_run({request}, o.engine.gpu_options(), false);
  ChosenEngine choice = o.distributed ? ChosenEngine{true, ""} : choose_engine(o.engine);
  if (host_mem) host_mem = host_mem_budget(o, choice);
  check_vertex_order(o.vertex_order, o.distributed, host_mem.has_value(), !o.checkpoint.empty() || !o.resume.empty());

  request.options.accumulative = request.options.accumulative || o.engine.gpu.async;
  auto t0 = std::chrono::steady_clock::now();
  // A directed graph gets its CSC where the algorithm pulls or gathers;
  // with --host-mem only as the file stores it (host_mem_in_edges).
  const Need in_edges = edge_reads(request).in_edges;
  const bool load_in_edges = host_mem ? host_mem_in_edges(o.graph.graph, algorithm, in_edges) : in_edges >= Need::kIfPresent;
  LoadOptions load = o.graph.load_options(load_in_edges);
  // The paged engine reads the edges from the file itself. Each rank of a
  // --distributed run maps a .tgb too: its partition touches the offsets, the
  // delegates' lists and only its own normal vertices' lists, and the ranks of
  // one host share the file's pages in the page cache instead of a private
  // copy each (kron:23, 4 ranks: a rank's private memory 350 MB, not 1.4 GB;
  // kron:30 read privately by 4 ranks of one host would need 1.1 TB).
  load.map_tgb = host_mem.has_value() || o.distributed;
  AnyGraph graph = load_graph(o.graph.graph, load);
  double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  request.sources = o.sources.resolve(graph, algorithm);
  request = prepare_request(graph, request);
  const std::unique_ptr<Checkpointer> checkpointer = make_checkpointer(o, graph, request);
  request.options.checkpoint = checkpointer.get();

  // --vertex-order: the run on a renumbered copy, its output back in the graph's ids (engines/vertex_order.h).
  std::optional<Renumbering> renumbered;
  if (o.vertex_order != VertexOrder::kAsLoaded)
    renumbered = renumber(graph, o.vertex_order);

  RunReport report;
  report.command_line = command_line;
  report.algorithm = &algorithm;
  report.sources = request.sources;
  report.engine_note = choice.note;
  if (o.distributed) {
    DistributedRun run = run_distributed(graph, request, o.engine.gpu_options());
    if (run.rank != 0) {
      finish_distributed();
      return;  // rank 0 reports for all
    }
    report.output = std::move(run.output);
  } else if (host_mem && !choice.gpu) {
    report.output = paged::run_on_cpu_with_host_mem(graph, request, o.graph.graph, *host_mem);
  } else {
    EngineOptions engine = o.engine;
    if (host_mem) {  // the stream placement's partitions from the file (docs/HOST-MEM.md)
      // The one GPU placement that reads the file: what auto means here.
      if (engine.gpu.placement == Placement::kAuto) engine.gpu.placement = Placement::kStream;
      engine.gpu.edge_file = o.graph.graph;
      engine.gpu.host_mem_budget = *host_mem;
    }
    auto run_here = [&](const AnyGraph& g, const RunRequest& r) { return run_on_engine(g, r, choice, engine); };
    report.output = renumbered ? run_renumbered(*renumbered, request, run_here) : run_here(graph, request);
  }
  auto& phases = report.output.stats.phases_s;
  if (renumbered) phases.insert(phases.begin(), {"renumber", renumbered->seconds});
  renumbered.reset();  // its graph's memory, before the verifier's
  phases.insert(phases.begin(), {"load", load_s});

  if (o.verify) {
    auto t1 = std::chrono::steady_clock::now();
    report.verification = tg::verify(algorithm, graph, request.sources, report.output.values, request.options);
    report.output.stats.add_phase("verify", std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count());
  }
  if (!o.output.empty())
    write_results(o.output, algorithm, report.output.values, std::visit([](const auto& g) { return g.id_base; }, graph));

  if (o.json) std::printf("%s\n", to_json(graph, report).dump().c_str());
  else print_summary(stdout, graph, report);
  std::fflush(stdout);
  if (report.verification && !report.verification->ok) throw verification_error("verification failed: " + report.verification->message);
  if (o.distributed) finish_distributed();
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunCommandOptions>();
  CLI::App* cmd = app.add_subcommand("run", "Run one algorithm on a graph and report what it took");
  add_algorithm_argument(*cmd, o->algorithm);
  o->graph.add_to(*cmd);
  o->engine.add_to(*cmd);
  o->sources.add_to(*cmd, true);
  cmd->add_option("--tolerance", o->algo.tolerance, "PageRank: stop when the L1 change is below this")->capture_default_str();
  cmd->add_option("--max-iters", o->algo.max_iters, "PageRank: at most this many iterations")->capture_default_str();
  cmd->add_option("--damping", o->algo.damping, "PageRank damping factor")->capture_default_str();
  cmd->add_flag("--accumulative", o->algo.accumulative,
                "Run the order-independent forms: pagerank and ssnsp push deltas, bfs relaxes depths (--async "
                "implies it)");
  cmd->add_option("--delta", o->algo.delta,
                  "SSSP and SSWP: bucket width (0 or default: from the edge weights: their mean on the GPU, a quarter "
                  "of it for SSSP on the subgraph placement, half the mean over the average degree on the CPU)");
  add_push_only(*cmd, o->algo.push_only);
  add_choice(*cmd, "--cc-method", o->algo.cc_method, cc_method_choices(), "CC: how components are linked");
  add_choice(*cmd, "--pr-contributions", o->algo.contributions, contributions_choices(),
             "PageRank: the type the pull form sends scores along edges in");
  cmd->add_option("--checkpoint", o->checkpoint,
                  "Save the run's state into FOLDER every --checkpoint-every iterations (CPU, GPU and hybrid engines; docs/CHECKPOINTS.md)");
  cmd->add_option("--checkpoint-every", o->checkpoint_every, "Iterations between checkpoints")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 30));
  cmd->add_option("--resume", o->resume,
                  "Continue a killed run from FOLDER's last checkpoint (and go on saving there); the results equal "
                  "an uninterrupted run's");
  cmd->add_option("--host-mem", o->host_mem,
                  "CPU engine, or one GPU's --placement stream (auto takes it); .tgb input: keep at most SIZE bytes "
                  "of the graph in host memory (e.g. 512M); edges that do not fit are read from the file in pages "
                  "(docs/HOST-MEM.md)")
      ->check(SizeValidator());
  add_vertex_order(*cmd, o->vertex_order);
  cmd->add_option("-o,--output", o->output, "Write per-vertex results to FILE, one '<id> <value>' line per vertex");
  cmd->add_flag("--json", o->json, "Print one JSON record instead of the summary");
  cmd->add_flag("--verify", o->verify, "Check the result with the algorithm's independent verifier");
  cmd->add_flag("--distributed", o->distributed,
                "Run as one rank of `mpirun -np N tiergraph run ...`: a process per GPU, each building only its part "
                "of the graph (bfs, cc, pagerank, sssp; docs/DISTRIBUTED.md)");
  cmd->callback([o]() { run(*o, command_line_of_current_process()); });
}

}  // namespace tg::cli
