// --host-mem SIZE on the CPU engine (docs/HOST-MEM.md): what of the graph
// stays in host memory, and the run that reads the rest from its .tgb file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engines/paged/resident_edges.h"
#include "engines/run.h"
#include "graph/graph.h"

namespace tg::paged {

// The page buffers: two (one processed, one read ahead), each of at least a
// page of neighbour ids (and weights beside, where read), and at most
// kLargestBufferBytes of ids and a kWindowsPerArray-th of an edge array:
// past a few MiB a larger read gains little, while each byte of the budget
// kept as resident edges instead saves a byte read on every pass.
inline constexpr int kBufferDepth = 2;
inline constexpr uint64_t kLargestBufferBytes = uint64_t{64} << 20;
inline constexpr uint64_t kWindowsPerArray = 16;

struct HostMemPlan {
  bool paged = false;         // false: the graph fits, the run reads memory
  uint64_t budget_bytes = 0;
  uint64_t offset_bytes = 0;  // kept in memory either way
  uint64_t edge_bytes = 0;    // the edge arrays the run reads
  uint64_t neighbor_buffer_bytes = 0, weight_buffer_bytes = 0;  // each of kBufferDepth
  uint64_t window_edges = 0;  // edges a buffer holds
  eid_t resident_edges = 0;   // edge ids [0, this) of each array read stay in memory once read (resident_edges.h)
  bool resident_suffix = false;  // the last resident_edges instead: the hybrid's CPU side, whose pages are the last
  bool try_direct = true;     // false: ordinary reads + fadvise even where O_DIRECT works (tests)
  uint64_t read_cost_bytes = kReadCostBytes;  // a read's own cost in bytes of transfer (edge_file.h; tests: 0)
};

// The edge arrays `reads` reads of `graph`, as its file stores them: the
// out-CSR's (an undirected graph's in-edges too), a directed graph's in-CSR
// where it has one, each with its weights where the run reads them.
std::vector<EdgeArray> edge_arrays(const AnyGraph& graph, const EdgeReads& reads);

// edge_arrays of a graph of one id width.
template <typename V>
std::vector<EdgeArray> arrays_of(const Graph<V>& graph, const EdgeReads& reads);
// The mapping's pages of `graph`'s edge arrays leave this process (an engine
// reads them from the file instead); an array built in memory loses nothing.
template <typename V>
void release_mapped_edges(const Graph<V>& graph);

// What `reads` needs of `graph` within `budget` bytes. Throws a usage error
// (one line, with the bytes needed) where even the offsets and the smallest
// buffers exceed it.
HostMemPlan plan_host_memory(const AnyGraph& graph, const EdgeReads& reads, uint64_t budget);
template <typename V>
HostMemPlan plan_host_memory(const Graph<V>& graph, const EdgeReads& reads, uint64_t budget);

// The bytes beyond the offsets at which plan_host_memory gives `graph`'s page
// buffers their largest windows (and keeps no edges resident): what the
// hybrid's GPU side leaves its paged CPU side of --host-mem.
template <typename V>
uint64_t largest_buffers_bytes(const Graph<V>& graph, const EdgeReads& reads);

// The paged CPU engine over `tgb_path` (the file `graph` was loaded from, as
// it is stored) with `plan`'s buffers, whatever the budget; tests force small
// windows through it.
RunOutput run_paged(const AnyGraph& graph, const RunRequest& request, const std::string& tgb_path,
                    const HostMemPlan& plan);
// The same for a batch, each output to sink(index, output) as it is there:
// one file, one set of buffers and one span of resident edges for all its
// runs (for what any of them reads), so the resident edges are read from the
// file once for the batch, as an in-memory graph is loaded once (bench's
// trials and warm-ups, a run per source).
void run_paged_batch(const AnyGraph& graph, const std::vector<RunRequest>& requests, const std::string& tgb_path,
                     const HostMemPlan& plan, const OutputSink& sink);

// run_on_cpu where the graph fits the budget; otherwise the paged CPU engine
// over `tgb_path`, the file `graph` was loaded from as it is stored. The
// stats carry the plan and the paging (RunStats::paging).
RunOutput run_on_cpu_with_host_mem(const AnyGraph& graph, const RunRequest& request, const std::string& tgb_path,
                                   uint64_t budget);
// The same for a batch, planned for what any of its runs reads (run_paged_batch).
void run_batch_on_cpu_with_host_mem(const AnyGraph& graph, const std::vector<RunRequest>& requests,
                                    const std::string& tgb_path, uint64_t budget, const OutputSink& sink);

}  // namespace tg::paged
