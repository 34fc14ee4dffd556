// What a paged CPU engine (paged_engine.h) reads through, for one graph and
// host-memory plan: the .tgb file, the page buffers and the resident edges.
// The CPU engine's --host-mem run (host_mem.cc) makes its engine from one;
// the hybrid engine's CPU side (engines/hybrid/) holds one beside the GPU's.
#pragma once

#include <string>

#include "core/error.h"
#include "engines/paged/edge_file.h"
#include "engines/paged/host_mem.h"
#include "engines/paged/page_stream.h"
#include "engines/paged/paged_engine.h"
#include "engines/paged/resident_edges.h"
#include "formats/binary_format.h"

namespace tg::paged {

template <typename V>
class PagedSide {
 public:
  // `graph` was loaded from `tgb_path` as the file stores it; its mapped edge
  // pages are released (the engine reads them from the file). `budget`: what
  // the engine's stats report of the budget; the buffers and resident edges
  // are added to its resident bytes. Throws a usage error naming `algorithm`
  // where the file lacks the in-edges the graph has.
  PagedSide(const Graph<V>& graph, const EdgeReads& reads, const std::string& algorithm, const std::string& tgb_path,
            const HostMemPlan& plan, PagingStats budget)
      : graph_(graph),
        file_(tgb_path, graph.num_vertices, graph.num_edges(), sizeof(V), plan.try_direct, plan.read_cost_bytes),
        buffers_(kBufferDepth, plan.neighbor_buffer_bytes, plan.weight_buffer_bytes),
        resident_(arrays_of(graph, reads), plan.resident_suffix ? graph.num_edges() - plan.resident_edges : 0,
                  plan.resident_edges),
        window_edges_(plan.window_edges),
        budget_(budget) {
    if (graph.directed && graph.in.built() && !file_.has_section(formats::kInOffsets))
      throw usage_error("--host-mem: " + tgb_path + " stores no in-edges, which " + algorithm +
                        " reads; convert it with --in-edges");
    release_mapped_edges(graph);
    budget_.resident_bytes += buffers_.total_bytes() + resident_.memory_bytes();
  }
  PagedSide(const PagedSide&) = delete;
  PagedSide& operator=(const PagedSide&) = delete;

  PagedCpuEngine<V> make_engine() { return PagedCpuEngine<V>(graph_, file_, buffers_, resident_, window_edges_, budget_); }

 private:
  const Graph<V>& graph_;
  EdgeFile file_;
  PageBuffers buffers_;
  ResidentEdges resident_;
  uint64_t window_edges_;
  PagingStats budget_;
};

}  // namespace tg::paged
