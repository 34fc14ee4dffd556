// The resident edge source (edge_source.h): the placements device, uvm and
// zero-copy naive / merged / aligned. The edge arrays stay where the
// placement put them for the whole run; a step is one launch of the traversal
// kernel compiled for that placement's access pattern (kernels/access_*.cu),
// plus the chunked second pass for long lists.
//
// Bytes over the link: zero-copy counts the 32-byte sectors its loads
// request (what its resident edge cache serves is counted apart, as bytes
// read from GPU memory); UVM the 64 KiB pages touched for the first time in
// the run; device memory moves nothing during the run (its one copy before
// the run is the placement's).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>

#include "core/env_count.h"
#include "core/env_switch.h"
#include "core/error.h"
#include "engines/gpu/cuda_util.h"
#include "engines/gpu/kernels/step_args.h"
#include "engines/gpu/placed_graph.h"
#include "engines/gpu/side_stream.h"
#include "engines/gpu/source_blocks.h"
#include "engines/gpu/sources/edge_source.h"
#include "engines/gpu/staged_values.h"
#include "engines/gpu/vertex_kernels.cuh"

namespace tg::gpu {

template <typename V>
class ResidentSource {
 public:
  ResidentSource(const DeviceGraph<V>& g, ScratchPool& pool) : g_(g), pool_(pool) {
    counters_ = DeviceArray<StepCounters>::allocate(1);
    residual_ = DeviceArray<double>::allocate(1);
    big_ = DeviceArray<V>::allocate(g.n);
    int clusters = 0;
    TG_CUDA(cudaGetDevice(&device_));
    TG_CUDA(cudaDeviceGetAttribute(&clusters, cudaDevAttrClusterLaunch, device_));
    cluster_launch_ = clusters != 0;
  }

  bool can_pull() const { return g_.in.placed; }
  const eid_t* out_offsets() const { return g_.out.view.offsets; }

  template <typename Op>
  StepOutcome push(const PushInput<V>& in, const Op& op) {
    if (!g_.out.placed) throw Error("GPU engine: a push step needs the graph's out-edges, which were not placed");
    PushArgs<V> a = step_over<PushArgs<V>>(g_.out);
    a.frontier = in.frontier;
    a.count = in.count;
    a.want_output = in.want_output;
    a.out_bits = in.out_bits;
    a.out_queue = in.out_queue;
    return outcome(with_access([&]<Access A>() { return push_step<A>(a, op); }));
  }

  template <typename Op>
  StepOutcome pull(const PullInput<V>& in, const Op& op) {
    if (!can_pull()) throw Error("GPU engine: a pull step needs the graph's in-edges, which were not placed");
    PullArgs<V> a = step_over<PullArgs<V>>(g_.in);
    a.n = g_.n;
    a.in_bits = in.in_bits;
    a.out_bits = in.out_bits;
    return outcome(with_access([&]<Access A>() { return pull_step<A>(a, op); }));
  }

  template <typename G>
  StepOutcome gather(const G& op, double* residual, uint64_t begin, uint64_t end) {
    if (!can_pull()) throw Error("GPU engine: gather_apply needs the graph's in-edges, which were not placed");
    if (g_.access == Access::kDevice && g_.gather_shards) return gather_by_shards(op, residual, begin, end);
    if (g_.access == Access::kDevice && g_.source_blocks && !G::needs_weights)
      if (const SourceBlockLayout<V>* l = g_.source_blocks->layout(g_.in.view, g_.n, g_.m, pool_))
        return gather_by_blocks(*l, op, residual, begin, end);
    GatherArgs<V> a = step_over<GatherArgs<V>>(g_.in, true);
    a.first = begin;
    a.n = end - begin;
    a.residual = residual_.data();
    a.warp_queue = warp_queue();
    // Over the range the last gather covered, its queues are kept
    // (GatherQueues) and the thread pass runs beside the warp passes: kron:25
    // hubs first on the H100, 8.1 -> 7.5 ms a PageRank iteration (docs/PERF.md,
    // session 51). TG_GATHER_KEEP_QUEUES=0: built every gather; TG_GATHER_
    // THREADS_BESIDE=0: the thread pass first (both for comparison runs).
    if (env_count("TG_GATHER_KEEP_QUEUES", 1) != 0) a.queues = &queues_;
    if (g_.access == Access::kDevice && env_count("TG_GATHER_THREADS_BESIDE", 1) != 0) {
      if (!beside_) beside_ = std::make_unique<SideStream>(device_);
      a.beside = beside_.get();
    }
    if constexpr (GathersSourceValues<G, V>) {
      a.staged_per_block = staged_per_block(sizeof(*op.source_values()));
      staged_values_ = std::max<uint64_t>(staged_values_, uint64_t{a.staged_per_block} * kStagedCluster);
    }
    TG_CUDA(cudaMemset(residual_.data(), 0, sizeof(double)));
    double r = 0;
    StepOutcome o = outcome(with_access([&]<Access A>() { return gather_step<A>(a, op, &r); }));
    *residual += r;
    return o;
  }

  void report(RunStats& stats) const {
    if (staged_values_ == 0) return;
    if (!stats.gpu) stats.gpu.emplace();  // the placement's statistics join it after the run (timed_run.cuh)
    stats.gpu->staged_values = staged_values_;
  }

 private:
  // The gather in passes over the source blocks (source_blocks.h), each
  // adding to a partial sum per vertex, then one apply.
  template <typename G>
  StepOutcome gather_by_blocks(const SourceBlockLayout<V>& l, const G& op, double* residual, uint64_t begin,
                               uint64_t end) {
    using acc_t = typename G::acc_t;
    const uint64_t bytes = std::max<uint64_t>(g_.n, 1) * sizeof(acc_t);
    if (partial_bytes_ < bytes) partial_ = pool_.get(partial_bytes_ = bytes);
    acc_t* partial = static_cast<acc_t*>(partial_.get());
    if (end <= begin) return StepOutcome{};
    vertex_kernels::fill<<<grid_for(end - begin, kBlock, g_.sms), kBlock>>>(partial + begin, end - begin, op.zero());
    TG_CUDA_CHECK_LAUNCH();
    StepOutcome o;
    for (int b = 0; b < l.blocks; ++b) {
      GatherArgs<V> a = step_over<GatherArgs<V>>(g_.in);
      a.csr = l.view(b);
      a.first = begin;
      a.n = end - begin;
      a.partial = partial;
      a.residual = residual_.data();
      a.warp_queue = warp_queue();
      double unused = 0;
      o.edges += gather_step<Access::kDevice>(a, op, &unused).edges;
    }
    TG_CUDA(cudaMemset(residual_.data(), 0, sizeof(double)));
    vertex_kernels::apply_partials<V, G>
        <<<grid_for(end - begin, kBlock, g_.sms), kBlock>>>(begin, end - begin, op, partial, residual_.data());
    TG_CUDA_CHECK_LAUNCH();
    double r = 0;
    TG_CUDA(cudaMemcpy(&r, residual_.data(), sizeof r, cudaMemcpyDeviceToHost));
    *residual += r;
    return o;
  }

  // The gather over Garaph's shards (gather_shards.h), clipped to [begin,
  // end): the shards that meet the range, and its long lists for the
  // chunked pass.
  template <typename G>
  StepOutcome gather_by_shards(const G& op, double* residual, uint64_t begin, uint64_t end) {
    const ShardLayout<V>& l = g_.gather_shards->layout(g_.in.view, g_.n, g_.m, sizeof(typename G::acc_t), g_.sms);
    ShardGatherArgs<V> a = step_over<ShardGatherArgs<V>>(g_.in);
    a.first = begin;
    a.n = end - begin;
    a.residual = residual_.data();
    a.starts = l.device_starts.data();
    a.replicas = l.replicas.data();
    a.idx_off = l.idx_off.data();
    a.slots = l.slots;
    // Shards whose vertices meet [begin, end): from the one holding begin to
    // the last starting before end.
    a.first_shard = static_cast<uint64_t>(std::upper_bound(l.starts.begin(), l.starts.end(), begin) - l.starts.begin()) - 1;
    a.end_shard = static_cast<uint64_t>(std::lower_bound(l.starts.begin(), l.starts.end(), end) - l.starts.begin());
    const auto lo = std::lower_bound(l.long_lists.begin(), l.long_lists.end(), begin);
    const auto hi = std::lower_bound(l.long_lists.begin(), l.long_lists.end(), end);
    a.long_count = static_cast<uint64_t>(hi - lo);
    if (a.long_count > 0)
      TG_CUDA(cudaMemcpy(big_.data(), l.device_long_lists.data() + (lo - l.long_lists.begin()), a.long_count * sizeof(V),
                         cudaMemcpyDeviceToDevice));
    TG_CUDA(cudaMemset(residual_.data(), 0, sizeof(double)));
    double r = 0;
    StepOutcome o = outcome(gather_shards_step(a, op, &r));
    *residual += r;
    return o;
  }

  // GatherArgs::staged_per_block (staged_values.h); TG_STAGED_VALUES=N (values
  // a cluster, 0 off) forces it in GPU memory.
  uint32_t staged_per_block(uint64_t value_bytes) const {
    constexpr uint64_t kUnset = ~uint64_t{0};
    const uint64_t forced = env_count("TG_STAGED_VALUES", kUnset);
    return staged_per_block_for(g_.access == Access::kDevice && cluster_launch_, g_.numbered_by_degree, g_.n, value_bytes,
                                forced == kUnset ? -1 : static_cast<int64_t>(std::min<uint64_t>(forced, INT64_MAX)));
  }

  // Gathers in GPU memory: the queue of lists too long for a thread
  // (kernels/gather.cuh). TG_GATHER_WARPS=1: every list by a warp, as
  // before the thread pass (for an A/B in one process's environment).
  V* warp_queue() {
    static const bool warps_only = env_switch("TG_GATHER_WARPS");
    if (g_.access != Access::kDevice || warps_only) return nullptr;
    if (!warp_queue_) warp_queue_ = pool_.template get_n<V>(std::max<uint64_t>(g_.n, 1));
    return static_cast<V*>(warp_queue_.get());
  }

  // The one switch from the placement's access pattern to its kernels.
  template <typename F>
  StepCounters with_access(F&& step) {
    switch (g_.access) {
      case Access::kDevice: return step.template operator()<Access::kDevice>();
      case Access::kUvm: return step.template operator()<Access::kUvm>();
      case Access::kNaive: return step.template operator()<Access::kNaive>();
      case Access::kMerged: return step.template operator()<Access::kMerged>();
      case Access::kAligned: return step.template operator()<Access::kAligned>();
    }
    throw Error("GPU engine: unknown access pattern");
  }

  StepOutcome outcome(const StepCounters& c) const {
    StepOutcome o;
    o.out_count = c.out_count;
    o.edges = c.edges;
    if (g_.access == Access::kNaive || g_.access == Access::kMerged || g_.access == Access::kAligned) {
      o.bytes_moved = c.sectors * 32;
      o.link_requests = c.requests;
      o.cache_bytes = c.cache_bytes;
    } else if (g_.access == Access::kUvm) {
      o.bytes_moved = c.pages << kUvmPageShift;
    }
    return o;
  }

  // A step's arguments over one placed CSR, its counters zeroed. Every step
  // but a full gather that may keep them (`keeps_queues`) may write the
  // queues (big_, the warp queue), so the kept ones are forgotten.
  template <typename Args>
  Args step_over(const PlacedCsr<V>& csr, bool keeps_queues = false) {
    if (!keeps_queues) queues_.forget();
    Args a;
    a.csr = csr.view;
    a.counters = counters_.data();
    a.uvm_pages = csr.uvm_pages;
    a.uvm_weight_page0 = csr.uvm_weight_page0;
    a.big_queue = big_.data();
    a.sms = g_.sms;
    a.pool = &pool_;
    TG_CUDA(cudaMemset(counters_.data(), 0, sizeof(StepCounters)));
    return a;
  }

  DeviceGraph<V> g_;
  ScratchPool& pool_;
  DeviceArray<StepCounters> counters_;
  DeviceArray<double> residual_;
  DeviceArray<V> big_;  // long lists deferred to the chunked pass
  std::shared_ptr<void> partial_;  // gather by source blocks: an acc_t per vertex
  uint64_t partial_bytes_ = 0;
  std::shared_ptr<void> warp_queue_;  // gather in GPU memory: the lists longer than kThreadEntries
  GatherQueues queues_;               // the last full gather's warp_queue_ and big_, for the next over its range
  uint64_t staged_values_ = 0;        // the most sources' values a gather staged (staged_values.h)
  bool cluster_launch_ = false;       // the GPU runs thread block clusters (compute capability 9.0 and up)
  int device_ = 0;
  std::unique_ptr<SideStream> beside_;  // GatherArgs::beside; last, so it drains before the arrays go
};

}  // namespace tg::gpu
