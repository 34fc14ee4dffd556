#include "engines/paged/host_mem.h"

#include <sys/mman.h>

#include <algorithm>

#include "core/error.h"
#include "engines/cpu/timed_run.h"
#include "engines/paged/edge_file.h"
#include "engines/paged/page_stream.h"
#include "engines/paged/paged_engine.h"
#include "engines/paged/paged_side.h"
#include "formats/binary_format.h"

namespace tg::paged {

namespace {

// "100 B", "68.0 KiB", "1.50 MiB": as a size the option takes.
std::string size_text(uint64_t bytes) {
  char text[64];
  if (bytes < 1024) std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  else if (bytes < (uint64_t{1} << 20)) std::snprintf(text, sizeof text, "%.1f KiB", double(bytes) / 1024.0);
  else std::snprintf(text, sizeof text, "%.2f MiB", double(bytes) / double(1 << 20));
  return text;
}

}  // namespace

// The mapping's pages of the edge arrays (read when the file was loaded and
// checked) leave this process: the engine reads them from the file instead.
// MADV_PAGEOUT, not DONTNEED: it keeps the contents, so an array that is not
// the file's mapping after all (built in memory) loses nothing.
template <typename V>
void release_mapped_edges(const Graph<V>& g) {
#ifndef MADV_PAGEOUT
  constexpr int MADV_PAGEOUT = 21;  // Linux 5.4; older kernels answer EINVAL, harmless
#endif
  auto drop = [](const void* data, uint64_t bytes) {
    const uintptr_t begin = page_ceil(reinterpret_cast<uintptr_t>(data));
    const uintptr_t end = page_floor(reinterpret_cast<uintptr_t>(data) + bytes);
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_PAGEOUT);
  };
  for (const Csr<V>* c : {&g.out, &g.in}) {
    drop(c->neighbors.data(), c->neighbors.size() * sizeof(V));
    drop(c->weights.data(), c->weights.size() * sizeof(weight_t));
  }
}

template <typename V>
std::vector<EdgeArray> arrays_of(const Graph<V>& g, const EdgeReads& reads) {
  const bool out = reads.out_edges != Need::kNo;
  // A directed graph's in-edges where it has them; an undirected one's are its out-edges.
  const bool in = reads.in_edges != Need::kNo && g.has_in_edges();
  const bool csc = in && g.directed;
  const bool weights = reads.weights && g.weighted();
  std::vector<EdgeArray> arrays;
  auto add = [&](int neighbors, int weight_section) {
    arrays.push_back({neighbors, static_cast<uint32_t>(sizeof(V))});
    if (weights) arrays.push_back({weight_section, static_cast<uint32_t>(sizeof(weight_t))});
  };
  if (out || (in && !csc)) add(formats::kOutNeighbors, formats::kOutWeights);
  if (csc) add(formats::kInNeighbors, formats::kInWeights);
  return arrays;
}

template void release_mapped_edges(const Graph<uint32_t>&);
template void release_mapped_edges(const Graph<uint64_t>&);
template std::vector<EdgeArray> arrays_of(const Graph<uint32_t>&, const EdgeReads&);
template std::vector<EdgeArray> arrays_of(const Graph<uint64_t>&, const EdgeReads&);

std::vector<EdgeArray> edge_arrays(const AnyGraph& any, const EdgeReads& reads) {
  return std::visit([&](const auto& g) { return arrays_of(g, reads); }, any);
}

namespace {

// The page buffers' shape for a graph and what a run reads of it.
struct BufferShape {
  uint64_t regions = 1;  // 2 where weights are read beside the ids
  uint64_t width = 0;    // bytes of an edge's id (and weight) in a buffer
  uint64_t page_edges = 0;      // ids in a page: the smallest window
  uint64_t largest_window = 0;  // edges: kLargestBufferBytes of ids, or a kWindowsPerArray-th of an array
  // kBufferDepth buffers of `edges` edges each: their ids (and weights) plus
  // the two pages a window's span may start and end inside (whole pages
  // only are read), plus one of rounding, per region.
  uint64_t bytes(uint64_t edges) const { return kBufferDepth * (regions * 3 * kPageBytes + edges * width); }
};

template <typename V>
BufferShape buffer_shape(const Graph<V>& g, const std::vector<EdgeArray>& arrays) {
  const bool weights = std::any_of(arrays.begin(), arrays.end(), [](const EdgeArray& a) {
    return a.section == formats::kOutWeights || a.section == formats::kInWeights;
  });
  BufferShape shape;
  shape.regions = weights ? 2 : 1;
  shape.width = sizeof(V) + (weights ? sizeof(weight_t) : 0);
  shape.page_edges = kPageBytes / sizeof(V);
  shape.largest_window = std::min<uint64_t>(
      kLargestBufferBytes / sizeof(V), std::max(shape.page_edges, (g.num_edges() + kWindowsPerArray - 1) / kWindowsPerArray));
  return shape;
}

}  // namespace

template <typename V>
HostMemPlan plan_host_memory(const Graph<V>& g, const EdgeReads& reads, uint64_t budget) {
  const uint64_t n = g.num_vertices, m = g.num_edges();
  const std::vector<EdgeArray> arrays = arrays_of(g, reads);
  const bool csc = std::any_of(arrays.begin(), arrays.end(),
                               [](const EdgeArray& a) { return a.section == formats::kInNeighbors; });
  const BufferShape shape = buffer_shape(g, arrays);
  uint64_t all_width = 0;  // bytes of an edge in all the arrays
  for (const EdgeArray& a : arrays) all_width += a.bytes_per_edge;
  HostMemPlan plan;
  plan.budget_bytes = budget;
  plan.offset_bytes = (n + 1) * sizeof(eid_t) * (csc ? 2 : 1);
  plan.edge_bytes = m * all_width;
  const uint64_t smallest = plan.offset_bytes + shape.bytes(shape.page_edges);
  if (plan.offset_bytes + plan.edge_bytes <= budget) return plan;
  if (budget < smallest)
    throw usage_error("--host-mem " + size_text(budget) + " is too small for this graph: its offsets (" +
                      size_text(plan.offset_bytes) + ") and the smallest page buffers need at least " + size_text(smallest));
  const uint64_t room = budget - plan.offset_bytes;
  plan.paged = true;
  plan.window_edges =
      std::min((room / kBufferDepth - shape.regions * 3 * kPageBytes) / shape.width, shape.largest_window);
  plan.neighbor_buffer_bytes = page_ceil(plan.window_edges * sizeof(V)) + 2 * kPageBytes;
  if (shape.regions == 2) plan.weight_buffer_bytes = page_ceil(plan.window_edges * sizeof(weight_t)) + 2 * kPageBytes;
  // The rest: edge ids [0, R) of every array, each in whole pages.
  const uint64_t rest = room - kBufferDepth * (plan.neighbor_buffer_bytes + plan.weight_buffer_bytes);
  const uint64_t rounding = arrays.size() * kPageBytes;
  plan.resident_edges = rest > rounding ? std::min<uint64_t>(m, (rest - rounding) / all_width) : 0;
  return plan;
}

template <typename V>
uint64_t largest_buffers_bytes(const Graph<V>& g, const EdgeReads& reads) {
  const BufferShape shape = buffer_shape(g, arrays_of(g, reads));
  return shape.bytes(shape.largest_window);
}

template uint64_t largest_buffers_bytes(const Graph<uint32_t>&, const EdgeReads&);
template uint64_t largest_buffers_bytes(const Graph<uint64_t>&, const EdgeReads&);
template HostMemPlan plan_host_memory(const Graph<uint32_t>&, const EdgeReads&, uint64_t);
template HostMemPlan plan_host_memory(const Graph<uint64_t>&, const EdgeReads&, uint64_t);

HostMemPlan plan_host_memory(const AnyGraph& any, const EdgeReads& reads, uint64_t budget) {
  return std::visit([&](const auto& g) { return plan_host_memory(g, reads, budget); }, any);
}

namespace {

EdgeReads reads_of(const std::vector<RunRequest>& requests) {
  std::vector<EdgeReads> each;
  for (const RunRequest& r : requests) each.push_back(edge_reads(r));
  return batch_reads(each);
}

}  // namespace

void run_batch_on_cpu_with_host_mem(const AnyGraph& any, const std::vector<RunRequest>& requests,
                                    const std::string& tgb_path, uint64_t budget, const OutputSink& sink) {
  if (requests.empty()) return;
  const HostMemPlan plan = plan_host_memory(any, reads_of(requests), budget);
  if (plan.paged) return run_paged_batch(any, requests, tgb_path, plan, sink);
  for (size_t i = 0; i < requests.size(); ++i) {
    RunOutput out = run_on_cpu(any, requests[i]);
    PagingStats budget_stats;
    budget_stats.budget_bytes = budget;
    budget_stats.edge_bytes = plan.edge_bytes;
    budget_stats.resident_bytes = plan.offset_bytes + plan.edge_bytes;
    budget_stats.resident_edge_bytes = plan.edge_bytes;
    out.stats.paging = budget_stats;
    sink(i, std::move(out));
  }
}

void run_paged_batch(const AnyGraph& any, const std::vector<RunRequest>& requests, const std::string& tgb_path,
                     const HostMemPlan& plan, const OutputSink& sink) {
  if (requests.empty()) return;
  PagingStats budget_stats;
  budget_stats.budget_bytes = plan.budget_bytes;
  budget_stats.edge_bytes = plan.edge_bytes;
  budget_stats.resident_bytes = plan.offset_bytes;
  std::visit(
      [&](const auto& graph) {
        using V = typename std::decay_t<decltype(graph)>::vertex_t;
        PagedSide<V> side(graph, reads_of(requests), in_edge_reader(requests), tgb_path, plan, budget_stats);
        for (size_t i = 0; i < requests.size(); ++i)
          sink(i, timed_cpu_run(requests[i], [&] { return side.make_engine(); }));
      },
      any);
}

RunOutput run_on_cpu_with_host_mem(const AnyGraph& any, const RunRequest& request, const std::string& tgb_path,
                                   uint64_t budget) {
  RunOutput out;
  run_batch_on_cpu_with_host_mem(any, {request}, tgb_path, budget, [&](size_t, RunOutput&& o) { out = std::move(o); });
  return out;
}

RunOutput run_paged(const AnyGraph& any, const RunRequest& request, const std::string& tgb_path,
                    const HostMemPlan& plan) {
  RunOutput out;
  run_paged_batch(any, {request}, tgb_path, plan, [&](size_t, RunOutput&& o) { out = std::move(o); });
  return out;
}

}  // namespace tg::paged
