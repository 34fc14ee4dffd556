// Choices every running subcommand (run, bench) makes the same way: threads,
// engine and placement, the source vertex.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "engines/run.h"
#include "graph/graph.h"

namespace tg::cli {

struct EngineOptions {
  std::string engine = "auto";     // cpu, gpu, auto
  std::string placement = "auto";  // GPU: device, uvm, zerocopy-*, subgraph, stream, auto
  std::string gpu_mem;             // budget, e.g. "4G"; empty: free memory minus a margin
  int threads = 0;                 // CPU threads; 0: all cores
  int device = 0;
  bool async = false;                  // subgraph / stream: Subway's asynchronous mode
  std::string stream_mode = "pt-opt";  // stream: pt or pt-opt
  double stream_threshold = 0.8;       // subgraph: stream above this active-edge fraction
  std::string gather = "gpu";          // subgraph: cpu, gpu, auto

  void add_to(CLI::App& command);
  GpuOptions gpu_options() const;
};

struct EngineChoice {
  bool gpu = false;
  std::string note;  // why, when auto fell back to the CPU
};

void apply_threads(int threads);
// "gpu" where none is usable is an error; "auto" falls back to the CPU.
EngineChoice choose_engine(const EngineOptions& options);
RunOutput run_on_engine(const AnyGraph& graph, const RunRequest& request, const EngineChoice& choice,
                        const EngineOptions& options);

// The internal id of --source (given in the file's numbering), or the default:
// vertex 0 when it has out-edges, else the first vertex that has.
uint64_t resolve_source(const AnyGraph& graph, const std::string& source_text);

std::string command_line_of_current_process();

}  // namespace tg::cli
