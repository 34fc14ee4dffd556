// Running an algorithm on a graph: the options, and what comes back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "tiergraph/error.h"
#include "tiergraph/graph.h"

namespace tiergraph {

struct RunOptions {
  std::string engine = "auto";      // "cpu", "gpu", "hybrid" (GPU and CPU threads on each step, docs/HYBRID.md),
                                    // or "auto": the GPU when one is usable, else the CPU
  std::string placement = "auto";   // GPU: auto, device, uvm, zerocopy-naive, zerocopy-merged, zerocopy-aligned,
                                    // subgraph, stream (docs/GPU.md); anything but auto needs a GPU
  uint64_t gpu_memory_budget = 0;   // GPU: bytes of device memory the run may use; 0: free memory minus a margin
  // GPU: "auto" keeps part of the edges in the GPU memory the budget leaves (zero-copy placements: heads and the
  // longest lists; subgraph and stream: each list's first entries where cc samples by pushes), "off" none
  // (docs/GPU.md, "The resident edge cache"); the command line's --edge-cache.
  std::string edge_cache = "auto";
  // GPU, placement "auto": the machine profile the planner reads (a file of `tiergraph calibrate`); empty:
  // $TG_PROFILE, else ~/.config/tiergraph/profile.json where it exists, else built-in figures; the command
  // line's --profile (docs/PLANNER.md). One measured on another GPU is named in the plan's "profile_note".
  std::string profile;
  int device = 0;                   // GPU: device index
  int gpus = 0;                     // several GPUs: split the graph over GPUs 0..gpus-1 (bfs, cc, pagerank, sssp; docs/DISTRIBUTED.md)
  int threads = 0;                  // CPU: OpenMP threads for this run; 0: OpenMP's default
  // In the graph's own numbering (from id_base); empty: vertex 0 if it has
  // out-edges, else the first vertex that has. One source, or several for
  // bc; none for cc and pagerank.
  std::vector<uint64_t> sources;
  double tolerance = 1e-6;  // pagerank: stop when the L1 change is below this
  int max_iters = 100;      // pagerank
  double damping = 0.85;    // pagerank
  double delta = 0;         // sssp, sswp: bucket width; 0: picked from the edge weights
  bool push_only = false;     // bfs: every level top-down (the plain BFS; the default is direction-optimizing)
  // cc: "sampled" (Afforest's sample, then only the edges outside the largest
  // component) or "sv" (Shiloach-Vishkin: hook every edge each round).
  std::string cc_method = "sampled";
  // pagerank: the type its scores travel along edges in: "auto" (float where
  // the tolerance is 1e-6 or coarser, else double), "float" or "double".
  std::string pagerank_contributions = "auto";
  bool accumulative = false;  // the order-independent forms (pagerank, ssnsp push deltas; bfs relaxes depths)
  bool async = false;         // GPU, subgraph/stream: iterate each loaded part to convergence; implies accumulative
  bool verify = false;        // check the result with the algorithm's independent verifier
  // "as-loaded", or "degree": run on a copy of the graph renumbered hubs first
  // (the per-vertex values most edges read then share cache lines; on the
  // H100's kron:25 in GPU memory PageRank 1.7x, CC 3.7x, SSSP 1.3x faster),
  // made for this run (seconds on a billion edges: the "renumber" phase);
  // sources and values stay in the graph's own numbering.
  std::string vertex_order = "as-loaded";
};

// Per-vertex values, indexed by internal id (vertex id - Graph::id_base()):
// bfs int32_t depths (-1 unreached), sssp double distances (inf unreached),
// cc uint64_t labels (internal id of the smallest vertex), pagerank double
// scores, sswp float widths, ssnsp and bc double counts and scores.
using Values = std::variant<std::vector<int32_t>, std::vector<double>, std::vector<float>, std::vector<uint64_t>>;

struct Result {
  std::string algorithm;  // the registry's name (an alias given to run() is resolved)
  std::string engine;     // "cpu" or "gpu"
  std::string placement;  // "host" on the CPU, else where the GPU kept the edges
  std::string engine_note;  // why "auto" ran on the CPU; empty otherwise
  std::vector<uint64_t> sources;  // in the graph's numbering; empty for cc and pagerank
  Values values;
  std::vector<std::pair<std::string, double>> time_s;  // seconds per phase, in order ("compute", ..., "verify", "copy out")
  uint64_t iterations = 0;
  uint64_t edges_traversed = 0;  // edges the engine read
  uint64_t bytes_moved = 0;      // GPU: across the host-GPU link
  uint64_t bytes_needed = 0;     // GPU: bytes of the edges the algorithm needed
  std::string summary;           // one line about the values, as the program's summary prints it
  // The statistics as one JSON record: the one `tiergraph run --json` prints
  // (its "command" is empty, and there is no "load" phase).
  std::string json;
  // With RunOptions::verify: the verifier's verdict and its one-line message
  // (a failure is reported here, not thrown). Without: nullopt and empty.
  std::optional<bool> verified;
  std::string verification;

  // Seconds of one phase; 0 when the run had none of that name.
  double seconds(const std::string& phase) const {
    for (const auto& [name, s] : time_s)
      if (name == phase) return s;
    return 0;
  }
};

// Runs `algorithm` (bfs, sssp, cc, pagerank, sswp, ssnsp, bc, or an alias:
// see algorithms()) on `graph`. Throws Error: kUsage for an unknown
// algorithm, engine or placement, a source out of range, options a CPU run
// cannot take; kInput for a graph unfit for the algorithm (sssp without
// weights, negative weights); kOther where "gpu" finds no usable GPU.
TIERGRAPH_API Result run(const std::string& algorithm, const Graph& graph, const RunOptions& options = {});

}  // namespace tiergraph
