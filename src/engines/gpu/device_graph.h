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
// placements need none of it. See docs/GPU.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/algorithm.h"
#include "engines/gpu/edge_step.h"
#include "engines/run.h"
#include "graph/graph.h"

namespace tg::gpu {

enum class Placement { kDevice, kUvm, kZeroCopyNaive, kZeroCopyMerged, kZeroCopyAligned, kSubgraph, kStream };

const char* placement_name(Placement p);
// "device", "uvm", "zerocopy-naive", "zerocopy-merged", "zerocopy-aligned"
// "subgraph", "stream" ("zerocopy" is zerocopy-aligned); nullopt for anything
// else, "auto" included. subgraph and stream keep the edges pinned and mapped
// on the host (as zero-copy) and copy the active part into device buffers
// each iteration (docs/SUBWAY.md); their kernels read device memory.
std::optional<Placement> parse_placement(const std::string& name);
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
};

// What the subgraph / stream placements need besides the graph.
struct SubwayOptions {
  bool enabled = false;  // placement subgraph or stream
  bool stream = false;   // stream (else subgraph)
  bool pt = false;       // stream mode pt (else pt-opt)
  bool async = false;
  double stream_threshold = 0.8;
  std::string gather = "auto";
  uint64_t budget = 0;   // edge-buffer bytes (--gpu-mem, or free memory minus vertex data and margin)
};

template <typename V>
struct DeviceGraph {
  uint64_t n = 0;
  uint64_t m = 0;  // directed edges stored in the out-CSR
  Access access = Access::kDevice;
  PlacedCsr<V> out;  // out.view.offsets is always set; neighbours when pushing
  PlacedCsr<V> in;   // placed when pulling is possible (for undirected graphs: the out-CSR)
  int sms = 1;
  SubwayOptions subway;
};

// Which parts of the graph a set of algorithms reads.
struct EdgeNeeds {
  bool out_edges = false;  // push steps
  bool in_edges = false;   // pull steps and gather (when the graph has them)
  bool weights = false;
};
// accumulative: the algorithms run in their order-independent forms (--async).
EdgeNeeds edge_needs(const std::vector<Algorithm>& algorithms, bool accumulative = false);

// Sets CUDA up once (eager module loading, so that no kernel is loaded inside
// a timed region) and says whether a GPU is usable.
bool init_cuda(int device, std::string* reason);

template <typename V>
class PlacedGraph {
 public:
  // Chooses the placement (options.placement, "auto" resolved against the
  // budget), checks memory, and moves or pins the edges. Throws tg::Error
  // with one line when the placement cannot be honoured.
  PlacedGraph(const Graph<V>& graph, const EdgeNeeds& needs, const GpuOptions& options);
  ~PlacedGraph();
  PlacedGraph(const PlacedGraph&) = delete;
  PlacedGraph& operator=(const PlacedGraph&) = delete;

  const DeviceGraph<V>& view() const { return view_; }
  Placement placement() const { return placement_; }
  double transfer_seconds() const { return transfer_s_; }
  uint64_t transfer_bytes() const { return transfer_bytes_; }  // edge bytes copied to the GPU
  const nlohmann::json& details() const { return details_; }
  // Between runs of a batch: UVM pages go back to the host and the page
  // counts restart, so that each run starts cold as the first did.
  void reset_between_runs();

 private:
  void place_csr(const Csr<V>& csr, PlacedCsr<V>& out, bool neighbors, bool weights);
  const V* place_array(const V* host, uint64_t n);
  template <typename T>
  T* place_bytes(const T* host, uint64_t n);

  DeviceGraph<V> view_;
  Placement placement_ = Placement::kDevice;
  int device_ = 0;
  double transfer_s_ = 0;
  uint64_t transfer_bytes_ = 0;
  nlohmann::json details_ = nlohmann::json::object();
  std::vector<void*> device_allocs_;     // cudaMalloc and cudaMallocManaged
  std::vector<void*> host_allocs_;       // cudaHostAlloc
  std::vector<void*> registered_;        // cudaHostRegister
  std::vector<std::pair<const void*, void*>> placed_;  // host array -> its device pointer
  std::vector<std::pair<void*, uint64_t>> managed_;    // managed ranges (for reset)
  std::vector<std::pair<uint32_t*, uint64_t>> page_maps_;
  std::vector<std::pair<const void*, void*>> pinned_host_;  // pinned host array -> its mapped pointer
  const void* host_of(const void* device) const;
};

}  // namespace tg::gpu
