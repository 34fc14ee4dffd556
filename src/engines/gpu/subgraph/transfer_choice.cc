// Per-iteration transfer choice, rate meters and records (see transfer_choice.h).
#include "engines/gpu/subgraph/transfer_choice.h"

#include <algorithm>
#include <cstdio>

#include "core/error.h"

namespace tg::subgraph {

TransferEstimate estimate_transfer(const IterationShape& s, const TransferRates& r) {
  TransferEstimate e;
  const double entry = static_cast<double>(s.entry_bytes());
  const double edge_bytes = static_cast<double>(s.active_edges) * entry;
  const double lists = static_cast<double>(s.active_vertices);
  // Steps 1-5 touch the active list, its degrees and two offset arrays
  // (about 8 + 8 + 8 + id bytes per active vertex), in about 6 launches.
  const double generate = lists * (24.0 + s.id_bytes) / r.device_pass + 6 * r.launch_s;
  // CPU path: active list and sub-offsets go to the host (Subway's 2|V_active|),
  // the gather is pipelined with the copy in chunks, so the slower of the two
  // dominates.
  const double to_host = lists * (8.0 + s.id_bytes);
  const double cpu_gather = edge_bytes / r.cpu_gather;
  const double copy = edge_bytes / r.link;
  e.subgraph_cpu_s = generate + to_host / r.link + std::max(cpu_gather, copy) + 2 * r.launch_s;
  // GPU path: bounded by the link or, for many short scattered lists, by
  // address translation (PLATFORM.md: ~44 M lists/s over an 8 GB footprint);
  // packed lists cross in fewer bytes (the rate is measured in these bytes).
  const double gpu_gather = std::max(edge_bytes * s.packed_fraction / r.gpu_gather, lists / r.gpu_gather_lists);
  e.subgraph_gpu_s = generate + gpu_gather + r.launch_s;
  e.subgraph_bytes = static_cast<uint64_t>(edge_bytes + to_host);
  const uint64_t stream_edges = s.stream_edges ? s.stream_edges : s.total_edges;
  e.stream_bytes = stream_edges * s.entry_bytes();
  e.stream_s = static_cast<double>(e.stream_bytes) / r.link + r.launch_s;
  e.zero_copy_s = gpu_gather;
  return e;
}

namespace {

std::string fmt(const char* format, double a, double b = 0, double c = 0) {
  char buf[160];
  std::snprintf(buf, sizeof buf, format, a, b, c);
  return buf;
}

}  // namespace

TransferChoice choose_transfer(const IterationShape& shape, const TransferRates& rates, const ChoiceParams& params) {
  if (!(params.stream_threshold >= 0.0 && params.stream_threshold <= 1.0))
    throw Error("transfer choice: stream threshold " + std::to_string(params.stream_threshold) +
                " outside [0, 1]");
  if (shape.active_edges > shape.total_edges || shape.active_vertices > shape.vertices)
    throw Error("transfer choice: the active part (" + std::to_string(shape.active_vertices) + " vertices, " +
                std::to_string(shape.active_edges) + " edges) exceeds the graph (" + std::to_string(shape.vertices) +
                ", " + std::to_string(shape.total_edges) + ")");
  TransferChoice c;
  c.estimate = estimate_transfer(shape, rates);
  c.active_edge_fraction =
      shape.total_edges ? static_cast<double>(shape.active_edges) / static_cast<double>(shape.total_edges) : 0.0;

  Transfer subgraph = Transfer::kSubgraphCpuGather;
  switch (params.gather) {
    case GatherWay::kCpu: subgraph = Transfer::kSubgraphCpuGather; break;
    case GatherWay::kGpu: subgraph = Transfer::kSubgraphGpuGather; break;
    case GatherWay::kAuto:
      subgraph = c.estimate.subgraph_gpu_s < c.estimate.subgraph_cpu_s ? Transfer::kSubgraphGpuGather
                                                                       : Transfer::kSubgraphCpuGather;
      break;
  }

  if (params.rule == ChoiceRule::kThreshold) {
    // Subway's rule weighs the active edges' bytes against the whole's: where
    // the GPU way reads packed lists, an active entry costs packed_fraction
    // of a streamed one, and the threshold applies to that share.
    const double packed = subgraph == Transfer::kSubgraphGpuGather ? shape.packed_fraction : 1.0;
    const double share = c.active_edge_fraction * packed;
    const char* packed_note = packed < 1.0 ? " (packed)" : "";
    if (params.allow_stream && share > params.stream_threshold) {
      c.transfer = Transfer::kStream;
      c.reason = fmt("threshold: active edges %.1f%% > %.1f%% of all: stream", 100 * share, 100 * params.stream_threshold) +
                 packed_note;
    } else {
      c.transfer = subgraph;
      c.reason = fmt("threshold: active edges %.1f%% <= %.1f%% of all: subgraph", 100 * share,
                     100 * params.stream_threshold) +
                 packed_note;
    }
    return c;
  }

  // Cost model: the cheapest estimate among the allowed ways; ties go to the
  // subgraph (it moves fewer bytes).
  c.transfer = subgraph;
  double best = subgraph == Transfer::kSubgraphGpuGather ? c.estimate.subgraph_gpu_s : c.estimate.subgraph_cpu_s;
  if (params.allow_stream && c.estimate.stream_s < best) {
    c.transfer = Transfer::kStream;
    best = c.estimate.stream_s;
  }
  if (params.allow_zero_copy && c.estimate.zero_copy_s < best) {
    c.transfer = Transfer::kZeroCopy;
    best = c.estimate.zero_copy_s;
  }
  c.reason = std::string("cost model: ") + transfer_name(c.transfer) +
             fmt(" estimated %.3f ms (subgraph-cpu %.3f ms, subgraph-gpu %.3f ms", 1e3 * best,
                 1e3 * c.estimate.subgraph_cpu_s, 1e3 * c.estimate.subgraph_gpu_s) +
             fmt(", stream %.3f ms)", 1e3 * c.estimate.stream_s);
  return c;
}

void RateMeter::add(double amount, double seconds) {
  if (!(amount >= min_) || !(seconds > 0)) return;
  recent_.emplace_back(amount, seconds);
  if (recent_.size() > window_) recent_.pop_front();
  samples_++;
}

double RateMeter::rate(double prior) const {
  double amount = 0, seconds = 0;
  for (const auto& [a, s] : recent_) {
    amount += a;
    seconds += s;
  }
  return seconds > 0 ? amount / seconds : prior;
}

TransferRates TransferMeters::rates(const TransferRates& prior) const {
  TransferRates r = prior;
  r.link = link.rate(prior.link);
  r.cpu_gather = cpu_gather.rate(prior.cpu_gather);
  r.gpu_gather = gpu_gather.rate(prior.gpu_gather);
  return r;
}

}  // namespace tg::subgraph
