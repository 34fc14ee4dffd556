// Placements: where the GPU engine keeps a graph's edge array, and the memory
// budget that decides it. PlacedGraph puts a Graph's CSR(s) on the GPU for
// one placement and releases everything (device memory, managed memory, host
// registrations) when it goes away; DeviceGraph is the view the engine and
// kernels use.
//
// Memory: vertex data (offsets, per-vertex values, frontiers) always lives in
// GPU memory, since every step reads it at random. The budget
// (GpuOptions::memory_budget, --gpu-mem) bounds the GPU memory the edge array
// may take: `device` and `uvm` need the whole edge array within it, zero-copy
// placements need none of it, and fill it with a resident edge cache
// (edge_cache.h) unless told not to. See docs/GPU.md.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "engines/edge_cache_plan.h"
#include "engines/gpu/kernels/step_args.h"
#include "engines/gpu/gather_shards.h"
#include "engines/gpu/source_blocks.h"
#include "engines/gpu_footprint.h"
#include "engines/paged/edge_file.h"
#include "engines/run.h"
#include "graph/degree_bands.h"
#include "graph/graph.h"

namespace tg::subgraph {
struct KeptSpan;  // subgraph/file_partitions.h
template <typename V>
struct ResidentPartitions;  // subgraph/partition_streamer.cuh
}  // namespace tg::subgraph

namespace tg::gpu {

// How the kernels of a placement (engines/placement.h) reach the edges.
// subgraph and stream keep the edges pinned and mapped on the host (as
// zero-copy) and copy the active part into device buffers each iteration
// (docs/SUBWAY.md); their kernels read device memory.
Access access_of(Placement p);

template <typename V>
struct PlacedCsr {
  bool placed = false;
  CsrView<V> view;
  uint32_t* uvm_pages = nullptr;  // UVM: bitmap of 64 KiB pages touched
  uint64_t uvm_weight_page0 = 0;
  // subgraph / stream: the host arrays (pinned) the buffers are filled from.
  const eid_t* host_offsets = nullptr;
  const V* host_neighbors = nullptr;
  const weight_t* host_weights = nullptr;
  // stream with --host-mem: the .tgb sections the buffers are filled from
  // instead (DeviceGraph::edge_file); -1 where not.
  int file_neighbors = -1, file_weights = -1;
  // The lists packed (graph/packed_lists.h, GpuOptions::packed_lists) where
  // packed_words is set: v's list at word packed offsets[v], the offsets on
  // the host and in GPU memory. The in-lists of subgraph / stream gathers,
  // the out-lists of subgraph pushes (with byte weights where
  // packed_weights).
  const uint32_t* packed_words = nullptr;         // pinned host memory
  const uint32_t* packed_words_mapped = nullptr;  // its zero-copy device pointer (or, resident, its copy's)
  // packed_words_mapped points at a copy in GPU memory, not over the link
  // (the light lists, where they fit: PlacedGraph::place_light_lists).
  bool packed_words_resident = false;
  const eid_t* packed_host_offsets = nullptr;
  const eid_t* packed_offsets = nullptr;
  bool packed_weights = false;
};

// What the subgraph / stream placements need besides the graph.
struct StreamedOptions {
  bool enabled = false;  // placement subgraph or stream
  bool stream = false;   // stream (else subgraph)
  StreamMode mode = StreamMode::kPtOpt;
  bool async = false;
  double stream_threshold = 0.8;
  GatherWay gather = GatherWay::kAuto;
  uint64_t budget = 0;   // edge-buffer bytes (--gpu-mem, or free memory minus vertex data and margin)
};

template <typename V>
struct DeviceGraph {
  uint64_t n = 0;
  uint64_t m = 0;  // directed edges stored in the out-CSR
  bool symmetric = false;  // an undirected graph: every edge stored both ways
  // Ids by non-increasing out-degree (graph/relabel.h, numbered_by_degree):
  // lists start with their hubs, so pulls pay from smaller frontiers.
  bool numbered_by_degree = false;
  // The in-lists' degrees (out-lists' where no CSC is stored), for the pull's
  // probes the direction policy weighs in GPU memory.
  DegreeBands in_degrees;
  Access access = Access::kDevice;
  PlacedCsr<V> out;  // out.view.offsets is always set; neighbours when pushing
  PlacedCsr<V> in;   // placed when pulling is possible (for undirected graphs: the out-CSR)
  // The subgraph placement's light lists (EdgeReads::light_below; off with
  // TG_LIGHT_LISTS=0, docs/SUBWAY.md "Light lists"): every
  // out-list's entries of weight under light_below, as lists of their own,
  // pinned, mapped and packed with byte weights beside the out-lists; a
  // bucket's light rounds copy these alone. light_below 0: none.
  PlacedCsr<V> light;
  weight_t light_below = 0;
  int sms = 1;
  StreamedOptions streamed;
  // --host-mem (GpuOptions::edge_file): the graph's .tgb file, the stream
  // placement's partitions read from it; null otherwise.
  std::shared_ptr<const paged::EdgeFile> edge_file;
  uint64_t host_mem_budget = 0;  // its bytes for the offsets, the page buffers and the host cache
  bool host_edge_cache = true;    // GpuOptions::host_edge_cache
  uint64_t host_cache_leaves = 0; // GpuOptions::host_cache_leaves
  // The host caches' spans, the pusher's and the gatherer's, carried from run
  // to run of the placement's batch (subgraph::KeptSpan); null without a file.
  std::shared_ptr<subgraph::KeptSpan> push_kept, gather_kept;
  // Their partitions resident in GPU memory, carried the same way
  // (subgraph::ResidentPartitions); null without a file.
  std::shared_ptr<subgraph::ResidentPartitions<V>> push_resident, gather_resident;
  // The device placement: its in-edges blocked by source for dense gathers
  // (source_blocks.h), built at the first gather; null for the others.
  std::shared_ptr<SourceBlocks<V>> source_blocks;
  // The device placement with --gather-layout shards: Garaph's shards of its
  // in-edges (gather_shards.h), built at the first gather; null otherwise.
  std::shared_ptr<GatherShards<V>> gather_shards;
};

// Sets CUDA up once (eager module loading, so that no kernel is loaded inside
// a timed region) and says whether a GPU is usable.
bool init_cuda(int device, std::string* reason);

template <typename V>
class PlacedGraph {
 public:
  // Chooses the placement (options.placement, auto resolved against the
  // budget), checks memory, and moves or pins the edges the runs read
  // (`reads`: out-edges where any run pushes, in-edges where any pulls or
  // gathers and the graph has them, weights where any reads them). Throws
  // tg::Error with one line when the placement cannot be honoured.
  PlacedGraph(const Graph<V>& graph, const EdgeReads& reads, const GpuOptions& options);
  ~PlacedGraph();
  PlacedGraph(const PlacedGraph&) = delete;
  PlacedGraph& operator=(const PlacedGraph&) = delete;

  const DeviceGraph<V>& view() const { return view_; }
  Placement placement() const { return placement_; }
  double transfer_seconds() const { return transfer_s_; }
  uint64_t transfer_bytes() const { return transfer_bytes_; }  // edge bytes copied to the GPU
  GpuPlacementStats stats() const;  // with the source blocks' once a gather built (or declined) them
  // Between runs of a batch: UVM pages go back to the host and the page
  // counts restart, so that each run starts cold as the first did.
  void reset_between_runs();

 private:
  void place_csr(const Csr<V>& csr, PlacedCsr<V>& out, bool neighbors, bool weights, int file_neighbors,
                 int file_weights);
  // The resident edge cache of `request` (engines/edge_cache_request.h): a
  // zero-copy placement's, or a streamed placement's heads cache.
  void place_edge_cache(const Graph<V>& graph, const EdgeCacheRequest& request, EdgeCacheMode mode);
  // `offsets`: the lists' packed offsets where already counted (packed_offsets), else empty.
  PackedListsStats place_packed_lists(const Csr<V>& csr, PlacedCsr<V>& out, bool with_weights,
                                      std::vector<eid_t> offsets = {});
  void place_light_lists(const Csr<V>& out_csr, weight_t below);
  const V* place_array(const V* host, uint64_t n);
  template <typename T>
  T* place_bytes(const T* host, uint64_t n);

  DeviceGraph<V> view_;
  Placement placement_ = Placement::kDevice;
  int device_ = 0;
  double transfer_s_ = 0;
  uint64_t transfer_bytes_ = 0;
  GpuPlacementStats stats_;
  std::vector<void*> device_allocs_;     // cudaMalloc and cudaMallocManaged
  std::vector<void*> host_allocs_;       // cudaHostAlloc
  std::vector<void*> registered_;        // cudaHostRegister
  std::vector<std::pair<const void*, void*>> placed_;  // host array -> its device pointer
  std::vector<std::pair<void*, uint64_t>> managed_;    // managed ranges (for reset)
  std::vector<std::pair<uint32_t*, uint64_t>> page_maps_;
  std::vector<std::pair<const void*, void*>> pinned_host_;  // pinned host array -> its mapped pointer
  struct PackedHold {
    std::vector<eid_t> offsets;  // where each list starts
    Array<uint32_t> words;       // the lists, pinned by place_bytes (in place, or a pinned copy)
  };
  std::vector<std::unique_ptr<PackedHold>> packed_;  // place_packed_lists
  Csr<V> light_csr_;                                 // place_light_lists: the light lists, unpacked (pinned in place)

  const void* host_of(const void* device) const;
};

}  // namespace tg::gpu
