// Partition streaming on the GPU: executes a StreamSchedule (PT or PT-Opt,
// stream_schedule.h) for one iteration, handing each loaded partition to a
// callback as a CsrView for push_step<Access::kDevice> plus the slice of the
// sorted active list inside it.
//
// Streams: each staging buffer has its own non-blocking copy stream; kernels
// run on the legacy default stream, where the GPU engine launches them. The
// default stream waits for a buffer's `loaded` event before the step on it;
// a copy into a buffer waits for its `free` event, recorded after the last
// step that read it. The copy of staging step t + B (B buffers) is issued as
// soon as step t has been handed to the callback, so with B >= 2 the copy of
// the next partition runs under the kernel of the current one. Resident
// partitions (PT-Opt) are copied once, on their own stream, into one buffer
// that mirrors the CSR's edge positions [0, resident_edges_used()).
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "engines/gpu/cuda_util.h"
#include "engines/gpu/kernels/step_args.h"
#include "engines/gpu/subgraph/file_partitions.h"
#include "engines/gpu/subgraph/stream_schedule.h"
#include "engines/gpu/subgraph/subgraph_plan.h"
#include "engines/gpu/subgraph/work_unit.h"

namespace tg::subgraph {

// --host-mem: a streamed array's resident partitions, left in GPU memory by
// a batch's run for its later ones (bench's trials, a run per source), as
// the host cache's span is left in host memory (FileArrays::kept). Read from
// the file, a run's resident partitions cost the disk's rate once per run:
// 3.22 GB of kron:25's in-edges at --gpu-mem 4G, two seconds a run, where
// the placement's other copies come from the host cache. The placed graph
// holds one per streamed array (DeviceGraph::push_resident, gather_resident).
// A later run takes them over where its plan is the same (the same config
// for the same array: the same partitions); else they are freed first.
template <typename V>
struct ResidentPartitions {
  StreamConfig config;  // the plan they were loaded under
  gpu::DeviceArray<V> neighbors;
  gpu::DeviceArray<weight_t> weights;
  std::vector<bool> loaded;  // by resident partition; empty while a run may be changing them

  bool serves(const StreamConfig& c) const { return !loaded.empty() && config == c; }
  void release() { *this = ResidentPartitions(); }
};

template <typename V>
struct StreamSource {
  uint64_t n = 0;
  const eid_t* offsets_device = nullptr;  // n + 1
  const eid_t* offsets_host = nullptr;    // n + 1
  const V* neighbors_host = nullptr;      // pinned, for cudaMemcpyAsync to overlap
  const weight_t* weights_host = nullptr;
  // --host-mem: the neighbours (and weights) read from the graph's .tgb file
  // into pinned page buffers instead (file_partitions.h); the host arrays
  // above are then unset.
  std::optional<FileArrays> file;
  // The resident partitions carried from a batch's earlier run, and to its
  // later ones; null: the run's own.
  std::shared_ptr<ResidentPartitions<V>> carried;
};

// One partition, loaded, as the push kernel needs it.
template <typename V>
struct StreamUnit {
  gpu::CsrView<V> csr;
  const V* frontier = nullptr;  // device: the partition's slice of the sorted active list
  uint64_t count = 0;
  uint64_t partition = 0;
  WorkUnit unit;
};

struct StreamTraffic {
  uint64_t bytes_to_device = 0;
  uint64_t copies = 0;
  uint64_t skipped = 0;
  uint64_t resident_hits = 0;
  uint64_t units = 0;  // callbacks made
  double seconds = 0;  // wall time of the iteration, copies and callbacks
};

template <typename V>
class PartitionStreamer {
 public:
  // A staging buffer lent by its owner: neighbours, and weights when the
  // config has them, each of at least partition_edges entries.
  struct Borrowed {
    V* neighbors = nullptr;
    weight_t* weights = nullptr;
  };

  // Plans the partitions (partition_edges of the config) and allocates the
  // staging and resident buffers, or uses `borrowed` staging buffers (one per
  // staging buffer of the config): the subgraph placement streams its >80%
  // iterations through the SubCSR builder's slots, so the two share one
  // budget (SubcsrBuilder::slot_neighbors / slot_weights).
  PartitionStreamer(const StreamSource<V>& source, const StreamConfig& config, std::vector<Borrowed> borrowed = {});
  ~PartitionStreamer();
  PartitionStreamer(const PartitionStreamer&) = delete;
  PartitionStreamer& operator=(const PartitionStreamer&) = delete;

  const StreamSchedule& schedule() const { return schedule_; }
  // Device memory of the edge buffers (within the budget) and of the rest.
  uint64_t edge_bytes() const;
  uint64_t vertex_bytes() const;
  // 0, 1, ..., n - 1 in device memory (made on first use): the frontier of
  // an iteration over every vertex.
  const V* identity();
  // The resident partitions an earlier run of the batch left loaded (the
  // source's `carried`), found so at the start.
  uint64_t resident_carried() const { return resident_carried_; }
  // --host-mem: the pinned page buffers' bytes, and the bytes read from the
  // file so far (0 where the edges are in host memory).
  uint64_t file_buffer_bytes() const { return files_ ? files_->host_bytes() : 0; }
  uint64_t file_bytes_read() const { return files_ ? files_->bytes_read() : 0; }
  // --host-mem: the bytes of the edges this streamer copies from the file
  // every iteration (those not resident in GPU memory), and a host cache of
  // up to `bytes` of them, kept once read (file_partitions.h; a batch's
  // earlier run's, where the source carries the same span); returns the
  // cache's bytes. release_stale_host_cache(bytes), called first, releases a
  // carried span that keep_in_host(bytes) would not take over.
  // Before any run; 0 without a file.
  uint64_t streamed_file_bytes() const;
  uint64_t keep_in_host(uint64_t bytes);
  void release_stale_host_cache(uint64_t bytes);
  // A frontier queue (distinct vertices, any order) radix-sorted into the
  // streamer's own array, for run(): push steps append their output in
  // whatever order the atomics give, and run() needs vertex order.
  const V* sorted(const V* list, uint64_t count);

  // One iteration over the sorted, distinct active vertices (device memory;
  // null for every vertex). compute(const StreamUnit<V>&) runs the step on
  // the default stream; it is not called for partitions without active
  // vertices (which PT still copies). [from, below): no list of a vertex
  // outside it is read this iteration (the hybrid engine's GPU share of a
  // gather: vertices [0, k), or a later bite [k, k') of its probe), so a
  // staging copy starts at the first one's first edge and stops at the
  // last one's last: a partition across a cut crosses the link only inside
  // the range, and the GPU's time follows its share of the pages rather
  // than whole partitions (and a probe's bites copy no edge twice).
  template <typename F>
  StreamTraffic run(const V* sorted_active, uint64_t count, F&& compute, uint64_t below = UINT64_MAX,
                    uint64_t from = 0);

 private:
  std::pair<eid_t, uint64_t> host_cache_span(uint64_t bytes) const;  // keep_in_host's first edge and count
  std::vector<std::pair<uint64_t, uint64_t>> ranges_of(const V* active, uint64_t count);
  void issue_copy(const StreamStep& step, cudaStream_t stream, V* dst_n, weight_t* dst_w);
  // Staging copies start at edge position `begin` and end at `end`
  // (resident loads stay whole: later iterations read them all).
  void clip_staging(StreamIteration& it, eid_t begin, eid_t end) const;
  StreamUnit<V> unit_of(const StreamStep& step, const V* active) const;
  void register_file_memory();

  StreamSource<V> src_;
  StreamConfig cfg_;
  StreamSchedule schedule_;
  int sms_ = 1;
  gpu::DeviceArray<V> resident_n_;
  gpu::DeviceArray<weight_t> resident_w_;
  std::vector<gpu::DeviceArray<V>> owned_n_;
  std::vector<gpu::DeviceArray<weight_t>> owned_w_;
  std::vector<V*> stage_n_;  // owned or borrowed
  std::vector<weight_t*> stage_w_;
  std::vector<cudaStream_t> copy_streams_;  // one per staging buffer
  cudaStream_t resident_stream_ = nullptr;
  std::vector<cudaEvent_t> loaded_, free_;  // per staging buffer
  cudaEvent_t residents_loaded_ = nullptr;
  std::shared_ptr<ResidentPartitions<V>> carried_;  // src_.carried
  uint64_t resident_carried_ = 0;
  // --host-mem: the file's chunk buffers and host cache, registered, and per
  // chunk buffer an event after the last copy from it.
  std::unique_ptr<FilePartitions> files_;
  std::vector<void*> files_registered_;
  std::vector<cudaEvent_t> file_free_;
  gpu::DeviceArray<eid_t> split_;      // {0, edges} per partition
  gpu::DeviceArray<uint64_t> keys_;    // first, last of each partition
  gpu::DeviceArray<uint64_t> bounds_;  // their lower bounds in the active list
  gpu::DeviceArray<V> identity_;
  gpu::DeviceArray<V> sorted_;
  gpu::ScratchPool pool_;
};

template <typename V>
template <typename F>
StreamTraffic PartitionStreamer<V>::run(const V* active, uint64_t count, F&& compute, uint64_t below, uint64_t from) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  if (active == nullptr) {
    active = identity();
    count = src_.n;
    for (const EdgeRange& p : schedule_.partitions()) ranges.emplace_back(p.first, p.last);
  } else {
    ranges = ranges_of(active, count);
  }
  // Until the copies below are done, a carried set is no one's: a run cut
  // short by an error leaves none for the next.
  if (carried_) carried_->loaded.clear();
  StreamIteration it = schedule_.plan_iteration(ranges);
  if ((below < src_.n || (from > 0 && from < src_.n)) && src_.offsets_host != nullptr)
    clip_staging(it, src_.offsets_host[std::min<uint64_t>(from, src_.n)],
                 src_.offsets_host[std::min<uint64_t>(below, src_.n)]);
  const std::vector<StreamStep>& steps = it.steps;
  const uint64_t B = cfg_.staging_buffers;

  bool any_resident_copy = false;
  for (const StreamStep& s : steps)
    if (s.load == StreamStep::Load::kResident) {
      issue_copy(s, resident_stream_, resident_n_.data(), resident_w_.data());
      any_resident_copy = true;
    }
  if (any_resident_copy) TG_CUDA(cudaEventRecord(residents_loaded_, resident_stream_));

  std::vector<size_t> staging;  // indices of the staging steps, in order
  for (size_t j = 0; j < steps.size(); ++j)
    if (steps[j].load == StreamStep::Load::kStaging) staging.push_back(j);
  auto issue_staging = [&](size_t t) {
    const StreamStep& s = steps[staging[t]];
    const uint64_t b = s.staging_buffer;
    TG_CUDA(cudaStreamWaitEvent(copy_streams_[b], free_[b], 0));
    issue_copy(s, copy_streams_[b], stage_n_[b], stage_w_[b]);
    TG_CUDA(cudaEventRecord(loaded_[b], copy_streams_[b]));
  };
  size_t issued = 0;
  while (issued < staging.size() && issued < B) issue_staging(issued++);

  StreamTraffic traffic;
  for (const StreamStep& s : steps) {
    if (s.load == StreamStep::Load::kStaging)
      TG_CUDA(cudaStreamWaitEvent(cudaStreamLegacy, loaded_[s.staging_buffer], 0));
    else if (s.load == StreamStep::Load::kResident)
      TG_CUDA(cudaStreamWaitEvent(cudaStreamLegacy, residents_loaded_, 0));
    if (s.active_hi > s.active_lo) {
      compute(unit_of(s, active));
      traffic.units++;
    }
    if (s.load == StreamStep::Load::kStaging) {
      TG_CUDA(cudaEventRecord(free_[s.staging_buffer], cudaStreamLegacy));
      if (issued < staging.size()) issue_staging(issued++);
    }
  }
  TG_CUDA(cudaStreamSynchronize(cudaStreamLegacy));
  for (cudaStream_t s : copy_streams_) TG_CUDA(cudaStreamSynchronize(s));
  TG_CUDA(cudaStreamSynchronize(resident_stream_));
  if (carried_ && schedule_.resident_count() > 0)
    *carried_ = ResidentPartitions<V>{cfg_, resident_n_, resident_w_, schedule_.loaded()};

  traffic.bytes_to_device = it.copied_edges * cfg_.entry.bytes();
  traffic.copies = it.copies;
  traffic.skipped = it.skipped;
  traffic.resident_hits = it.resident_hits;
  traffic.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return traffic;
}

}  // namespace tg::subgraph
