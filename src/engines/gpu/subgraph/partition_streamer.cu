// Partition streaming on the GPU (see partition_streamer.cuh).
#include "engines/gpu/subgraph/partition_streamer.cuh"

#include <algorithm>
#include <cub/device/device_radix_sort.cuh>
#include <span>

#include "core/error.h"
#include "engines/gpu/subgraph/subgraph_kernels.cuh"

namespace tg::subgraph {

namespace {

unsigned blocks_for(uint64_t threads, int sms) {
  uint64_t b = gpu::div_up(threads, kernels::kThreads);
  uint64_t cap = static_cast<uint64_t>(sms) * 16;
  return static_cast<unsigned>(std::max<uint64_t>(1, std::min(b, cap)));
}

template <typename V>
uint64_t edges_of(const StreamSource<V>& source) {
  return source.n > 0 ? source.offsets_host[source.n] : 0;
}

std::vector<EdgeRange> plan_for(const eid_t* offsets_host, uint64_t n, const StreamConfig& config) {
  if (offsets_host == nullptr) throw Error("partition streamer: no host offsets");
  return plan_partitions(std::span<const eid_t>(offsets_host, n + 1), config.partition_edges);
}

}  // namespace

template <typename V>
PartitionStreamer<V>::PartitionStreamer(const StreamSource<V>& source, const StreamConfig& config,
                                        std::vector<Borrowed> borrowed)
    : src_(source), cfg_(config), schedule_(plan_for(source.offsets_host, source.n, config), config) {
  if (!borrowed.empty() && borrowed.size() != cfg_.staging_buffers)
    throw Error("partition streamer: " + std::to_string(borrowed.size()) + " borrowed buffers for " +
                std::to_string(cfg_.staging_buffers) + " staging buffers");
  for (const Borrowed& b : borrowed)
    if (b.neighbors == nullptr || (cfg_.entry.weights && b.weights == nullptr))
      throw Error("partition streamer: a borrowed staging buffer is missing");
  if (cfg_.entry.id_bytes != sizeof(V))
    throw Error("partition streamer: entry of " + std::to_string(cfg_.entry.id_bytes) + "-byte ids for " +
                std::to_string(sizeof(V)) + "-byte vertices");
  const bool file_weights = src_.file && src_.file->weights_section >= 0;
  if (cfg_.entry.weights && src_.weights_host == nullptr && !file_weights)
    throw Error("partition streamer: the algorithm reads weights but the graph has none");
  int device = 0;
  TG_CUDA(cudaGetDevice(&device));
  TG_CUDA(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device));

  const uint64_t resident = schedule_.resident_edges_used();
  carried_ = src_.carried;
  if (carried_ && carried_->serves(cfg_) && carried_->loaded.size() == schedule_.resident_count()) {
    resident_n_ = carried_->neighbors;
    resident_w_ = carried_->weights;
    schedule_.take_loaded(carried_->loaded);
    resident_carried_ = std::count(carried_->loaded.begin(), carried_->loaded.end(), true);
  } else {
    if (carried_) carried_->release();  // its GPU memory before ours
    resident_n_ = gpu::DeviceArray<V>::allocate(resident);
    if (cfg_.entry.weights) resident_w_ = gpu::DeviceArray<weight_t>::allocate(resident);
  }
  for (uint64_t b = 0; b < cfg_.staging_buffers; ++b) {
    if (borrowed.empty()) {
      owned_n_.push_back(gpu::DeviceArray<V>::allocate(cfg_.partition_edges));
      stage_n_.push_back(owned_n_.back().data());
      if (cfg_.entry.weights) owned_w_.push_back(gpu::DeviceArray<weight_t>::allocate(cfg_.partition_edges));
      stage_w_.push_back(cfg_.entry.weights ? owned_w_.back().data() : nullptr);
    } else {
      stage_n_.push_back(borrowed[b].neighbors);
      stage_w_.push_back(cfg_.entry.weights ? borrowed[b].weights : nullptr);
    }
    cudaStream_t s;
    TG_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    copy_streams_.push_back(s);
    cudaEvent_t loaded, freed;
    TG_CUDA(cudaEventCreateWithFlags(&loaded, cudaEventDisableTiming));
    TG_CUDA(cudaEventCreateWithFlags(&freed, cudaEventDisableTiming));
    loaded_.push_back(loaded);
    free_.push_back(freed);
  }
  TG_CUDA(cudaStreamCreateWithFlags(&resident_stream_, cudaStreamNonBlocking));
  TG_CUDA(cudaEventCreateWithFlags(&residents_loaded_, cudaEventDisableTiming));
  if (src_.file) {
    FileArrays arrays = *src_.file;
    if (!cfg_.entry.weights) arrays.weights_section = -1;
    const uint64_t edges = edges_of(src_);
    files_ = std::make_unique<FilePartitions>(arrays, static_cast<uint32_t>(sizeof(V)), edges, cfg_.partition_edges);
    register_file_memory();
    for (int b = 0; b < FilePartitions::kChunkBuffers; ++b) {
      cudaEvent_t e;
      TG_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      file_free_.push_back(e);
    }
  }

  const std::vector<EdgeRange>& parts = schedule_.partitions();
  std::vector<eid_t> split(2 * parts.size());
  std::vector<uint64_t> keys(2 * parts.size());
  for (size_t p = 0; p < parts.size(); ++p) {
    split[2 * p] = 0;
    split[2 * p + 1] = parts[p].edges();
    keys[2 * p] = parts[p].first;
    keys[2 * p + 1] = parts[p].last;
  }
  split_ = gpu::DeviceArray<eid_t>::allocate(split.size());
  keys_ = gpu::DeviceArray<uint64_t>::allocate(keys.size());
  bounds_ = gpu::DeviceArray<uint64_t>::allocate(keys.size());
  if (!split.empty()) {
    TG_CUDA(cudaMemcpy(split_.data(), split.data(), split.size() * sizeof(eid_t), cudaMemcpyHostToDevice));
    TG_CUDA(cudaMemcpy(keys_.data(), keys.data(), keys.size() * sizeof(uint64_t), cudaMemcpyHostToDevice));
  }
}

// Registered, so that each copy from them is a DMA the copy stream overlaps
// with the kernels (a copy from pageable memory is staged).
template <typename V>
void PartitionStreamer<V>::register_file_memory() {
  for (const auto& [p, bytes] : files_->memory()) {
    if (std::find(files_registered_.begin(), files_registered_.end(), p) != files_registered_.end()) continue;
    TG_CUDA(cudaHostRegister(p, bytes, cudaHostRegisterDefault));
    files_registered_.push_back(p);
  }
}

template <typename V>
uint64_t PartitionStreamer<V>::streamed_file_bytes() const {
  if (!files_) return 0;
  const uint64_t edges = edges_of(src_);
  return (edges - std::min<uint64_t>(edges, schedule_.resident_edges_used())) * cfg_.entry.bytes();
}

// The partitions past those resident in GPU memory (PT-Opt's first ones; PT
// keeps none there), which every iteration copies again; not the resident
// ones, which a run reads from the file once. Whole granules, so that the
// span's memory stays within `bytes`.
template <typename V>
std::pair<eid_t, uint64_t> PartitionStreamer<V>::host_cache_span(uint64_t bytes) const {
  const uint64_t granule = FilePartitions::kGranuleEdges;
  const uint64_t edges = edges_of(src_);
  const eid_t first = std::min<eid_t>(schedule_.resident_edges_used(), edges) / granule * granule;
  return {first, std::min<uint64_t>(bytes / cfg_.entry.bytes() / granule * granule, edges - first)};
}

template <typename V>
void PartitionStreamer<V>::release_stale_host_cache(uint64_t bytes) {
  if (!files_) return;
  const auto [first, count] = host_cache_span(bytes);
  files_->release_carried_unless(first, count);
}

template <typename V>
uint64_t PartitionStreamer<V>::keep_in_host(uint64_t bytes) {
  if (!files_) return 0;
  const auto [first, count] = host_cache_span(bytes);
  if (count == 0) return 0;
  files_->keep(first, count);
  register_file_memory();
  return files_->kept_bytes();
}

template <typename V>
PartitionStreamer<V>::~PartitionStreamer() {
  // Errors are ignored: a destructor may run while an error unwinds.
  for (cudaStream_t s : copy_streams_) cudaStreamSynchronize(s);
  if (resident_stream_) cudaStreamSynchronize(resident_stream_);
  for (void* p : files_registered_) cudaHostUnregister(p);
  for (cudaEvent_t e : file_free_) cudaEventDestroy(e);
  for (cudaEvent_t e : loaded_) cudaEventDestroy(e);
  for (cudaEvent_t e : free_) cudaEventDestroy(e);
  if (residents_loaded_) cudaEventDestroy(residents_loaded_);
  for (cudaStream_t s : copy_streams_) cudaStreamDestroy(s);
  if (resident_stream_) cudaStreamDestroy(resident_stream_);
  cudaGetLastError();
}

template <typename V>
uint64_t PartitionStreamer<V>::edge_bytes() const {
  const uint64_t staging = owned_n_.empty() ? 0 : cfg_.staging_buffers * cfg_.partition_edges;
  return (schedule_.resident_edges_used() + staging) * cfg_.entry.bytes();
}

template <typename V>
uint64_t PartitionStreamer<V>::vertex_bytes() const {
  return schedule_.partitions().size() * (2 * sizeof(eid_t) + 4 * sizeof(uint64_t)) +
         (identity_.size() + sorted_.size()) * sizeof(V);
}

template <typename V>
const V* PartitionStreamer<V>::identity() {
  if (identity_.size() == 0 && src_.n > 0) {
    identity_ = gpu::DeviceArray<V>::allocate(src_.n);
    kernels::iota<V><<<blocks_for(src_.n, sms_), kernels::kThreads>>>(identity_.data(), src_.n);
    TG_CUDA_CHECK_LAUNCH();
  }
  return identity_.data();
}

template <typename V>
const V* PartitionStreamer<V>::sorted(const V* list, uint64_t count) {
  if (count > src_.n)
    throw Error("partition streamer: " + std::to_string(count) + " active vertices in a graph of " +
                std::to_string(src_.n));
  if (sorted_.size() == 0 && src_.n > 0) sorted_ = gpu::DeviceArray<V>::allocate(src_.n);
  if (count == 0) return sorted_.data();
  int end_bit = 1;
  while (end_bit < 64 && (uint64_t{1} << end_bit) < src_.n) ++end_bit;
  V* out = sorted_.data();
  gpu::run_cub(pool_, [&](void* tmp, size_t& bytes) {
    return cub::DeviceRadixSort::SortKeys(tmp, bytes, list, out, count, 0, end_bit);
  });
  return out;
}

template <typename V>
std::vector<std::pair<uint64_t, uint64_t>> PartitionStreamer<V>::ranges_of(const V* active, uint64_t count) {
  const uint64_t keys = 2 * schedule_.partitions().size();
  std::vector<std::pair<uint64_t, uint64_t>> out(keys / 2);
  if (keys == 0) return out;
  if (count == 0) {
    for (auto& r : out) r = {0, 0};
    return out;
  }
  kernels::lower_bounds<V><<<blocks_for(keys, sms_), kernels::kThreads>>>(active, count, keys_.data(), keys,
                                                                         bounds_.data());
  TG_CUDA_CHECK_LAUNCH();
  std::vector<uint64_t> bounds(keys);
  TG_CUDA(cudaMemcpy(bounds.data(), bounds_.data(), keys * sizeof(uint64_t), cudaMemcpyDeviceToHost));
  for (size_t p = 0; p < out.size(); ++p) out[p] = {bounds[2 * p], bounds[2 * p + 1]};
  return out;
}

template <typename V>
void PartitionStreamer<V>::clip_staging(StreamIteration& it, eid_t begin, eid_t end) const {
  for (StreamStep& s : it.steps) {
    const EdgeRange& p = schedule_.partitions()[s.partition];
    if (s.load != StreamStep::Load::kStaging) continue;
    const eid_t first = std::clamp(begin, p.edge_begin, p.edge_end), last = std::clamp(end, first, p.edge_end);
    it.copied_edges -= s.copy_edges - (last - first);
    s.copy_from = first - p.edge_begin;
    s.copy_edges = last - first;
  }
}

template <typename V>
void PartitionStreamer<V>::issue_copy(const StreamStep& step, cudaStream_t stream, V* dst_n, weight_t* dst_w) {
  const EdgeRange& p = schedule_.partitions()[step.partition];
  // The partition's edges, or those inside a clip (run's [from, below)),
  // each at its place in the buffer: resident partitions at their own
  // positions, staging ones from 0 at the partition's first edge.
  const eid_t edges = step.copy_edges, first = p.edge_begin + step.copy_from;
  if (edges == 0) return;
  const eid_t at = (step.load == StreamStep::Load::kResident ? p.edge_begin : 0) + step.copy_from;
  if (files_) {
    // From the file, chunk by chunk, read on this thread while the GPU works
    // on the steps before: a chunk buffer once its last copy is done, each
    // piece copied on `stream` as it comes (the kept span's, read once, from
    // where it stays).
    files_->read(
        first, first + edges, [&](int b) { TG_CUDA(cudaEventSynchronize(file_free_[b])); },
        [&](const FilePartitions::Piece& piece) {
          const eid_t to = at + (piece.first - first);
          TG_CUDA(cudaMemcpyAsync(dst_n + to, piece.neighbors, piece.count * sizeof(V), cudaMemcpyHostToDevice, stream));
          if (cfg_.entry.weights)
            TG_CUDA(cudaMemcpyAsync(dst_w + to, piece.weights, piece.count * sizeof(weight_t), cudaMemcpyHostToDevice,
                                    stream));
          if (piece.buffer >= 0) TG_CUDA(cudaEventRecord(file_free_[piece.buffer], stream));
        });
    return;
  }
  TG_CUDA(cudaMemcpyAsync(dst_n + at, src_.neighbors_host + first, edges * sizeof(V), cudaMemcpyHostToDevice, stream));
  if (cfg_.entry.weights)
    TG_CUDA(cudaMemcpyAsync(dst_w + at, src_.weights_host + first, edges * sizeof(weight_t), cudaMemcpyHostToDevice,
                            stream));
}

template <typename V>
StreamUnit<V> PartitionStreamer<V>::unit_of(const StreamStep& step, const V* active) const {
  const EdgeRange& p = schedule_.partitions()[step.partition];
  StreamUnit<V> u;
  u.partition = step.partition;
  u.unit = partition_unit(p, step.active_lo, step.active_hi);
  const V* buf_n;
  const weight_t* buf_w = nullptr;
  if (step.load == StreamStep::Load::kStaging) {
    buf_n = stage_n_[step.staging_buffer];
    buf_w = stage_w_[step.staging_buffer];
  } else {
    buf_n = resident_n_.data() + p.edge_begin;
    if (cfg_.entry.weights) buf_w = resident_w_.data() + p.edge_begin;
  }
  present_unit(u.csr, u.unit, src_.offsets_device, buf_n, buf_w, split_.data() + 2 * step.partition);
  u.csr.neighbor_misalign = 0;
  u.frontier = active + step.active_lo;
  u.count = step.active_hi - step.active_lo;
  return u;
}

template class PartitionStreamer<uint32_t>;
template class PartitionStreamer<uint64_t>;

}  // namespace tg::subgraph
