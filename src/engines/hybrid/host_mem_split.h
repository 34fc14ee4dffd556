// --host-mem on the hybrid engine (docs/HOST-MEM.md): the budget between the
// GPU's stream placement and the paged CPU side. Both read the graph's one
// copy of the offsets, which the CPU side's plan counts. The GPU takes its
// page buffers (known once its source is built, which checks them against
// the whole budget) and keeps streamed edges in a host cache in all the rest
// but the CPU side's largest page buffers (GpuOptions::host_cache_leaves);
// the CPU side is planned in what the GPU leaves, and reads from the file
// the pages it takes. Why the GPU's: from the disk the bound is the bytes
// read, and a cached edge serves the GPU's copies at the link's rate where
// the CPU threads gather it several times slower (docs/PERF.md, "The
// hybrid at --gpu-mem 4G from disk").
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "core/error.h"
#include "engines/paged/host_mem.h"
#include "engines/paged/paged_side.h"

namespace tg::hybrid {

template <typename V>
class HostMemSplit {
 public:
  // `graph` was loaded from `tgb_path`; `reads`: what the batch's runs read.
  HostMemSplit(const Graph<V>& graph, const EdgeReads& reads, const std::string& algorithm, const std::string& tgb_path,
               uint64_t budget)
      : graph_(graph), reads_(reads), algorithm_(algorithm), tgb_path_(tgb_path), budget_(budget) {}

  // The paged CPU side beside `gpu_bytes` of the GPU's (page buffers and host cache), or
  // null where the CPU side's edges fit in the rest (it reads memory then).
  // Kept for the batch's later runs while their buffers are no larger, else
  // planned again. Throws a usage error (one line) where the rest is too
  // small for the CPU side's offsets and smallest buffers.
  paged::PagedSide<V>* beside(uint64_t gpu_bytes) {
    if (!plan_ || gpu_bytes > planned_beside_) {
      side_.reset();
      try {
        plan_ = paged::plan_host_memory(graph_, reads_, budget_ - std::min(budget_, gpu_bytes));
      } catch (const Error& e) {
        plan_.reset();
        throw usage_error("--engine hybrid: the GPU's page buffers and host cache take " + std::to_string(gpu_bytes) +
                          " bytes of --host-mem " + std::to_string(budget_) + ", and the CPU side's rest: " + e.what());
      }
      planned_beside_ = gpu_bytes;
      // The hybrid gives the CPU side the last vertices of a gather (their
      // lists end the arrays): its resident edges are the arrays' last.
      plan_->resident_suffix = true;
      if (plan_->paged) {
        PagingStats stats;
        stats.budget_bytes = plan_->budget_bytes;
        stats.edge_bytes = plan_->edge_bytes;
        stats.resident_bytes = plan_->offset_bytes;
        side_.emplace(graph_, reads_, algorithm_, tgb_path_, *plan_, stats);
      }
    }
    return side_ ? &*side_ : nullptr;
  }

  // The CPU side's plan (after beside()).
  const paged::HostMemPlan& plan() const { return *plan_; }

  // Frees the CPU side (the next beside() plans it again): before a run
  // whose GPU may take more of the budget than the last one's (another
  // algorithm: other streamers, other buffers and cache), so that the GPU's
  // are made while the CPU side holds nothing.
  void release() {
    side_.reset();
    plan_.reset();
  }

 private:
  const Graph<V>& graph_;
  EdgeReads reads_;
  std::string algorithm_, tgb_path_;
  uint64_t budget_;
  std::optional<paged::HostMemPlan> plan_;
  uint64_t planned_beside_ = 0;  // the GPU's bytes plan_ was made beside
  std::optional<paged::PagedSide<V>> side_;
};

}  // namespace tg::hybrid
