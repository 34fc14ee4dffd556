// SubCSR generation on the GPU and piece loading (see subcsr_builder.cuh).
#include "engines/gpu/subgraph/subcsr_builder.cuh"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <chrono>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <span>

#include "core/env_count.h"
#include "core/error.h"
#include "engines/gpu/subgraph/decode_packed.cuh"
#include "engines/gpu/subgraph/subgraph_kernels.cuh"

namespace tg::subgraph {

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int device_sms() {
  int device = 0, sms = 1;
  TG_CUDA(cudaGetDevice(&device));
  TG_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

// Blocks for a grid-stride kernel over `items` threads' worth of work, at
// most `per_sm` a multiprocessor.
unsigned blocks_for(uint64_t threads, int sms, uint64_t per_sm = 16) {
  uint64_t b = gpu::div_up(threads, kernels::kThreads);
  uint64_t cap = static_cast<uint64_t>(sms) * std::max<uint64_t>(per_sm, 1);
  return static_cast<unsigned>(std::max<uint64_t>(1, std::min(b, cap)));
}

// The same for a piece's load (gather_lists, the decoders), which runs on
// its slot's stream beside the previous piece's push: a grid that fills
// every multiprocessor leaves the push no room until the load is done (a
// 51 M-edge piece's push takes 0.46 ms alone under ncu, 4.9 ms beside a
// load). Four blocks of 256 a multiprocessor still keep the link busy:
// kron:25 SSSP at a quarter budget on the H200, four sources twice, 203.3 ms
// against 211.6 with 16 (a full grid) and 214.0 with 2 (docs/PERF.md,
// session 32). TG_LOAD_BLOCKS_PER_SM sets it, to measure.
unsigned load_blocks_for(uint64_t threads, int sms) {
  return blocks_for(threads, sms, env_count("TG_LOAD_BLOCKS_PER_SM", 4));
}

// Key bits of vertex ids below n (radix sort passes).
int key_bits(uint64_t n) {
  int b = 1;
  while (b < 64 && (uint64_t{1} << b) < n) ++b;
  return b;
}

// gather_lists on `stream` over a piece's active[first, last): the lists at
// offsets[] in `from` (zero-copy), positions [begin, end) of sub[] copied to
// `to` (and `weights` to `to_weights`); `lines` counts the 128-byte lines.
template <typename T>
void launch_gather(const eid_t* offsets, const T* from, const weight_t* weights, const T* active, const eid_t* sub,
                   const EdgeRange& p, eid_t begin, eid_t end, T* to, weight_t* to_weights, uint64_t chunk,
                   unsigned long long* lines, cudaStream_t stream) {
  if (end == begin) return;
  kernels::GatherListsArgs<T> a;
  a.offsets = offsets;
  a.neighbors = from;
  a.weights = weights;
  a.active = active;
  a.sub = sub;
  a.first = p.first;
  a.last = p.last;
  a.edge_begin = begin;
  a.edge_end = end;
  a.out_neighbors = to;
  a.out_weights = to_weights;
  a.chunk = std::max<uint64_t>(chunk, 1);
  a.lines = lines;
  kernels::gather_lists<T><<<load_blocks_for(gpu::div_up(end - begin, a.chunk) * 32, device_sms()), kernels::kThreads, 0,
                             stream>>>(a);
  TG_CUDA_CHECK_LAUNCH();
}

}  // namespace


template <typename V>
SubcsrBuilder<V>::SubcsrBuilder(const SubcsrSource<V>& source, const SubcsrConfig& config)
    : src_(source), cfg_(config) {
  if (cfg_.slots == 0) throw Error("subgraph builder: 0 buffer slots");
  if (src_.offsets_device == nullptr && src_.n > 0) throw Error("subgraph builder: no device offsets");
  if (cfg_.weights && (src_.weights_host == nullptr))
    throw Error("subgraph builder: the algorithm reads weights but the graph has none");
  if (sizeof(V) != sizeof(uint32_t) || cfg_.slots < 2 || (cfg_.weights && !src_.packed_weights))
    src_.packed_words_mapped = nullptr;  // packed lists serve 4-byte ids, two slots, and the weights read
  if (src_.packed_words_mapped != nullptr && src_.packed_offsets_device == nullptr)
    throw Error("subgraph builder: packed lists without their offsets");
  size_slots();
  const uint64_t n = src_.n;
  active_ = gpu::DeviceArray<V>::allocate(std::max<uint64_t>(n, 1));
  sub_ = gpu::DeviceArray<eid_t>::allocate(n + 1);
  full_ = gpu::DeviceArray<eid_t>::allocate(n + 1);
  TG_CUDA(cudaMemset(full_.data(), 0, (n + 1) * sizeof(eid_t)));
  if (src_.packed_words_mapped != nullptr) {
    psub_ = gpu::DeviceArray<eid_t>::allocate(n + 1);
    scratch_ = gpu::DeviceArray<uint32_t>::allocate(
        (cfg_.budget_bytes - sizing_.total_bytes()) / sizeof(uint32_t));
  }
  split_ = gpu::DeviceArray<eid_t>::allocate(2 * uint64_t{cfg_.slots});
  counter_ = gpu::DeviceArray<unsigned long long>::allocate(1);
  // Room for the pieces of a SubCSR of every edge (finish_build's bound).
  const uint64_t all_edges = src_.offsets_host != nullptr ? src_.offsets_host[n] : 0;
  planned_ = gpu::DeviceArray<EdgeRange>::allocate(2 * (all_edges / sizing_.capacity_edges + 1));
  lines_ = gpu::DeviceArray<unsigned long long>::allocate(cfg_.slots);
  for (uint32_t s = 0; s < cfg_.slots; ++s) {
    buf_n_.push_back(gpu::DeviceArray<V>::allocate(sizing_.capacity_edges));
    if (cfg_.weights) buf_w_.push_back(gpu::DeviceArray<weight_t>::allocate(sizing_.capacity_edges));
    cudaStream_t stream;
    TG_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    streams_.push_back(stream);
    cudaEvent_t event;
    TG_CUDA(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    copied_.push_back(event);
    for (auto* events : {&began_, &ended_}) {
      TG_CUDA(cudaEventCreate(&event));
      events->push_back(event);
    }
  }
  TG_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&host_lines_), cfg_.slots * sizeof(unsigned long long),
                        cudaHostAllocDefault));
  main_ = src_;
}

template <typename V>
void SubcsrBuilder<V>::set_light_lists(const SubcsrSource<V>& light) {
  if (main_.packed_words_mapped == nullptr || light.n != main_.n) return;
  if (light.offsets_device == nullptr || light.offsets_host == nullptr || light.packed_words_mapped == nullptr ||
      light.packed_offsets_device == nullptr || (cfg_.weights && (!light.packed_weights || light.weights_mapped == nullptr)))
    throw Error("subgraph builder: light lists without their offsets, packed words or weights");
  light_ = light;
  has_light_ = true;
}

// The slots share the budget; where the GPU way reads packed lists, a scratch
// for one piece's packed words takes its part first, 1.25 times the packed
// share of a slot (kron:25 with byte weights: 0.42 of the plain bytes, so the
// slots hold 21% fewer entries), and piece k + 1 crosses into it while piece
// k is pushed from its slot (it crossed into the other slot's buffer until
// then, and the push waited for it). Where the packed lists save too little,
// or their scratch would leave the slots under the minimum, they cross plain.
template <typename V>
void SubcsrBuilder<V>::size_slots() {
  const EdgeEntry entry{sizeof(V), cfg_.weights};
  const std::string what = "the subgraph edge budget (--gpu-mem)";
  if (src_.packed_words_mapped != nullptr) {
    const double plain = src_.offsets_host != nullptr ? double(src_.offsets_host[src_.n]) * double(entry.bytes()) : 0;
    const double share = plain > 0 ? 1.25 * double(src_.packed_words) * sizeof(uint32_t) / plain : 1;
    const uint64_t slot_bytes = uint64_t(double(cfg_.budget_bytes) * cfg_.slots / (cfg_.slots + share));
    const uint64_t capacity = slot_bytes / cfg_.slots / entry.bytes() / kBufferGranule * kBufferGranule;
    if (share < 0.9 && capacity >= kBufferGranule) {
      sizing_ = size_buffers(slot_bytes, entry, cfg_.slots, what);
      return;
    }
    src_.packed_words_mapped = nullptr;
  }
  sizing_ = size_buffers(cfg_.budget_bytes, entry, cfg_.slots, what);
}

template <typename V>
SubcsrBuilder<V>::~SubcsrBuilder() {
  // Errors are ignored: a destructor may run while an error unwinds.
  for (cudaStream_t s : streams_) cudaStreamSynchronize(s);
  for (auto* events : {&copied_, &began_, &ended_})
    for (cudaEvent_t e : *events) cudaEventDestroy(e);
  if (host_lines_) cudaFreeHost(host_lines_);
  for (cudaStream_t s : streams_) cudaStreamDestroy(s);
  if (host_active_) cudaFreeHost(host_active_);
  if (host_sub_) cudaFreeHost(host_sub_);
  for (V* p : stage_n_) cudaFreeHost(p);
  for (weight_t* p : stage_w_) cudaFreeHost(p);
  cudaGetLastError();
}

template <typename V>
uint64_t SubcsrBuilder<V>::vertex_bytes() const {
  return std::max<uint64_t>(src_.n, 1) * sizeof(V) * 2 + (src_.n + 1) * sizeof(eid_t) * (psub_.size() > 0 ? 3 : 2);
}

template <typename V>
SubcsrShape SubcsrBuilder<V>::build_from_bitmap(const uint32_t* bits) {
  const double start = now_s();
  src_ = main_;
  limit_ = kWholeList;
  count_ = 0;
  if (src_.n > 0) {
    V* out = active_.data();
    unsigned long long* selected = counter_.data();
    const int64_t n = static_cast<int64_t>(src_.n);
    gpu::run_cub(pool_, [&](void* tmp, size_t& bytes) {
      return cub::DeviceSelect::If(tmp, bytes, thrust::counting_iterator<V>(0), out, selected, n,
                                   kernels::InBitmap<V>{bits});
    });
    unsigned long long c = 0;
    TG_CUDA(cudaMemcpy(&c, selected, sizeof c, cudaMemcpyDeviceToHost));
    count_ = c;
  }
  return finish_build(start);
}

template <typename V>
SubcsrShape SubcsrBuilder<V>::build_from_list(const V* list, uint64_t count, bool sorted, bool light, eid_t limit) {
  const double start = now_s();
  if (light && !has_light_) throw Error("subgraph builder: a build of light lists, and none were given");
  if (limit == 0) throw Error("subgraph builder: a build of lists limited to 0 entries");
  src_ = light ? light_ : main_;
  limit_ = limit;
  if (count > src_.n)
    throw Error("subgraph builder: " + std::to_string(count) + " active vertices in a graph of " +
                std::to_string(src_.n));
  count_ = count;
  if (count > 0) {
    V* out = active_.data();
    if (list == nullptr) {
      kernels::iota<V><<<blocks_for(count, device_sms()), kernels::kThreads>>>(out, count);
      TG_CUDA_CHECK_LAUNCH();
    } else if (sorted) {
      TG_CUDA(cudaMemcpy(out, list, count * sizeof(V), cudaMemcpyDeviceToDevice));
    } else {
      const int end_bit = key_bits(src_.n);
      gpu::run_cub(pool_, [&](void* tmp, size_t& bytes) {
        return cub::DeviceRadixSort::SortKeys(tmp, bytes, list, out, count, 0, end_bit);
      });
    }
  }
  return finish_build(start);
}

template <typename V>
SubcsrShape SubcsrBuilder<V>::finish_build(double start) {
  host_active_valid_ = false;
  host_sub_valid_ = false;
  pieces_.clear();
  total_ = 0;
  if (count_ > 0) {
    auto degrees = thrust::make_transform_iterator(
        thrust::counting_iterator<uint64_t>(0), kernels::ActiveDegree<V>{active_.data(), src_.offsets_device, count_, limit_});
    eid_t* sub = sub_.data();
    const uint64_t items = count_ + 1;
    gpu::run_cub(pool_, [&](void* tmp, size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(tmp, bytes, degrees, sub, items);
    });
    kernels::scatter_sub_offsets<V><<<blocks_for(count_, device_sms()), kernels::kThreads>>>(active_.data(), sub, count_,
                                                                                             full_.data());
    TG_CUDA_CHECK_LAUNCH();
    if (psub_.size() > 0 && limit_ == kWholeList) {
      // The same scan over the packed lists' words.
      auto words = thrust::make_transform_iterator(
          thrust::counting_iterator<uint64_t>(0), kernels::ActiveDegree<V>{active_.data(), src_.packed_offsets_device, count_});
      eid_t* psub = psub_.data();
      gpu::run_cub(pool_, [&](void* tmp, size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(tmp, bytes, words, psub, items);
      });
    }
    TG_CUDA(cudaMemcpy(&total_, sub + count_, sizeof total_, cudaMemcpyDeviceToHost));
    if (total_ <= sizing_.capacity_edges) {
      pieces_.push_back(EdgeRange{0, count_, 0, total_, false});
    } else {
      // Oversized: cut into pieces in GPU memory (plan_ranges_greedy); the
      // CPU way brings the sub-offsets over when it gathers (ensure_host_lists).
      // 2 (total / capacity + 1) ranges nearly always suffice (a greedy range
      // and the next hold more than a buffer between them); when they do not,
      // the kernel has counted how many are needed and runs again with room.
      const uint64_t capacity = sizing_.capacity_edges;
      unsigned long long needed = 0;
      for (uint64_t room = 2 * (total_ / capacity + 1);; room = needed) {
        if (planned_.size() < room) planned_ = gpu::DeviceArray<EdgeRange>::allocate(room);
        kernels::plan_ranges_greedy<EdgeRange><<<1, 1>>>(sub, count_, capacity, planned_.data(), planned_.size(),
                                                         counter_.data());
        TG_CUDA_CHECK_LAUNCH();
        TG_CUDA(cudaMemcpy(&needed, counter_.data(), sizeof needed, cudaMemcpyDeviceToHost));
        if (needed <= planned_.size()) break;
      }
      pieces_.resize(needed);
      TG_CUDA(cudaMemcpy(pieces_.data(), planned_.data(), needed * sizeof(EdgeRange), cudaMemcpyDeviceToHost));
    }
  }
  SubcsrShape shape;
  shape.active_vertices = count_;
  shape.active_edges = total_;
  shape.pieces = pieces_.size();
  shape.generate_s = now_s() - start;
  return shape;
}

template <typename V>
void SubcsrBuilder<V>::ensure_host_lists(LoadedPiece<V>& out) {
  if (host_active_ == nullptr)
    TG_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&host_active_), std::max<uint64_t>(src_.n, 1) * sizeof(V),
                          cudaHostAllocDefault));
  if (host_sub_ == nullptr)
    TG_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&host_sub_), (src_.n + 1) * sizeof(eid_t), cudaHostAllocDefault));
  if (!host_active_valid_) {
    TG_CUDA(cudaMemcpy(host_active_, active_.data(), count_ * sizeof(V), cudaMemcpyDeviceToHost));
    out.bytes_to_host += count_ * sizeof(V);
    host_active_valid_ = true;
  }
  if (!host_sub_valid_) {
    TG_CUDA(cudaMemcpy(host_sub_, sub_.data(), (count_ + 1) * sizeof(eid_t), cudaMemcpyDeviceToHost));
    out.bytes_to_host += (count_ + 1) * sizeof(eid_t);
    host_sub_valid_ = true;
  }
}

template <typename V>
void SubcsrBuilder<V>::prepare_cpu_gather() {
  if (host_sub_ == nullptr)
    TG_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&host_sub_), (src_.n + 1) * sizeof(eid_t), cudaHostAllocDefault));
  if (host_active_ == nullptr)
    TG_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&host_active_), std::max<uint64_t>(src_.n, 1) * sizeof(V),
                          cudaHostAllocDefault));
  ensure_staging();
}

template <typename V>
void SubcsrBuilder<V>::ensure_staging() {
  if (!stage_n_.empty()) return;
  for (uint32_t s = 0; s < cfg_.slots; ++s) {
    V* n = nullptr;
    TG_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&n), sizing_.capacity_edges * sizeof(V), cudaHostAllocDefault));
    stage_n_.push_back(n);
    if (cfg_.weights) {
      weight_t* w = nullptr;
      TG_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&w), sizing_.capacity_edges * sizeof(weight_t),
                            cudaHostAllocDefault));
      stage_w_.push_back(w);
    }
  }
}

template <typename V>
void SubcsrBuilder<V>::begin_load(uint64_t piece, uint32_t slot, GatherWay way) {
  if (pending_) throw Error("subgraph builder: a load begun before the last one ended");
  if (piece >= pieces_.size())
    throw Error("subgraph builder: piece " + std::to_string(piece) + " of " + std::to_string(pieces_.size()));
  if (slot >= cfg_.slots) throw Error("subgraph builder: slot " + std::to_string(slot) + " of " + std::to_string(cfg_.slots));
  const EdgeRange& p = pieces_[piece];
  const eid_t len = p.edges();
  LoadedPiece<V> out;
  out.slot = slot;
  uint64_t split_vertex = 0;
  if (p.split) {
    V v;
    TG_CUDA(cudaMemcpy(&v, active_.data() + p.first, sizeof(V), cudaMemcpyDeviceToHost));
    split_vertex = v;
  }
  out.unit = piece_unit(p, split_vertex);
  V* dn = buf_n_[slot].data();
  weight_t* dw = cfg_.weights ? buf_w_[slot].data() : nullptr;
  cudaStream_t stream = streams_[slot];
  eid_t* split = split_.data() + 2 * uint64_t{slot};
  if (p.split) {
    kernels::set_pair<eid_t><<<1, 1, 0, stream>>>(split, eid_t{0}, len);
    TG_CUDA_CHECK_LAUNCH();
  }

  pending_gpu_ = way == GatherWay::kGpu;
  if (way == GatherWay::kGpu && load_packed(p, slot)) {
    out.packed = true;  // read packed into the scratch, decoded into the slot
  } else if (way == GatherWay::kGpu) {
    if (src_.neighbors_mapped == nullptr || (cfg_.weights && src_.weights_mapped == nullptr))
      throw Error("subgraph builder: the GPU gather needs the edge array mapped for zero-copy");
    over_link(slot, [&](unsigned long long* lines) {
      launch_gather<V>(src_.offsets_device, src_.neighbors_mapped, cfg_.weights ? src_.weights_mapped : nullptr,
                       active_.data(), sub_.data(), p, p.edge_begin, p.edge_end, dn, dw, cfg_.gpu_chunk_edges, lines,
                       stream);
    });
  } else {
    ensure_host_lists(out);
    ensure_staging();
    TG_CUDA(cudaEventSynchronize(copied_[slot]));  // the slot's last copy has left the staging buffer
    V* sn = stage_n_[slot];
    weight_t* sw = cfg_.weights ? stage_w_[slot] : nullptr;
    const std::span<const V> active(host_active_, count_);
    const std::span<const eid_t> sub(host_sub_, count_ + 1);
    const uint64_t step = std::max<uint64_t>(cfg_.cpu_pipeline_edges, 1);
    double gather = 0;
    for (eid_t a = p.edge_begin; a < p.edge_end;) {
      const eid_t b = p.edge_end - a > step ? a + step : p.edge_end;
      const uint64_t at = a - p.edge_begin;
      const double t = now_s();
      gather_edges_cpu<V>(src_.offsets_host, src_.neighbors_host, sw ? src_.weights_host : nullptr, active, sub, a, b,
                          sn + at, sw ? sw + at : nullptr, cfg_.cpu_chunk_edges);
      gather += now_s() - t;
      // Copied while the threads gather the next chunk.
      TG_CUDA(cudaMemcpyAsync(dn + at, sn + at, (b - a) * sizeof(V), cudaMemcpyHostToDevice, stream));
      if (sw) TG_CUDA(cudaMemcpyAsync(dw + at, sw + at, (b - a) * sizeof(weight_t), cudaMemcpyHostToDevice, stream));
      a = b;
    }
    TG_CUDA(cudaEventRecord(copied_[slot], stream));
    const double t = now_s();
    TG_CUDA(cudaStreamSynchronize(stream));
    out.gather_s = gather;
    out.copy_s = now_s() - t;
  }
  out.bytes_to_device = len * sizing_.entry.bytes();
  if (way == GatherWay::kCpu) out.link_bytes = out.bytes_to_device + out.bytes_to_host;
  present_unit(out.csr, out.unit, full_.data(), static_cast<const V*>(dn), static_cast<const weight_t*>(dw), split);
  out.csr.neighbor_misalign = 0;
  out.frontier = active_.data() + p.first;
  out.count = p.items();
  loading_ = out;
  pending_ = true;
}

template <typename V>
LoadedPiece<V> SubcsrBuilder<V>::end_load() {
  if (!pending_) throw Error("subgraph builder: no load begun");
  pending_ = false;
  LoadedPiece<V> out = loading_;
  if (pending_gpu_) {
    const uint32_t slot = out.slot;
    TG_CUDA(cudaEventSynchronize(ended_[slot]));
    float ms = 0;
    TG_CUDA(cudaEventElapsedTime(&ms, began_[slot], ended_[slot]));
    out.gather_s = ms * 1e-3;
    // Packed words resident in GPU memory (light lists) cross no link.
    out.link_bytes = out.packed && src_.packed_words_resident ? 0 : host_lines_[slot] * 128;
  }
  return out;
}

// The GPU way over packed lists: gather_lists reads the piece's packed lists
// over zero-copy into the scratch (kron:25: 3.3 bytes an entry, sized by
// size_slots), then the decoders write the slot's ids and weights. False, for
// the plain way, where the source is not packed, the piece is part of a split
// list, or its packed words exceed the scratch.
template <typename V>
bool SubcsrBuilder<V>::load_packed(const EdgeRange& p, uint32_t slot) {
  if constexpr (sizeof(V) != sizeof(uint32_t)) {
    return false;
  } else {
    if (src_.packed_words_mapped == nullptr || p.split || p.edges() == 0 || limit_ != kWholeList) return false;
    eid_t ends[2];
    TG_CUDA(cudaMemcpy(&ends[0], psub_.data() + p.first, sizeof(eid_t), cudaMemcpyDeviceToHost));
    TG_CUDA(cudaMemcpy(&ends[1], psub_.data() + p.last, sizeof(eid_t), cudaMemcpyDeviceToHost));
    if (ends[1] - ends[0] > scratch_.size()) return false;
    cudaStream_t stream = streams_[slot];
    const int sms = device_sms();
    over_link(slot, [&](unsigned long long* lines) {
      launch_gather<uint32_t>(src_.packed_offsets_device, src_.packed_words_mapped, nullptr,
                              reinterpret_cast<const uint32_t*>(active_.data()), psub_.data(), p, ends[0], ends[1],
                              scratch_.data(), nullptr, cfg_.gpu_chunk_edges, lines, stream);
      decode(p, ends[0], slot, sms, stream);
    });
    return true;
  }
}

// The piece's packed lists, read into the scratch from word `word_begin` on,
// decoded into the slot's buffers (decode_packed.cuh).
template <typename V>
void SubcsrBuilder<V>::decode(const EdgeRange& p, eid_t word_begin, uint32_t slot, int sms, cudaStream_t stream) {
  kernels::DecodePackedArgs d;
  d.words = scratch_.data();
  d.sub = sub_.data();
  d.psub = psub_.data();
  d.first = p.first;
  d.last = p.last;
  d.edge_begin = p.edge_begin;
  d.edge_end = p.edge_end;
  d.word_begin = word_begin;
  d.weights = cfg_.weights;
  d.out_ids = reinterpret_cast<uint32_t*>(buf_n_[slot].data());
  d.out_weights = cfg_.weights ? buf_w_[slot].data() : nullptr;
  kernels::decode_short_lists<<<load_blocks_for(p.items(), sms), kernels::kThreads, 0, stream>>>(d);
  TG_CUDA_CHECK_LAUNCH();
  kernels::decode_long_lists<<<load_blocks_for(gpu::div_up(p.edges(), kPackedChunk) * 32, sms), kernels::kThreads, 0,
                               stream>>>(d);
  TG_CUDA_CHECK_LAUNCH();
}

template <typename V>
template <typename Launch>
void SubcsrBuilder<V>::over_link(uint32_t slot, Launch&& launch) {
  cudaStream_t stream = streams_[slot];
  unsigned long long* lines = lines_.data() + slot;
  TG_CUDA(cudaMemsetAsync(lines, 0, sizeof *lines, stream));
  TG_CUDA(cudaEventRecord(began_[slot], stream));
  launch(lines);
  TG_CUDA(cudaMemcpyAsync(host_lines_ + slot, lines, sizeof *lines, cudaMemcpyDeviceToHost, stream));
  TG_CUDA(cudaEventRecord(ended_[slot], stream));
}

template class SubcsrBuilder<uint32_t>;
template class SubcsrBuilder<uint64_t>;

}  // namespace tg::subgraph
