// Placing a graph's edges for the GPU engine: device memory, managed memory
// (UVM), or pinned host memory read in place (zero-copy), within the budget.
#include "engines/gpu/placed_graph.h"

#include <cuda_runtime.h>

#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "core/env_count.h"
#include "core/env_switch.h"
#include "core/error.h"
#include "core/host_mapping.h"
#include "engines/edge_cache_plan.h"
#include "engines/edge_cache_request.h"
#include "engines/gpu/cuda_util.h"
#include "engines/gpu/edge_cache.h"
#include "engines/gpu/packed_encoder.h"
#include "engines/gpu/subgraph/file_partitions.h"
#include "engines/gpu/subgraph/partition_streamer.cuh"
#include "engines/gpu_footprint.h"
#include "graph/packed_lists.h"
#include "graph/weight_order.h"
#include "graph/relabel.h"

namespace tg::gpu {

Access access_of(Placement p) {
  switch (p) {
    case Placement::kDevice: return Access::kDevice;
    case Placement::kUvm: return Access::kUvm;
    case Placement::kZeroCopyNaive: return Access::kNaive;
    case Placement::kZeroCopyMerged: return Access::kMerged;
    case Placement::kZeroCopyAligned: return Access::kAligned;
    case Placement::kAuto:  // resolved before this is asked
    case Placement::kSubgraph:
    case Placement::kStream: return Access::kDevice;  // the kernels read device buffers
  }
  return Access::kDevice;
}

bool init_cuda(int device, std::string* reason) {
  static std::mutex mutex;
  static bool done = false;
  static bool ok = false;
  static std::string why;
  std::lock_guard<std::mutex> lock(mutex);
  if (!done) {
    done = true;
    // Load every kernel when the context is created, not at its first launch
    // inside a timed region.
    setenv("CUDA_MODULE_LOADING", "EAGER", 0);
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice) {
      // CUDA's wording for "this machine has no NVIDIA driver" confuses users
      why = "no NVIDIA GPU or driver found";
      cudaGetLastError();
    } else if (e != cudaSuccess) {
      why = cudaGetErrorString(e);
      cudaGetLastError();
    } else if (count == 0) {
      why = "no CUDA device found";
    } else {
      ok = true;
    }
  }
  if (!ok) {
    if (reason) *reason = why;
    return false;
  }
  int count = 0;
  cudaGetDeviceCount(&count);
  if (device < 0 || device >= count) {
    if (reason) *reason = "GPU " + std::to_string(device) + " does not exist (" + std::to_string(count) + " found)";
    return false;
  }
  cudaError_t e = cudaSetDevice(device);
  if (e == cudaSuccess) e = cudaFree(nullptr);  // creates the context
  if (e != cudaSuccess) {
    if (reason) *reason = cudaGetErrorString(e);
    cudaGetLastError();
    return false;
  }
  return true;
}

namespace {

std::string gib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / double(uint64_t{1} << 30));
  return buf;
}

}  // namespace

template <typename V>
PlacedGraph<V>::PlacedGraph(const Graph<V>& graph, const EdgeReads& reads, const GpuOptions& options)
    : device_(options.device) {
  std::string reason;
  if (!init_cuda(options.device, &reason)) throw Error("no usable GPU: " + reason);
  cudaDeviceProp prop;
  TG_CUDA(cudaGetDeviceProperties(&prop, device_));
  size_t free_bytes = 0, total_bytes = 0;
  TG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));

  const uint64_t n = graph.num_vertices;
  // The planner (auto) may choose a streamed placement: count its arrays too.
  const bool streamed = is_streamed(options.placement) || (options.placement == Placement::kAuto && options.choose_auto);
  const GpuFootprint footprint = gpu_footprint(size_of(graph), reads, streamed);
  const uint64_t edge_bytes = footprint.edge_bytes, vertex_bytes = footprint.vertex_bytes;
  if (vertex_bytes + kGpuMemoryMargin > free_bytes)
    throw Error("the GPU engine needs " + gib(vertex_bytes) + " of GPU memory for vertex data (offsets, values, " +
                "frontiers) of " + std::to_string(n) + " vertices, but only " + gib(free_bytes) + " of " +
                gib(total_bytes) + " is free on " + prop.name);
  const uint64_t room = free_bytes - vertex_bytes - kGpuMemoryMargin;
  const uint64_t budget = options.memory_budget > 0 ? options.memory_budget : room;

  placement_ = options.placement;
  if (placement_ == Placement::kAuto && options.choose_auto)
    placement_ = options.choose_auto(AutoPlacementContext{edge_bytes, budget, room});
  if (placement_ == Placement::kAuto)
    placement_ = edge_bytes <= budget && edge_bytes <= room ? Placement::kDevice : Placement::kZeroCopyAligned;
  if (options.gather_layout == GatherLayout::kShards && placement_ != Placement::kDevice)
    throw Error("--gather-layout shards needs the device placement (the in-edges in GPU memory); the placement is " +
                std::string(name_of(placement_)));
  if (placement_ == Placement::kDevice || placement_ == Placement::kUvm) {
    const std::string name(name_of(placement_));
    if (edge_bytes > budget)
      throw Error(std::string("placement ") + name + " needs " + gib(edge_bytes) +
                  " of GPU memory for the edge array, over the budget of " + gib(budget) +
                  " (--gpu-mem); use --placement zerocopy-aligned, or auto");
    if (edge_bytes > room)
      throw Error(std::string("placement ") + name + " needs " + gib(edge_bytes) + " for the edge array plus " +
                  gib(vertex_bytes) + " for vertex data, but only " + gib(free_bytes) + " is free on " + prop.name +
                  (placement_ == Placement::kUvm ? " (managed memory beyond free memory is refused: it can hang the GPU)"
                                                 : "") +
                  "; use --placement zerocopy-aligned, or auto");
  }

  view_.n = n;
  view_.numbered_by_degree = tg::numbered_by_degree(graph.out, n);
  view_.in_degrees = degree_bands(graph.directed && graph.in.built() ? graph.in : graph.out, n);
  view_.m = graph.num_edges();
  view_.symmetric = !graph.directed;
  view_.access = access_of(placement_);
  view_.sms = prop.multiProcessorCount;
  if (is_streamed(placement_)) {
    StreamedOptions& s = view_.streamed;
    s.enabled = true;
    s.stream = placement_ == Placement::kStream;
    if (!(options.stream_threshold >= 0 && options.stream_threshold <= 1))
      throw usage_error("--stream-threshold must lie in [0, 1]");
    s.mode = options.stream_mode;
    s.async = options.async;
    s.stream_threshold = options.stream_threshold;
    s.gather = options.gather;
    s.budget = budget;
  } else if (options.async) {
    throw usage_error("--async needs --placement subgraph or stream, not " + std::string(name_of(placement_)));
  }
  if (!options.edge_file.empty()) {
    // --host-mem: the edges stay in the file; only the stream placement
    // reads them from there (its copies of whole partitions), the others
    // read host memory from their kernels or gathers.
    if (placement_ != Placement::kStream)
      throw usage_error("--host-mem on the GPU: --placement stream only (" + std::string(name_of(placement_)) +
                        " reads the edges from host memory)");
    view_.edge_file = std::make_shared<const paged::EdgeFile>(options.edge_file, n, graph.num_edges(),
                                                              static_cast<uint32_t>(sizeof(V)));
    view_.host_mem_budget = options.host_mem_budget;
    view_.host_edge_cache = options.host_edge_cache;
    view_.host_cache_leaves = options.host_cache_leaves;
    view_.push_kept = std::make_shared<subgraph::KeptSpan>();
    view_.gather_kept = std::make_shared<subgraph::KeptSpan>();
    view_.push_resident = std::make_shared<subgraph::ResidentPartitions<V>>();
    view_.gather_resident = std::make_shared<subgraph::ResidentPartitions<V>>();
  }

  auto start = std::chrono::steady_clock::now();
  place_csr(graph.out, view_.out, footprint.out_edges, footprint.weights, formats::kOutNeighbors, formats::kOutWeights);
  if (footprint.directed_in)
    place_csr(graph.in, view_.in, true, footprint.weights, formats::kInNeighbors, formats::kInWeights);
  if (is_zero_copy(placement_)) {
    place_edge_cache(graph, edge_cache_request(graph, footprint, edge_cache_budget(placement_, options.edge_cache, budget, room)),
                     options.edge_cache);
  } else if (view_.streamed.enabled && !view_.streamed.async && view_.out.view.neighbors != nullptr) {
    // CC's sample by pushes reads each list's first entries from GPU memory,
    // not a request a list over the link; the edge buffers do without them.
    // (--async pushes whole lists: no cache.)
    if (const int heads = streamed_heads_cache(size_of(graph), reads, footprint, options.edge_cache, budget, room)) {
      place_edge_cache(graph, heads_cache_request(graph, footprint, heads), options.edge_cache);
      view_.streamed.budget -= stats_.edge_cache->bytes;
    }
  }
  if (footprint.in_edges && !graph.directed) view_.in = view_.out;  // its cache too
  if constexpr (sizeof(V) == 4) {
    // A streamed placement copies lists over the link every iteration: packed, fewer bytes. Its
    // gathers' in-lists (without weights), and the subgraph placement's pushes' out-lists, with
    // byte weights where the run reads weights and they fit (GAP's 1..255).
    const bool pack = view_.streamed.enabled && !view_.edge_file && options.packed_lists == PackedListsMode::kAuto &&
                      n <= kPackedMaxVertices;
    if (pack && footprint.in_edges && !footprint.weights)
      stats_.packed_lists = place_packed_lists(graph.in_edges(), view_.in, false);
    if (pack && !view_.streamed.stream && reads.out_edges != Need::kNo && footprint.out_edges &&
        (!footprint.weights || weights_fit_bytes(graph.out))) {
      if (view_.in.packed_words != nullptr && !graph.directed && !footprint.weights) {
        view_.out.packed_words = view_.in.packed_words;  // the same lists
        view_.out.packed_words_mapped = view_.in.packed_words_mapped;
        view_.out.packed_host_offsets = view_.in.packed_host_offsets;
        view_.out.packed_offsets = view_.in.packed_offsets;
      } else {
        PackedListsStats st = stats_.packed_lists.value_or(PackedListsStats{});
        st += place_packed_lists(graph.out, view_.out, footprint.weights);
        stats_.packed_lists = st;
      }
      // On unless TG_LIGHT_LISTS=0: kron:25 at a quarter budget, four sources twice, split at a quarter
      // of the mean 209.9 ms against 233.8 unsplit, 6.0 GB over the link against 8.2 (docs/SUBWAY.md
      // "Light lists").
      if (view_.out.packed_weights && reads.light_below > 0 && view_.streamed.gather != GatherWay::kCpu &&
          env_count("TG_LIGHT_LISTS", 1) != 0)
        place_light_lists(graph.out, reads.light_below);
    }
  }
  if (placement_ == Placement::kDevice && view_.in.placed) {
    const uint64_t room = budget > edge_bytes ? budget - edge_bytes : 0;
    if (options.gather_layout == GatherLayout::kShards)
      view_.gather_shards = std::make_shared<GatherShards<V>>(room);
    else
      view_.source_blocks = std::make_shared<SourceBlocks<V>>(options.source_blocks,
                                                              static_cast<uint64_t>(prop.l2CacheSize), room);
  }
  TG_CUDA(cudaDeviceSynchronize());
  transfer_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  stats_.gpu = prop.name;
  stats_.budget_bytes = budget;
  stats_.gpu_free_bytes = free_bytes;
  stats_.edge_bytes = edge_bytes;
  stats_.vertex_bytes_estimate = vertex_bytes;
  stats_.transfer_bytes = transfer_bytes_;
}

// A CSR's lists packed (graph/packed_lists.h) into pinned host memory, which
// the streamed source copies (partitions) or gathers (zero-copy) from, and
// their offsets in GPU memory; the encoder's pass is part of the transfer
// phase.
template <typename V>
PackedListsStats PlacedGraph<V>::place_packed_lists(const Csr<V>& csr, PlacedCsr<V>& out, bool with_weights,
                                                   std::vector<eid_t> offsets) {
  PackedListsStats st;
  if constexpr (sizeof(V) == 4) {
    const uint64_t n = view_.n;
    const auto t0 = std::chrono::steady_clock::now();
    auto& hold = *packed_.emplace_back(std::make_unique<PackedHold>());
    // TG_GPU_PACK=1: the encoder on the GPU over the mapped plain lists, the array
    // registered as place_bytes would (packed_encoder.h: exact, slower than the CPU's where measured).
    if (gpu_packing_asked() && out.view.neighbors != nullptr && (!with_weights || out.view.weights != nullptr)) {
      if (auto p = gpu_pack_lists(n, out.view.offsets, reinterpret_cast<const uint32_t*>(out.view.neighbors),
                                  out.view.weights, with_weights)) {
        hold.offsets = std::move(p->offsets);
        hold.words = std::move(p->words);
        registered_.push_back(hold.words.data());
        pinned_host_.emplace_back(hold.words.data(), p->mapped);
        placed_.emplace_back(hold.words.data(), p->mapped);
      }
    }
    const bool on_gpu = !hold.offsets.empty();
    // Else packed on the CPU into ordinary memory (the encoder's threads fault
    // its pages in side by side), then pinned in place by place_bytes as the
    // plain lists are (a pinned copy where registering fails, as small arrays
    // did in the tests): on the H200, kron:25's encoder and registration took
    // 0.77 + 0.2 s, where the encoder writing into a cudaHostAlloc of the
    // 2.4 GB took 2.84 s (docs/PERF.md).
    if (!on_gpu) {
      hold.offsets = offsets.empty() ? packed_offsets(csr, n, with_weights) : std::move(offsets);
      hold.words = Array<uint32_t>::allocate(std::max<uint64_t>(hold.offsets[n], 1));
      pack_lists(csr, n, hold.offsets, hold.words.data(), with_weights);
    }
    st.entries = csr.num_edges();
    st.plain_bytes = csr.num_edges() * (sizeof(V) + (with_weights ? sizeof(weight_t) : 0));
    st.bytes = hold.offsets[n] * sizeof(uint32_t);
    st.build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    st.weights = with_weights;
    st.gpu_encoder = on_gpu;
    const uint32_t* mapped = place_bytes(hold.words.data(), hold.words.size());
    eid_t* offsets = nullptr;
    TG_CUDA(cudaMalloc(&offsets, (n + 1) * sizeof(eid_t)));
    device_allocs_.push_back(offsets);
    TG_CUDA(cudaMemcpy(offsets, hold.offsets.data(), (n + 1) * sizeof(eid_t), cudaMemcpyHostToDevice));
    out.packed_words = static_cast<const uint32_t*>(host_of(mapped));
    out.packed_words_mapped = mapped;
    out.packed_host_offsets = hold.offsets.data();
    out.packed_offsets = offsets;
    out.packed_weights = with_weights;
  }
  return st;
}

// SSSP's light edges (EdgeReads::light_below) apart: a CSR of every out-list's
// entries under `below`, placed as the out-lists are (pinned in place and
// mapped, offsets in GPU memory) and packed with byte weights. A bucket's
// light rounds then copy these alone (kron:25, weights 1..255, `below` 32:
// 12% of the entries) and its heavy round the whole lists of its settled
// vertices, each once (algorithms/settle_in_order.h's band split).
template <typename V>
void PlacedGraph<V>::place_light_lists(const Csr<V>& out_csr, weight_t below) {
  const auto t0 = std::chrono::steady_clock::now();
  light_csr_ = light_sublists(out_csr, view_.n, below);
  if (light_csr_.num_edges() == 0) return;  // no light edge: nothing apart, no split
  // Kept only where they will be resident (below), unless TG_LIGHT_LISTS=2:
  // over the link a light round costs a request a list, and the split lost
  // (urand:25 at a quarter budget on the H200: 270.4 ms against 253.7
  // unsplit; resident, 194.6 ms; kron:25's 164.0 against 205.8 unsplit,
  // docs/PERF.md sessions 32-33). TG_LIGHT_LISTS_PERCENT (at most 90) sets
  // the share of the edge buffers' budget they may take.
  const uint64_t room = view_.streamed.budget / 100 *
                        std::min<uint64_t>(env_count("TG_LIGHT_LISTS_PERCENT", kLightListsBudgetPercent), 90);
  std::vector<eid_t> offsets;  // counted once, for the check and the packing
  if constexpr (sizeof(V) == sizeof(uint32_t)) {
    offsets = packed_offsets(light_csr_, view_.n, true);
    const uint64_t bytes = offsets.back() * sizeof(uint32_t);
    if (bytes > room && env_count("TG_LIGHT_LISTS", 1) < 2) {
      stats_.light_lists_left = bytes;
      light_csr_ = Csr<V>{};
      return;
    }
  }
  const double split_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  place_csr(light_csr_, view_.light, true, true, -1, -1);
  PackedListsStats st = place_packed_lists(light_csr_, view_.light, true, std::move(offsets));
  if (view_.light.packed_words == nullptr) return;
  // Light lists are short (kron:25 below 16: four entries a list), so a round
  // of them over the link costs a request a list, not bytes: 69 light rounds
  // of 16 MB took 7.7 ms each. Resident in GPU memory where they fit `room`
  // (kLightListsBudgetPercent of the edge buffers' budget), which the buffers then do without.
  if (st.bytes <= room) {
    uint32_t* words = nullptr;
    TG_CUDA(cudaMalloc(&words, st.bytes));
    device_allocs_.push_back(words);
    TG_CUDA(cudaMemcpy(words, view_.light.packed_words, st.bytes, cudaMemcpyHostToDevice));
    transfer_bytes_ += st.bytes;
    view_.light.packed_words_mapped = words;
    view_.light.packed_words_resident = true;
    view_.streamed.budget -= st.bytes;
    st.resident = true;
  }
  st.build_s += split_s;
  stats_.light_lists = st;
  stats_.light_below = below;
  view_.light_below = below;
}

template <typename V>
GpuPlacementStats PlacedGraph<V>::stats() const {
  GpuPlacementStats s = stats_;
  if (view_.source_blocks && view_.source_blocks->tried()) s.source_blocks = view_.source_blocks->stats();
  if (view_.gather_shards && view_.gather_shards->built()) s.gather_shards = view_.gather_shards->stats();
  return s;
}

template <typename V>
const void* PlacedGraph<V>::host_of(const void* device) const {
  if (device == nullptr) return nullptr;
  for (const auto& [h, d] : pinned_host_)
    if (d == device) return h;
  throw Error("GPU engine: no pinned host array for a mapped edge array");
}

template <typename V>
PlacedGraph<V>::~PlacedGraph() {
  // Errors are ignored here: a destructor may run while an error unwinds.
  for (void* p : registered_) cudaHostUnregister(p);
  for (void* p : host_allocs_) cudaFreeHost(p);
  for (void* p : device_allocs_) cudaFree(p);
  cudaGetLastError();
}

template <typename V>
template <typename T>
T* PlacedGraph<V>::place_bytes(const T* host, uint64_t n) {
  if (n == 0 || host == nullptr) return nullptr;
  for (auto& [h, d] : placed_)
    if (h == host) return static_cast<T*>(d);
  const uint64_t bytes = n * sizeof(T);
  void* d = nullptr;
  switch (placement_) {
    case Placement::kDevice:
      TG_CUDA(cudaMalloc(&d, bytes));
      device_allocs_.push_back(d);
      TG_CUDA(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
      transfer_bytes_ += bytes;
      break;
    case Placement::kUvm: {
      TG_CUDA(cudaMallocManaged(&d, bytes, cudaMemAttachGlobal));
      device_allocs_.push_back(d);
      std::memcpy(d, host, bytes);  // pages start on the host, as EMOGI's UVM baseline
      cudaMemLocation loc{};
      loc.type = cudaMemLocationTypeDevice;
      loc.id = device_;
      TG_CUDA(cudaMemAdvise(d, bytes, cudaMemAdviseSetReadMostly, loc));
      managed_.emplace_back(d, bytes);
      break;
    }
    default: {
      // Zero-copy: pin the graph's own array where the OS lets us (tg::Array
      // allocates large arrays 2 MiB-aligned for this), else copy it into
      // pinned memory (memory-mapped files, for instance).
      void* h = const_cast<T*>(host);
      cudaError_t e = cudaErrorNotSupported;
      // File mappings are copied (core/host_mapping.h; a .tgb graph is mapped private).
      static const bool pin_files = env_switch("TG_GPU_PIN_FILES");  // for measuring only
      if (pin_files || host_mapping_at(host) == HostMapping::kAnonymous) e = register_mapped_read_only(h, bytes);
      if (e == cudaSuccess) {
        registered_.push_back(h);
      } else {
        cudaGetLastError();
        TG_CUDA(cudaHostAlloc(&h, bytes, cudaHostAllocMapped));
        host_allocs_.push_back(h);
        std::memcpy(h, host, bytes);
        stats_.zerocopy_copied_bytes += bytes;
      }
      TG_CUDA(cudaHostGetDevicePointer(&d, h, 0));
      pinned_host_.emplace_back(h, d);
      break;
    }
  }
  placed_.emplace_back(host, d);
  return static_cast<T*>(d);
}

template <typename V>
void PlacedGraph<V>::place_csr(const Csr<V>& csr, PlacedCsr<V>& out, bool neighbors, bool weights, int file_neighbors,
                               int file_weights) {
  const uint64_t n = view_.n;
  eid_t* offsets = nullptr;
  TG_CUDA(cudaMalloc(&offsets, (n + 1) * sizeof(eid_t)));
  device_allocs_.push_back(offsets);
  if (csr.built()) {
    TG_CUDA(cudaMemcpy(offsets, csr.offsets.data(), (n + 1) * sizeof(eid_t), cudaMemcpyHostToDevice));
  } else {
    TG_CUDA(cudaMemset(offsets, 0, (n + 1) * sizeof(eid_t)));
  }
  out.view.offsets = offsets;
  out.host_offsets = csr.built() ? csr.offsets.data() : nullptr;
  if (!neighbors) return;
  const uint64_t m = csr.num_edges();
  out.placed = true;
  if (view_.edge_file) {  // --host-mem: neither pinned nor copied; read from the file by partitions
    out.file_neighbors = file_neighbors;
    out.file_weights = weights ? file_weights : -1;
    return;
  }
  out.view.neighbors = place_bytes(csr.neighbors.data(), m);
  out.view.neighbor_misalign = static_cast<uint32_t>((reinterpret_cast<uintptr_t>(out.view.neighbors) & 127) / sizeof(V));
  if (weights) out.view.weights = place_bytes(csr.weights.data(), m);
  if (is_streamed(placement_)) {
    // The pinned host copies (the graph's own arrays, registered, or the
    // pinned copies place_bytes made of a file mapping).
    out.host_neighbors = static_cast<const V*>(host_of(out.view.neighbors));
    out.host_weights = weights ? static_cast<const weight_t*>(host_of(out.view.weights)) : nullptr;
  }
  if (placement_ == Placement::kUvm) {
    uint64_t pages = ((m * sizeof(V)) >> kUvmPageShift) + 1;
    out.uvm_weight_page0 = pages;
    if (weights) pages += ((m * sizeof(weight_t)) >> kUvmPageShift) + 1;
    uint64_t words = (pages + 31) / 32;
    uint32_t* bits = nullptr;
    TG_CUDA(cudaMalloc(&bits, words * sizeof(uint32_t)));
    device_allocs_.push_back(bits);
    TG_CUDA(cudaMemset(bits, 0, words * sizeof(uint32_t)));
    out.uvm_pages = bits;
    page_maps_.emplace_back(bits, words);
  }
}

// The cache of a request (engines/edge_cache_request.h), built from the
// placed CSRs it names, in its order.
template <typename V>
void PlacedGraph<V>::place_edge_cache(const Graph<V>& graph, const EdgeCacheRequest& request, EdgeCacheMode mode) {
  EdgeCacheStats& st = stats_.edge_cache.emplace();
  st.mode = name_of(mode);
  st.budget_bytes = request.budget;
  // The placed CSRs in the request's order.
  std::vector<CacheableCsr<V>> csrs;
  for (const std::span<const eid_t> offsets : request.csrs) {
    const bool out = offsets.data() == graph.out.offsets.data();
    const Csr<V>& csr = out ? graph.out : graph.in;
    PlacedCsr<V>& placed = out ? view_.out : view_.in;
    csrs.push_back({csr.offsets.data(), static_cast<const V*>(host_of(placed.view.neighbors)),
                    static_cast<const weight_t*>(host_of(placed.view.weights)), &placed});
  }
  const EdgeCachePlan plan = plan_edge_cache(request);
  if (plan.bytes > 0) build_edge_cache(plan, request.heads_of, csrs, view_.n, device_allocs_);
  st.bytes = plan.bytes;
  st.heads = plan.heads;
  st.lists = plan.lists_cached();
  st.cached_entries = plan.cached_entries;
  st.total_entries = plan.total_entries;
}

template <typename V>
void PlacedGraph<V>::reset_between_runs() {
  if (placement_ != Placement::kUvm) return;
  cudaMemLocation gpu{}, host{};
  gpu.type = cudaMemLocationTypeDevice;
  gpu.id = device_;
  host.type = cudaMemLocationTypeHost;
  host.id = 0;
  for (auto& [p, bytes] : managed_) {
    // Collapse the read-only GPU copies onto the host, then read-mostly again.
    TG_CUDA(cudaMemAdvise(p, bytes, cudaMemAdviseUnsetReadMostly, gpu));
    TG_CUDA(cudaMemPrefetchAsync(p, bytes, host, 0, 0));
    TG_CUDA(cudaMemAdvise(p, bytes, cudaMemAdviseSetReadMostly, gpu));
  }
  for (auto& [bits, words] : page_maps_) TG_CUDA(cudaMemset(bits, 0, words * sizeof(uint32_t)));
  TG_CUDA(cudaDeviceSynchronize());
}

template class PlacedGraph<uint32_t>;
template class PlacedGraph<uint64_t>;

}  // namespace tg::gpu
