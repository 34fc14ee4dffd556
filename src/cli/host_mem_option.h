// --host-mem SIZE (docs/HOST-MEM.md), as `run` and `bench` take it: the
// budget, refused in one line where the edges cannot be read from the
// graph's .tgb file as it is stored.
#pragma once

#include <cstdint>
#include <string>

#include "algorithms/algorithm.h"
#include "cli/graph_options.h"

namespace tg::cli {

// The budget of `text`. Usage errors: not a size; `on_gpu` (a GPU, hybrid or
// distributed run) unless `gpu_stream` (one GPU, --placement stream, which
// reads its partitions from the file); `graph_spec` not a .tgb file;
// transforms in `graph` that would rebuild the graph in memory.
uint64_t host_mem_budget(const std::string& text, const std::string& graph_spec, const GraphOptions& graph,
                         bool on_gpu, bool gpu_stream = false);

// Whether to load `graph_spec` with its in-edges for a run whose algorithm
// reads them as `in_edges`: only as the file stores them (a directed graph
// stored without them is run without, pushing); a usage error where the
// algorithm cannot do without.
bool host_mem_in_edges(const std::string& graph_spec, const AlgorithmInfo& algorithm, Need in_edges);

}  // namespace tg::cli
