#include "cli/run_setup.h"

#include <omp.h>

#include <charconv>
#include <fstream>
#include <iterator>

#include "cli/choices.h"
#include "cli/sizes.h"
#include "core/error.h"
#include "core/types.h"
#include "graph/source_picker.h"

namespace tg::cli {

void EngineOptions::add_to(CLI::App& command) {
  add_choice(command, "-e,--engine", engine, engine_choices(), "Which engine runs the algorithm");
  add_choice(command, "-p,--placement", gpu.placement, placement_choices(), "GPU: where the edges live");
  command.add_flag("--async", gpu.async,
                   "GPU, subgraph/stream: iterate each loaded subgraph or partition to local convergence; pagerank "
                   "and ssnsp then run in their accumulative (delta-pushing) forms");
  add_choice(command, "--stream-mode", gpu.stream_mode, stream_mode_choices(), "GPU, stream: how partitions travel");
  command
      .add_option("--stream-threshold", gpu.stream_threshold,
                  "GPU, subgraph: stream the partitions when active edges exceed this fraction of all")
      ->capture_default_str()
      ->check(FractionValidator());
  add_choice(command, "--gather", gpu.gather, gather_way_choices(), "GPU, subgraph: who gathers the active lists");
  command.add_option("--gpu-mem", gpu_mem, "GPU: device-memory budget, e.g. 4G (default: free memory minus a margin)")
      ->check(SizeValidator());
  add_edge_cache_choice(command, gpu.edge_cache);
  add_packed_lists_choice(command, gpu.packed_lists);
  add_source_blocks(command, gpu.source_blocks);
  add_gather_layout_choice(command, gpu.gather_layout);
  command.add_option("-t,--threads", threads, "CPU threads (default: all cores)")->check(CLI::Range(1, kMaxThreads));
  command
      .add_option_function<double>(
          "--cpu-share", [this](const double& share) { hybrid.cpu_share = share; },
          "hybrid: the CPU threads' fixed share of each gather's work, 0 to 1 (default: the cost model's, corrected "
          "after every gather)")
      ->check(FractionValidator());
  command.add_option("--profile", gpu.profile,
                     "GPU, --placement auto: the machine profile of tiergraph calibrate (default: $TG_PROFILE, else "
                     "~/.config/tiergraph/profile.json where it exists, else built-in H100 figures)");
  command.add_option("--device", gpu.device, "GPU: device index")->capture_default_str()->check(CLI::Range(0, 1024));
  auto* gpus = command
      .add_option("--gpus", gpu.gpus,
                  "Several GPUs: split the graph over GPUs 0..N-1 by degree separation (Pan et al.) and run across "
                  "them with NCCL; bfs, cc (undirected), pagerank and sssp. N > 1 runs with OpenMP's workers passive "
                  "unless OMP_WAIT_POLICY is set (docs/DISTRIBUTED.md)")
      ->check(CLI::Range(1, 1024));
  add_delegate_threshold(command, gpus, gpu.delegate_threshold);
}

void add_push_only(CLI::App& command, bool& push_only) {
  command.add_flag("--push-only", push_only,
                   "BFS: every level top-down, never bottom-up (the plain BFS; the default is direction-optimizing)");
}

void add_source_blocks(CLI::App& command, int& blocks) {
  command
      .add_option("--source-blocks", blocks,
                  "GPU, device: dense gathers (pagerank) in this many passes, one per range of source vertices, so "
                  "that a range's values stay in the L2 (a second copy of the in-edges); 0 auto (none where 3/4 of the "
                  "entries read the first range's sources, as hubs first), 1 off")
      ->capture_default_str()
      ->check(CLI::Range(0, 32));
}

void add_delegate_threshold(CLI::App& command, CLI::Option* gpus, std::optional<uint64_t>& threshold) {
  command
      .add_option_function<uint64_t>(
          "--delegate-threshold", [&threshold](const uint64_t& th) { threshold = th; },
          "--gpus: vertices of out-degree above this are delegates, on every GPU (default: the paper's rule, 64 at "
          "scale 30, x sqrt(2) per scale; for BFS alone, that times the GPUs, times twice the GPUs with --push-only)")
      ->check(WholeNumberValidator())
      ->needs(gpus);
}

void add_vertex_order(CLI::App& command, VertexOrder& order) {
  add_choice(command, "--vertex-order", order, vertex_order_choices(),
             "Run on the graph renumbered this way (once, in memory, timed as the renumber phase; a second copy of "
             "the graph in host memory); sources and results stay in the file's ids");
}

void check_vertex_order(VertexOrder order, bool distributed, bool host_mem, bool checkpoints) {
  if (order == VertexOrder::kAsLoaded) return;
  if (distributed)
    throw usage_error("--vertex-order: the ranks of --distributed read their parts of the file as numbered");
  if (host_mem) throw usage_error("--vertex-order: --host-mem reads the file's lists in place; renumber it once with "
                                  "`tiergraph convert IN OUT.tgb --vertex-order degree`");
  if (checkpoints) throw usage_error("--vertex-order: checkpoints of renumbered runs are not supported");
}

GpuOptions EngineOptions::gpu_options() const {
  GpuOptions g = gpu;
  if (!gpu_mem.empty()) g.memory_budget = parse_size(gpu_mem, "--gpu-mem");
  return g;
}

void apply_threads(int threads) {
  if (threads > 0) omp_set_num_threads(threads);
}

ChosenEngine choose_engine(const EngineOptions& options) {
  if (options.hybrid.cpu_share && options.engine != EngineChoice::kHybrid)
    throw usage_error("--cpu-share needs --engine hybrid");
  return tg::choose_engine(options.engine, options.gpu_options());
}

RunOutput run_on_engine(const AnyGraph& graph, const RunRequest& request, const ChosenEngine& choice,
                        const EngineOptions& options) {
  return tg::run_on_engine(graph, request, choice, options.gpu_options(), options.hybrid);
}

void SourceOptions::add_to(CLI::App& command, bool with_count) {
  auto* one = command.add_option(
      "-s,--source", source,
      "Source vertex, as numbered in the file (default: vertex 0 if it has out-edges, else the first that has)");
  if (!with_count) return;
  auto* many = command.add_option("--sources", count,
                                  "bc: sum over this many random sources with out-edges, picked as bench picks them")
                   ->check(CLI::Range(1, 1 << 20));
  one->excludes(many);
  command.add_option("--source-seed", seed, "Seed for picking --sources")->capture_default_str()->check(WholeNumberValidator());
}

Sources SourceOptions::resolve(const AnyGraph& graph, const AlgorithmInfo& algorithm) const {
  if (!algorithm.needs_source()) {
    if (!source.empty() || count > 0) throw usage_error(algorithm.name() + " takes no source");
    return {};
  }
  if (count > 0) {
    if (algorithm.traits.sources != SourceUse::kMany && count > 1)
      throw usage_error("--sources " + std::to_string(count) + ": " + algorithm.name() + " takes one source");
    if (num_vertices(graph) == 0) throw input_error("the graph has no vertices, so there is no source");
    return pick_sources(graph, count, seed);
  }
  return {resolve_source(graph, source)};
}

uint64_t resolve_source(const AnyGraph& any, const std::string& text) {
  return std::visit(
      [&](const auto& g) -> uint64_t {
        if (g.num_vertices == 0) throw input_error("the graph has no vertices, so there is no source");
        if (text.empty()) return default_source(any);
        uint64_t id = 0;
        auto r = std::from_chars(text.data(), text.data() + text.size(), id);
        if (r.ec != std::errc() || r.ptr != text.data() + text.size())
          throw usage_error("--source: '" + text + "' is not a vertex id");
        uint64_t first = static_cast<uint64_t>(g.id_base), last = g.num_vertices - 1 + g.id_base;
        if (id < first || id > last)
          throw usage_error("--source " + text + " is out of range: vertex ids of this graph are " + std::to_string(first) +
                            ".." + std::to_string(last));
        return id - first;
      },
      any);
}

std::string command_line_of_current_process() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (char& c : raw)
    if (c == '\0') c = ' ';
  while (!raw.empty() && raw.back() == ' ') raw.pop_back();
  return raw;
}

}  // namespace tg::cli
