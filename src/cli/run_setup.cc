#include "cli/run_setup.h"

#include <omp.h>

#include <charconv>
#include <fstream>
#include <iterator>

#include "cli/sizes.h"
#include "core/error.h"

namespace tg::cli {

void EngineOptions::add_to(CLI::App& command) {
  command.add_option("-e,--engine", engine, "cpu, gpu, or auto (the GPU when one is usable, else the CPU)")
      ->capture_default_str()
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  command.add_option("-p,--placement", placement,
                     "GPU: where the edges live: device, uvm, zerocopy-naive, zerocopy-merged, zerocopy-aligned, "
                     "subgraph (the active edges copied each iteration, Subway), stream (partitions copied each "
                     "iteration), or auto (device when the graph fits the budget, else zerocopy-aligned)")
      ->capture_default_str()
      ->check(CLI::IsMember(
          {"auto", "device", "uvm", "zerocopy-naive", "zerocopy-merged", "zerocopy-aligned", "subgraph", "stream"}));
  command.add_flag("--async", async,
                   "GPU, subgraph/stream: iterate each loaded subgraph or partition to local convergence; pagerank "
                   "and ssnsp then run in their accumulative (delta-pushing) forms");
  command.add_option("--stream-mode", stream_mode, "GPU, stream: pt (copy every partition) or pt-opt (skip, overlap, "
                                                   "keep the first partitions resident)")
      ->capture_default_str()
      ->check(CLI::IsMember({"pt", "pt-opt"}));
  command.add_option("--stream-threshold", stream_threshold,
                     "GPU, subgraph: stream the partitions when active edges exceed this fraction of all")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  command.add_option("--gather", gather,
                     "GPU, subgraph: who gathers the active lists: cpu, gpu (zero-copy; faster on the H100, "
                     "docs/PERF.md) or auto (the cheaper estimate)")
      ->capture_default_str()
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  command.add_option("--gpu-mem", gpu_mem, "GPU: device-memory budget, e.g. 4G (default: free memory minus a margin)");
  command.add_option("-t,--threads", threads, "CPU threads (default: all cores)")->check(CLI::Range(1, 4096));
  command.add_option("--device", device, "GPU: device index")->capture_default_str()->check(CLI::Range(0, 1024));
}

GpuOptions EngineOptions::gpu_options() const {
  GpuOptions g;
  g.placement = placement;
  g.device = device;
  g.async = async;
  g.stream_mode = stream_mode;
  g.stream_threshold = stream_threshold;
  g.gather = gather;
  if (!gpu_mem.empty()) {
    g.memory_budget = parse_size(gpu_mem, "--gpu-mem");
    if (g.memory_budget == 0) throw usage_error("--gpu-mem must be larger than 0");
  }
  return g;
}

void apply_threads(int threads) {
  if (threads > 0) omp_set_num_threads(threads);
}

EngineChoice choose_engine(const EngineOptions& options) {
  EngineChoice choice;
  if (options.engine == "cpu") {
    if (options.placement != "auto") throw usage_error("--placement " + options.placement + " needs --engine gpu");
    if (!options.gpu_mem.empty()) throw usage_error("--gpu-mem needs --engine gpu");
    if (options.async) throw usage_error("--async needs --engine gpu and --placement subgraph or stream");
    return choice;
  }
  options.gpu_options();  // a malformed --gpu-mem is reported before anything else
  std::string reason;
  bool usable = gpu_available(&reason);
  if (options.engine == "gpu" && !usable) throw Error("--engine gpu: no usable GPU: " + reason);
  if (!usable) {
    if (options.placement != "auto") throw Error("--placement " + options.placement + ": no usable GPU: " + reason);
    choice.note = "no usable GPU (" + reason + "), ran on the CPU";
    return choice;
  }
  choice.gpu = true;
  return choice;
}

RunOutput run_on_engine(const AnyGraph& graph, const RunRequest& request, const EngineChoice& choice,
                        const EngineOptions& options) {
  if (choice.gpu) return run_on_gpu(graph, request, options.gpu_options());
  return run_on_cpu(graph, request);
}

uint64_t resolve_source(const AnyGraph& any, const std::string& text) {
  return std::visit(
      [&](const auto& g) -> uint64_t {
        if (g.num_vertices == 0) throw input_error("the graph has no vertices, so there is no source");
        if (text.empty()) {
          for (uint64_t v = 0; v < g.num_vertices; ++v)
            if (g.out.degree(v) > 0) return v;
          return 0;
        }
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
