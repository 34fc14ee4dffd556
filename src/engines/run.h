// Running one algorithm on one engine: the request, what comes back, and the
// entry points of the CPU engine and the GPU engine. The CLI and the library
// API call these; they pick nothing themselves.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "engines/engine.h"
#include "graph/graph.h"

namespace tg {

struct RunRequest {
  Algorithm algorithm = Algorithm::kBfs;
  uint64_t source = 0;  // internal (0-based) id
  AlgorithmOptions options;
};

struct RunOutput {
  VertexValues values;
  RunStats stats;
  std::string engine;     // "cpu" or "gpu"
  std::string placement;  // "host" for the CPU engine
};

// Where the GPU engine keeps the edge array and how its kernels read it.
struct GpuOptions {
  std::string placement = "auto";  // device, uvm, zerocopy-naive, zerocopy-merged, zerocopy-aligned, subgraph, stream, auto
  uint64_t memory_budget = 0;      // bytes of device memory the run may use; 0: free memory minus a margin
  int device = 0;
  // subgraph / stream placements (docs/SUBWAY.md):
  bool async = false;                // Subway's asynchronous mode (AlgorithmOptions::accumulative forms)
  std::string stream_mode = "pt-opt";  // stream: pt or pt-opt
  double stream_threshold = 0.8;     // subgraph: stream when active edges exceed this fraction of |E|
  std::string gather = "gpu";        // subgraph: cpu, gpu or auto (the cheaper estimate); gpu measured faster (docs/PERF.md)
};

// Fills in defaults that depend on the graph (SSSP's delta) and checks that
// the request fits the graph; throws tg::Error with a one-line message.
RunRequest prepare_request(const AnyGraph& graph, RunRequest request);

RunOutput run_on_cpu(const AnyGraph& graph, const RunRequest& request);

// False, with the reason, where no usable GPU is present (or the GPU engine
// was not built).
bool gpu_available(std::string* reason);
RunOutput run_on_gpu(const AnyGraph& graph, const RunRequest& request, const GpuOptions& options);
// Several requests on one placement of the graph: the edges are placed (copied
// or pinned) once; UVM runs each start cold. For `tiergraph bench`.
std::vector<RunOutput> run_batch_on_gpu(const AnyGraph& graph, const std::vector<RunRequest>& requests,
                                        const GpuOptions& options);

}  // namespace tg
