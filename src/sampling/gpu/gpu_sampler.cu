#include "sampling/gpu_sampler.h"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <variant>

#include "core/error.h"
#include "engines/gpu/cuda_util.h"
#include "engines/gpu/device_scope.h"
#include "engines/gpu/placed_graph.h"  // gpu::init_cuda
#include "engines/gpu/side_stream.h"
#include "features/gpu/feature_gather.h"  // RegisteredHostRows
#include "features/peer_devices.h"
#include "sampling/draws.h"
#include "sampling/edge_pieces.h"

namespace tg {
namespace {

using gpu::kBlock;
constexpr uint32_t kUnclaimed = std::numeric_limits<uint32_t>::max();
// A hop's draws go into scratch sized by the fanout's bound, so the host
// waits once a hop (for the edge and new-source counts together) rather
// than also for the edge count before the draws; past this many edges the
// bound's scratch (24 bytes an edge) is not worth the wait it saves, and the
// count is read first.
constexpr uint64_t kRoomWithoutWait = uint64_t{1} << 22;

unsigned blocks(uint64_t items) {
  return static_cast<unsigned>(std::clamp<uint64_t>(gpu::div_up(items, kBlock), 1, 65535u * 16));
}

// The in-edges as the kernels read them: the offsets, and the neighbour
// array in pieces (one, unless split over GPUs: sampling/edge_pieces.h).
template <typename V>
struct InEdges {
  const eid_t* offsets = nullptr;
  int pieces = 1;
  uint64_t first_vertex[sampling::kMaxEdgePieces] = {};  // piece k: the lists of first_vertex[k] on
  eid_t first_edge[sampling::kMaxEdgePieces] = {};       // its first entry's index in the whole array
  const V* piece[sampling::kMaxEdgePieces] = {};
  // Vertex v's in-list, whose first entry is entry `begin` of the whole array.
  __device__ const V* list(uint64_t v, eid_t begin) const {
    int k = 0;
    while (k + 1 < pieces && v >= first_vertex[k + 1]) ++k;
    return piece[k] + (begin - first_edge[k]);
  }
};

#define TG_GRID_STRIDE(i, n) \
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < (n); i += uint64_t{gridDim.x} * blockDim.x)

// With the graph in host memory, the destinations in address order: thread
// j takes destination order[j], vertex sorted[j], so neighbouring threads
// read neighbouring parts of the in-edge arrays. Zero-copy reads are bounded
// by address translation, which neighbours share (H100, kron:24, fanouts
// 15,10,5: 66.3 -> 80.3 M sampled edges/s); in GPU memory the sort only
// costs (109 -> 95), so there order is null and thread j takes destination j.
struct Destinations {
  const uint64_t* sorted;
  const uint32_t* order;
  uint64_t count;
  __device__ uint64_t index(uint64_t j) const { return order != nullptr ? order[j] : j; }
};

// counts[i]: how many in-edges destination i draws; counts[n] = 0, so the
// exclusive scan's last entry is the hop's edge count.
template <typename V>
__global__ void count_draws(InEdges<V> g, Destinations d, int fanout, bool replace, uint64_t* counts) {
  TG_GRID_STRIDE(j, d.count + 1) {
    if (j == d.count) {
      counts[d.count] = 0;
    } else {
      const uint64_t v = d.sorted[j];
      counts[d.index(j)] = sampling::draws_for(g.offsets[v + 1] - g.offsets[v], fanout, replace);
    }
  }
}

// Destination i's draws into edge_node[first[i]...] (positions first, then
// replaced by the neighbours they name), edge_dst alike.
template <typename V>
__global__ void draw_edges(InEdges<V> g, Destinations d, const uint64_t* first, int fanout, bool replace,
                           uint64_t seed, int hop, uint64_t* edge_node, uint64_t* edge_dst) {
  TG_GRID_STRIDE(j, d.count) {
    const uint64_t i = d.index(j), v = d.sorted[j], begin = g.offsets[v], degree = g.offsets[v + 1] - begin;
    uint64_t* picked = edge_node + first[i];
    const uint64_t m = sampling::choose_positions(degree, fanout, replace, seed, hop, v, picked);
    const V* list = m > 0 ? g.list(v, begin) : nullptr;
    for (uint64_t j = 0; j < m; ++j) {
      picked[j] = static_cast<uint64_t>(list[picked[j]]);
      edge_dst[first[i] + j] = i;
    }
  }
}

// A fanout of -1 takes every in-edge (sampling::draws_for): a warp a
// destination copies its list, so that a hub's list moves in whole lines
// from 32 lanes rather than from one thread, entry by entry.
template <typename V>
__global__ void copy_whole_lists(InEdges<V> g, Destinations d, const uint64_t* first, uint64_t* edge_node,
                                 uint64_t* edge_dst) {
  const uint64_t lane = threadIdx.x % 32, warps = uint64_t{gridDim.x} * blockDim.x / 32;
  for (uint64_t j = (blockIdx.x * uint64_t{blockDim.x} + threadIdx.x) / 32; j < d.count; j += warps) {
    const uint64_t i = d.index(j), v = d.sorted[j], begin = g.offsets[v], degree = g.offsets[v + 1] - begin;
    const V* list = g.list(v, begin);
    for (uint64_t k = lane; k < degree; k += 32) {
      edge_node[first[i] + k] = static_cast<uint64_t>(list[k]);
      edge_dst[first[i] + k] = i;
    }
  }
}

// Positions: destination i is position i, drawn edge e is position n + e.
// Each vertex keeps its smallest position: its first appearance.
__global__ void claim_destinations(const uint64_t* frontier, uint64_t n, uint32_t* first_seen) {
  TG_GRID_STRIDE(i, n) first_seen[frontier[i]] = static_cast<uint32_t>(i);
}

// The hop's edge count is read in GPU memory (*edges_at: the draws' scan
// total), so that the host need not wait for it before these run.
__global__ void claim_edges(const uint64_t* edge_node, const uint64_t* edges_at, uint64_t n, uint32_t* first_seen) {
  const uint64_t edges = *edges_at;
  TG_GRID_STRIDE(e, edges) atomicMin(&first_seen[edge_node[e]], static_cast<uint32_t>(n + e));
}

// is_new[e]: edge e is its source's first appearance and the source is no
// destination; 0 from the hop's edge count up to `room`, so the scan's
// entry `room` is the count of new sources.
__global__ void flag_new_sources(const uint64_t* edge_node, const uint64_t* edges_at, uint64_t room, uint64_t n,
                                 const uint32_t* first_seen, uint32_t* is_new) {
  const uint64_t edges = *edges_at;
  TG_GRID_STRIDE(e, room + 1) is_new[e] = e < edges && first_seen[edge_node[e]] == n + e ? 1 : 0;
}

// Local ids: a destination keeps its position, the k-th new source (in
// order of first draw) is n + k.
__global__ void number_sources(const uint64_t* edge_node, uint64_t edges, uint64_t n, const uint32_t* first_seen,
                               const uint32_t* rank, uint64_t* edge_src, uint64_t* src_nodes) {
  TG_GRID_STRIDE(e, edges) {
    const uint64_t u = edge_node[e], p = first_seen[u];
    const uint64_t local = p < n ? p : n + rank[p - n];
    edge_src[e] = local;
    if (p == n + e) src_nodes[local] = u;
  }
}

__global__ void release_vertices(const uint64_t* nodes, uint64_t count, uint32_t* first_seen) {
  TG_GRID_STRIDE(i, count) first_seen[nodes[i]] = kUnclaimed;
}

template <typename T>
std::shared_ptr<T> device_memory(size_t count) {
  T* p = nullptr;
  TG_CUDA(cudaMalloc(&p, count * sizeof(T)));
  return std::shared_ptr<T>(p, [](T* q) { cudaFree(q); });
}

// Memory from `allocate` that grows to the largest request and is kept.
// Growing waits for `stream` first: work queued there may still read the old
// memory (a hop's last steps run while the next hop's scratch is reserved).
template <typename T, std::shared_ptr<T> (*allocate)(size_t)>
class Grown {
 public:
  T* reserve(uint64_t count, cudaStream_t stream) {
    if (count > capacity_ || !data_) {
      TG_CUDA(cudaStreamSynchronize(stream));
      data_.reset();
      capacity_ = 0;
      data_ = allocate(std::max<uint64_t>(count, 1));
      capacity_ = std::max<uint64_t>(count, 1);
    }
    return data_.get();
  }
  T* get() const { return data_.get(); }

 private:
  std::shared_ptr<T> data_;
  uint64_t capacity_ = 0;
};

// Device memory; and pinned host memory, where a hop's outputs land in
// copies that need no pageable staging, then one wait.
template <typename T>
using Buffer = Grown<T, device_memory<T>>;
template <typename T>
using PinnedStaging = Grown<T, gpu::pinned_array<T>>;

}  // namespace

struct GpuNeighborSampler::Impl {
  const AnyGraph* graph = nullptr;
  int device = 0;
  uint64_t num_vertices = 0;
  // The in-edges: copied into GPU memory (the neighbours in one piece, or in
  // pieces over several GPUs), or registered in place.
  Buffer<eid_t> offsets_copy;
  std::vector<std::shared_ptr<uint8_t>> piece_copies;
  std::unique_ptr<features::RegisteredHostRows> offsets_host, neighbors_host;
  const eid_t* offsets = nullptr;
  std::vector<const void*> pieces;          // where each piece's entries are read
  std::vector<uint64_t> piece_first_vertex;  // piece k holds the lists of piece_first_vertex[k] on
  std::vector<eid_t> piece_first_edge;       // ... from this entry of the whole array
  uint64_t bytes_on_gpu = 0;
  bool zero_copy = false;

  std::shared_ptr<uint64_t> pinned;  // a hop's counts, read back (two words)

  Buffer<uint32_t> first_seen;  // per vertex; kUnclaimed between hops
  Buffer<uint64_t> seeds_copy, counts, first_edge, edge_node, edge_dst;
  Buffer<uint64_t> edge_index, sources[2];  // sample()'s outputs before they go to host memory
  PinnedStaging<uint64_t> staging;             // ... and on their way there
  Buffer<uint32_t> is_new, rank;
  Buffer<uint8_t> scan_temp;
  features::AddressOrder address_order;  // the destinations sorted, per hop
  // Last: it waits for a sample's steps before the buffers they use go.
  std::unique_ptr<gpu::SideStream> side;
  cudaStream_t stream = nullptr;  // side's: every step of a sample, in order

  Destinations sorted_destinations(const uint64_t* dst, uint64_t n) {
    if (!zero_copy) return {dst, nullptr, n};
    // Vertex ids are below 2^63: AddressOrder's int64 ids, the same bits.
    const features::GatherRequest r =
        address_order.sort({reinterpret_cast<const int64_t*>(dst), nullptr, n, nullptr}, num_vertices, stream);
    return {reinterpret_cast<const uint64_t*>(r.ids), r.positions, n};  // one destination: as given
  }

  template <typename T>
  void exclusive_sum(const T* in, T* out, uint64_t count) {
    size_t bytes = 0;
    TG_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, static_cast<int64_t>(count), stream));
    TG_CUDA(cub::DeviceScan::ExclusiveSum(scan_temp.reserve(bytes, stream), bytes, in, out, static_cast<int64_t>(count),
                                          stream));
  }

  // A hop's edge count (at edges_at) and, where the hop has new sources to
  // count (fresh_at not null), their count, with one wait.
  std::pair<uint64_t, uint64_t> read_back(const uint64_t* edges_at, const uint32_t* fresh_at) {
    TG_CUDA(cudaMemcpyAsync(pinned.get(), edges_at, sizeof(uint64_t), cudaMemcpyDeviceToHost, stream));
    if (fresh_at != nullptr)
      TG_CUDA(cudaMemcpyAsync(pinned.get() + 1, fresh_at, sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
    TG_CUDA(cudaStreamSynchronize(stream));
    uint32_t fresh = 0;
    if (fresh_at != nullptr) std::memcpy(&fresh, pinned.get() + 1, sizeof(uint32_t));
    return {pinned.get()[0], fresh};
  }

  // The request checked, then run(a value of the graph's vertex type) on the
  // sampler's device.
  template <typename Run>
  auto checked(const std::vector<uint64_t>& seeds, const SampleOptions& options, const Run& run) {
    check_sample_request(num_vertices, seeds, options);
    gpu::DeviceScope scope(device);
    return std::visit([&](const auto& g) { return run(typename std::decay_t<decltype(g)>::vertex_t{}); }, *graph);
  }

  template <typename V>
  InEdges<V> in_edges() const {
    InEdges<V> g;
    g.offsets = offsets;
    g.pieces = static_cast<int>(pieces.size());
    for (size_t k = 0; k < pieces.size(); ++k) {
      g.first_vertex[k] = piece_first_vertex[k];
      g.first_edge[k] = piece_first_edge[k];
      g.piece[k] = static_cast<const V*>(pieces[k]);
    }
    return g;
  }

  // The hops from the seeds (dst, n: in GPU memory), each hop's outputs where
  // `memory` says: memory.edges(hop, count) gives 2 x count words (edge_src,
  // then edge_dst), memory.sources(hop, count) the hop's src_nodes, which
  // must stay unchanged through the next hop (its destinations); then
  // done(hop, HopArrays) with the hop's pointers and counts.
  template <typename V, typename Memory, typename Done>
  void sample_hops(const uint64_t* dst, uint64_t n, const SampleOptions& o, Memory& memory, Done done) {
    const InEdges<V> g = in_edges<V>();
    for (int hop = 0; hop < static_cast<int>(o.fanouts.size()); ++hop) {
      // The draws land in scratch with room for `room` edges: the most a
      // fanout allows (no wait for the count), or the count itself, read
      // back, for a fanout of -1 (every in-edge) and for hops so large that
      // the bound's scratch would cost more than a wait.
      uint64_t room = 0;
      Destinations destinations{};
      const uint64_t* edges_at = nullptr;  // the hop's edge count, in GPU memory
      if (n > 0) {
        destinations = sorted_destinations(dst, n);
        count_draws<<<blocks(n + 1), kBlock, 0, stream>>>(g, destinations, o.fanouts[hop], o.replace,
                                                         counts.reserve(n + 1, stream));
        TG_CUDA_CHECK_LAUNCH();
        exclusive_sum(counts.get(), first_edge.reserve(n + 1, stream), n + 1);
        edges_at = first_edge.get() + n;
        const uint64_t fanout = o.fanouts[hop] < 0 ? kRoomWithoutWait + 1 : static_cast<uint64_t>(o.fanouts[hop]);
        room = fanout <= kRoomWithoutWait / n && n + n * fanout < kUnclaimed ? n * fanout
                                                                             : read_back(edges_at, nullptr).first;
      }
      if (n + room >= kUnclaimed)
        throw Error("sample_neighbors on the GPU: hop " + std::to_string(hop) + " has " + std::to_string(n + room) +
                    " nodes and edges, more than 2^32 - 1: sample fewer seeds at a time");
      uint64_t* nodes = edge_node.reserve(room, stream);
      uint64_t edges = 0, fresh = 0;
      if (n > 0) {
        if (o.fanouts[hop] < 0)
          copy_whole_lists<<<blocks(n * 32), kBlock, 0, stream>>>(g, destinations, first_edge.get(), nodes,
                                                                   edge_dst.reserve(room, stream));
        else
          draw_edges<<<blocks(n), kBlock, 0, stream>>>(g, destinations, first_edge.get(), o.fanouts[hop], o.replace,
                                                       o.seed, hop, nodes, edge_dst.reserve(room, stream));
        TG_CUDA_CHECK_LAUNCH();
        claim_destinations<<<blocks(n), kBlock, 0, stream>>>(dst, n, first_seen.get());
        TG_CUDA_CHECK_LAUNCH();
      }
      if (room > 0) {
        claim_edges<<<blocks(room), kBlock, 0, stream>>>(nodes, edges_at, n, first_seen.get());
        TG_CUDA_CHECK_LAUNCH();
        flag_new_sources<<<blocks(room + 1), kBlock, 0, stream>>>(nodes, edges_at, room, n, first_seen.get(),
                                                                  is_new.reserve(room + 1, stream));
        TG_CUDA_CHECK_LAUNCH();
        exclusive_sum(is_new.get(), rank.reserve(room + 1, stream), room + 1);
        std::tie(edges, fresh) = read_back(edges_at, rank.get() + room);
      }
      // Every vertex claimed above goes back to kUnclaimed before the next
      // hop or sample, also when the outputs' memory cannot be had.
      const auto release = [&] {
        if (edges > 0) release_vertices<<<blocks(edges), kBlock, 0, stream>>>(nodes, edges, first_seen.get());
        TG_CUDA_CHECK_LAUNCH();
        if (n > 0) release_vertices<<<blocks(n), kBlock, 0, stream>>>(dst, n, first_seen.get());
        TG_CUDA_CHECK_LAUNCH();
      };
      uint64_t *index = nullptr, *src = nullptr;
      try {
        index = memory.edges(hop, edges);
        src = memory.sources(hop, n + fresh);
      } catch (...) {
        release();
        throw;
      }
      if (n > 0) TG_CUDA(cudaMemcpyAsync(src, dst, n * sizeof(uint64_t), cudaMemcpyDeviceToDevice, stream));
      if (edges > 0) {
        TG_CUDA(cudaMemcpyAsync(index + edges, edge_dst.get(), edges * sizeof(uint64_t), cudaMemcpyDeviceToDevice,
                                stream));
        number_sources<<<blocks(edges), kBlock, 0, stream>>>(nodes, edges, n, first_seen.get(), rank.get(), index, src);
        TG_CUDA_CHECK_LAUNCH();
      }
      release();
      done(hop, HopArrays{const_cast<uint64_t*>(dst), n, src, n + fresh, index, edges});
      // The next hop's destinations are this hop's sources.
      dst = src;
      n += fresh;
    }
  }

  // The hops into Impl's buffers, each copied into the pinned staging before
  // the next hop reuses them (the sources alternate: they are the next
  // destinations), then take(d, staged) with the hop's counts (d) and its
  // words in the staging (the sources, then the edge index's two rows). A
  // hop's copy is queued ahead of the next hop's steps and taken once the
  // next hop's count has been waited for, so the host waits once a hop and
  // once more for the last copy.
  template <typename V, typename Take>
  void sample_through_staging(const std::vector<uint64_t>& seeds, const SampleOptions& o, const Take& take) {
    const uint64_t n = seeds.size();
    uint64_t* dst = seeds_copy.reserve(n, stream);
    if (n > 0) TG_CUDA(cudaMemcpyAsync(dst, seeds.data(), n * sizeof(uint64_t), cudaMemcpyHostToDevice, stream));
    struct {
      Impl& s;
      uint64_t* edges(int, uint64_t count) { return s.edge_index.reserve(2 * count, s.stream); }
      uint64_t* sources(int hop, uint64_t count) { return s.sources[hop % 2].reserve(count, s.stream); }
    } memory{*this};
    std::optional<HopArrays> queued;  // the hop whose copy is on its way into the staging
    const auto take_queued = [&] {
      side->wait_for_mark();
      const HopArrays d = *queued;
      queued.reset();
      take(d, staging.get());
    };
    sample_hops<V>(dst, n, o, memory, [&](int hop, const HopArrays& d) {
      if (queued) take_queued();
      // Its words twice over in host memory (the pinned staging, then the
      // caller's), refused before either is had past the host's memory.
      const uint64_t words = d.num_src + 2 * d.num_edges;
      check_hop_fits_host("sample_neighbors on the GPU", hop, d.num_edges, 2 * words * sizeof(uint64_t));
      // The sources and both halves of the edge index in two copies.
      uint64_t* at = staging.reserve(words, stream);
      if (d.num_src > 0)
        TG_CUDA(cudaMemcpyAsync(at, d.src_nodes, d.num_src * sizeof(uint64_t), cudaMemcpyDeviceToHost, stream));
      if (d.num_edges > 0)
        TG_CUDA(cudaMemcpyAsync(at + d.num_src, d.edge_index, 2 * d.num_edges * sizeof(uint64_t), cudaMemcpyDeviceToHost,
                                stream));
      side->mark();
      queued = d;
    });
    if (queued) take_queued();
  }

  template <typename V>
  std::vector<SampledHop> sample(const std::vector<uint64_t>& seeds, const SampleOptions& o) {
    std::vector<SampledHop> hops;
    std::vector<uint64_t> dst_host = seeds;
    sample_through_staging<V>(seeds, o, [&](const HopArrays& d, const uint64_t* at) {
      SampledHop h;
      h.dst_nodes = std::move(dst_host);
      h.src_nodes.assign(at, at + d.num_src);
      h.edge_src.assign(at + d.num_src, at + d.num_src + d.num_edges);
      h.edge_dst.assign(at + d.num_src + d.num_edges, at + d.num_src + 2 * d.num_edges);
      dst_host = h.src_nodes;
      hops.push_back(std::move(h));
    });
    return hops;
  }

  template <typename V>
  std::vector<HopArrays> sample_to_host(const std::vector<uint64_t>& seeds, const SampleOptions& o,
                                        const HostAllocator& allocate) {
    const auto words = [&](const uint64_t* from, uint64_t count) {
      uint64_t* p = allocated_words(allocate, count, "sample_to_host");
      if (count > 0) std::memcpy(p, from, count * sizeof(uint64_t));
      return p;
    };
    std::vector<HopArrays> hops;
    uint64_t* dst = words(seeds.data(), seeds.size());
    sample_through_staging<V>(seeds, o, [&](const HopArrays& d, const uint64_t* at) {
      uint64_t* index = words(at + d.num_src, 2 * d.num_edges);
      uint64_t* src = words(at, d.num_src);
      hops.push_back(HopArrays{dst, d.num_dst, src, d.num_src, index, d.num_edges});
      dst = src;
    });
    return hops;
  }

  template <typename V>
  std::vector<HopArrays> sample_into(const std::vector<uint64_t>& seeds, const SampleOptions& o,
                                     const DeviceAllocator& allocate, cudaStream_t consumer) {
    struct {
      Impl& s;
      const DeviceAllocator& allocate;
      cudaStream_t consumer;
      uint64_t* words(uint64_t count) {
        uint64_t* p = allocated_words(allocate, count, "sample_into");
        s.side->wait_for(consumer);  // memory the caller's allocator may have handed out again
        return p;
      }
      uint64_t* edges(int, uint64_t count) { return words(2 * count); }
      uint64_t* sources(int, uint64_t count) { return words(count); }
    } memory{*this, allocate, consumer};
    const uint64_t n = seeds.size();
    uint64_t* dst = memory.words(n);
    if (n > 0) TG_CUDA(cudaMemcpyAsync(dst, seeds.data(), n * sizeof(uint64_t), cudaMemcpyHostToDevice, stream));
    std::vector<HopArrays> hops;
    sample_hops<V>(dst, n, o, memory, [&](int, const HopArrays& d) { hops.push_back(d); });
    side->release_to(consumer);
    return hops;
  }
};

namespace {

bool can_read(int device, int peer) {
  int yes = 0;
  TG_CUDA(cudaDeviceCanAccessPeer(&yes, device, peer));
  return yes != 0;
}

// The GPUs holding pieces other than `device`, each once: checked to exist
// and to be readable from `device`, then opened to its reads.
void open_piece_holders(int device, const std::vector<int>& edge_devices) {
  std::vector<int> others;
  for (int d : edge_devices) {
    if (d == device || std::find(others.begin(), others.end(), d) != others.end()) continue;
    gpu::check_device_exists(d, "edge_devices: ");
    if (!can_read(device, d))
      throw usage_error("edge_devices: device " + std::to_string(d) + " cannot be read by device " +
                        std::to_string(device) + " (cudaDeviceCanAccessPeer: no NVLink or PCIe peer path)");
    others.push_back(d);
  }
  features::enable_peer_access(device, others);
}

uint64_t free_memory(int device) {
  gpu::DeviceScope scope(device);
  size_t free_bytes = 0, total_bytes = 0;
  TG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

}  // namespace

GpuNeighborSampler::GpuNeighborSampler(const AnyGraph& graph, const GpuSamplerOptions& options)
    : impl_(std::make_unique<Impl>()) {
  sampling::check_edge_devices(options.edge_devices, options.zero_copy);
  std::string why;
  if (!gpu::init_cuda(0, &why)) throw Error("no usable GPU for sampling: " + why);
  gpu::check_device_exists(options.device);
  open_piece_holders(options.device, options.edge_devices);
  Impl& s = *impl_;
  s.graph = &graph;
  s.device = options.device;
  s.zero_copy = options.zero_copy;
  gpu::DeviceScope scope(s.device);
  s.side = std::make_unique<gpu::SideStream>(s.device);
  s.stream = s.side->get();
  s.pinned = gpu::pinned_array<uint64_t>(2);
  std::visit(
      [&](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_t;
        if (!g.has_in_edges()) throw Error("sample_neighbors: the directed graph's in-edges were not built");
        const auto& in = g.in_edges();
        s.num_vertices = g.num_vertices;
        const uint64_t offsets_bytes = (s.num_vertices + 1) * sizeof(eid_t);
        const uint64_t first_seen_bytes = s.num_vertices * sizeof(uint32_t);
        // The pieces: one (the whole array) unless split over GPUs.
        const std::vector<int> holders =
            options.edge_devices.empty() ? std::vector<int>{s.device} : options.edge_devices;
        const std::vector<uint64_t> bounds =
            sampling::cut_lists({in.offsets.data(), s.num_vertices + 1}, static_cast<int>(holders.size()));
        std::vector<uint64_t> piece_bytes(holders.size());
        for (size_t k = 0; k < holders.size(); ++k) {
          s.piece_first_vertex.push_back(bounds[k]);
          s.piece_first_edge.push_back(in.offsets[bounds[k]]);
          piece_bytes[k] = (in.offsets[bounds[k + 1]] - in.offsets[bounds[k]]) * sizeof(V);
        }
        // Each GPU's share against its free memory, before anything is copied.
        for (size_t k = 0; k < holders.size(); ++k) {
          const int d = holders[k];
          if (std::find(holders.begin(), holders.begin() + static_cast<std::ptrdiff_t>(k), d) !=
              holders.begin() + static_cast<std::ptrdiff_t>(k))
            continue;  // counted with its first piece
          uint64_t needed = d == s.device ? first_seen_bytes + (options.zero_copy ? 0 : offsets_bytes) : 0;
          if (!options.zero_copy)
            for (size_t j = k; j < holders.size(); ++j) needed += holders[j] == d ? piece_bytes[j] : 0;
          const uint64_t free_bytes = free_memory(d);
          if (needed > free_bytes)
            throw out_of_memory_error(
                "the GPU sampler needs " + std::to_string(needed) + " bytes of GPU memory" +
                (options.edge_devices.empty() ? std::string() : " on device " + std::to_string(d)) + ", " +
                std::to_string(free_bytes) + " are free" +
                (options.zero_copy ? std::string()
                                   : ": sample with the graph in host memory (zero_copy), or split it over more GPUs "
                                     "(edge_devices)"));
        }
        if (options.zero_copy) {
          s.offsets_host = std::make_unique<features::RegisteredHostRows>(in.offsets.data(), s.num_vertices + 1,
                                                                          sizeof(eid_t), sizeof(eid_t));
          s.offsets = reinterpret_cast<const eid_t*>(s.offsets_host->table().rows);
          if (in.num_edges() > 0)
            s.neighbors_host =
                std::make_unique<features::RegisteredHostRows>(in.neighbors.data(), in.num_edges(), sizeof(V), sizeof(V));
          s.pieces.push_back(s.neighbors_host ? s.neighbors_host->table().rows : nullptr);
        } else {
          eid_t* offsets = s.offsets_copy.reserve(s.num_vertices + 1, s.stream);
          TG_CUDA(cudaMemcpy(offsets, in.offsets.data(), offsets_bytes, cudaMemcpyHostToDevice));
          s.offsets = offsets;
          for (size_t k = 0; k < holders.size(); ++k) {
            gpu::DeviceScope holder(holders[k]);
            s.piece_copies.push_back(device_memory<uint8_t>(std::max<uint64_t>(piece_bytes[k], 1)));
            if (piece_bytes[k] > 0)
              TG_CUDA(cudaMemcpy(s.piece_copies.back().get(), in.neighbors.data() + s.piece_first_edge[k],
                                 piece_bytes[k], cudaMemcpyHostToDevice));
            s.pieces.push_back(s.piece_copies.back().get());
          }
          s.bytes_on_gpu = offsets_bytes + in.num_edges() * sizeof(V);
        }
        uint32_t* first_seen = s.first_seen.reserve(s.num_vertices, s.stream);
        TG_CUDA(cudaMemset(first_seen, 0xFF, std::max<uint64_t>(first_seen_bytes, 1)));
      },
      graph);
}

GpuNeighborSampler::~GpuNeighborSampler() = default;

std::vector<SampledHop> GpuNeighborSampler::sample(const std::vector<uint64_t>& seeds, const SampleOptions& options) {
  return impl_->checked(seeds, options, [&]<typename V>(V) { return impl_->template sample<V>(seeds, options); });
}

std::vector<HopArrays> GpuNeighborSampler::sample_into(const std::vector<uint64_t>& seeds, const SampleOptions& options,
                                                      const DeviceAllocator& allocate, uintptr_t consumer) {
  return impl_->checked(seeds, options, [&]<typename V>(V) {
    return impl_->template sample_into<V>(seeds, options, allocate, reinterpret_cast<cudaStream_t>(consumer));
  });
}

std::vector<HopArrays> GpuNeighborSampler::sample_to_host(const std::vector<uint64_t>& seeds,
                                                         const SampleOptions& options, const HostAllocator& allocate) {
  return impl_->checked(seeds, options,
                        [&]<typename V>(V) { return impl_->template sample_to_host<V>(seeds, options, allocate); });
}

uint64_t GpuNeighborSampler::graph_bytes_on_gpu() const { return impl_->bytes_on_gpu; }

bool gpu_sampler_available(std::string* why) { return gpu::init_cuda(0, why); }

}  // namespace tg
