// SubCSR generation on the GPU (Subway algorithm 3, section 3.1) and the
// loading of its pieces into device edge buffers.
//
// build_*: steps 1-5 with CUB on the default stream: the sorted active list
// (a compaction of the bitmap, or a radix sort of a frontier queue), the
// sub-offsets (one exclusive scan over the active vertices' degrees: steps
// 3-5 fused, O(|V_active|) rather than Subway's O(|V|)), and the scattered
// sub-offsets the push kernel reads (work_unit.h). When the active edges
// exceed one buffer, one GPU thread cuts the SubCSR into pieces by
// plan_pieces' rule (subgraph_kernels.cuh plan_ranges_greedy), and only the
// pieces come to the host.
//
// load: step 6 for one piece into one buffer slot, either
//   GatherWay::kCpu: OpenMP threads copy the lists into pinned staging
//     (edge_gather.h), pipelined with cudaMemcpyAsync in chunks, or
//   GatherWay::kGpu: gather_lists reads them over zero-copy straight into
//     device memory (warp-merged, 128-byte aligned); where the source has
//     the lists packed (graph/packed_lists.h), it reads those into a scratch
//     buffer and decode_packed.cuh writes the slot's from them. The load is
//     queued on the slot's stream (begin_load) and waited for (end_load), so
//     piece k + 1 crosses the link while piece k is pushed.
// The result is a CsrView for push_step<Access::kDevice> and the slice of
// the active list to use as its frontier: the GPU engine's push kernel runs
// on it unchanged (docs/SUBWAY.md).
//
// Memory: the edge buffers take SubcsrConfig::budget_bytes (all slots, and
// the packed scratch: 1.25 x the packed share of a slot); the
// vertex-side arrays (active list, its sort buffer, sub-offsets, scattered
// sub-offsets: about n * (2 * sizeof(V) + 16) bytes) are vertex data, like
// the engine's offsets and frontiers, and are reported by vertex_bytes().
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "engines/gpu/cuda_util.h"
#include "engines/placement.h"
#include "engines/gpu/kernels/step_args.h"
#include "engines/gpu/subgraph/edge_gather.h"
#include "engines/gpu/subgraph/subgraph_plan.h"
#include "engines/gpu/subgraph/work_unit.h"

namespace tg::subgraph {

// The graph as the builder reads it: offsets on both sides, the edge array
// (and weights) in pinned host memory, with its zero-copy device pointers.
template <typename V>
struct SubcsrSource {
  uint64_t n = 0;
  const eid_t* offsets_device = nullptr;  // n + 1
  const eid_t* offsets_host = nullptr;    // n + 1
  const V* neighbors_host = nullptr;      // pinned (cudaHostRegister / cudaHostAlloc)
  const weight_t* weights_host = nullptr;
  const V* neighbors_mapped = nullptr;    // cudaHostGetDevicePointer of the above
  const weight_t* weights_mapped = nullptr;
  // The same lists packed (4-byte ids; byte weights where packed_weights),
  // for the GPU way; null where not packed.
  const uint32_t* packed_words_mapped = nullptr;
  bool packed_words_resident = false;  // packed_words_mapped is GPU memory: its reads cross no link
  const eid_t* packed_offsets_device = nullptr;
  bool packed_weights = false;
  uint64_t packed_words = 0;  // all lists' words: sizes the scratch the packed pieces cross into
};

struct SubcsrConfig {
  uint64_t budget_bytes = 0;  // device memory of the edge buffers, all slots together
  uint32_t slots = 1;         // 2: piece k + 1 loads while piece k is processed
  bool weights = false;       // load weights too (SSSP, SSWP)
  uint64_t gpu_chunk_edges = 256;                     // per warp, zero-copy gather
  uint64_t cpu_chunk_edges = kGatherChunkEdges;       // per OpenMP work item
  uint64_t cpu_pipeline_edges = uint64_t{1} << 22;    // copied to the GPU as soon as gathered
};

// Who gathers a piece: tg::GatherWay (engines/placement.h), kCpu or kGpu.
using ::tg::GatherWay;

struct SubcsrShape {
  uint64_t active_vertices = 0;
  eid_t active_edges = 0;
  uint64_t pieces = 0;
  double generate_s = 0;  // steps 1-5 and the piece plan, wall time
};

template <typename V>
struct LoadedPiece {
  gpu::CsrView<V> csr;          // for push_step<Access::kDevice>
  const V* frontier = nullptr;  // device: the piece's slice of the sorted active list
  uint64_t count = 0;
  WorkUnit unit;
  uint32_t slot = 0;
  uint64_t bytes_to_device = 0;  // edges (and weights) copied or gathered into the buffer
  uint64_t bytes_to_host = 0;    // CPU way: the active list and sub-offsets (once per build)
  uint64_t link_bytes = 0;       // GPU way: 128-byte lines requested over the link, x 128
  bool packed = false;           // GPU way: the lists crossed packed
  double gather_s = 0;           // CPU way: host gather; GPU way: the kernel
  double copy_s = 0;             // CPU way: copy time left after the gather (not overlapped)
};

template <typename V>
class SubcsrBuilder {
 public:
  // Allocates the vertex-side arrays and the edge buffers (budget_bytes split
  // into `slots`); throws tg::Error when the budget is under the minimum.
  SubcsrBuilder(const SubcsrSource<V>& source, const SubcsrConfig& config);
  ~SubcsrBuilder();
  SubcsrBuilder(const SubcsrBuilder&) = delete;
  SubcsrBuilder& operator=(const SubcsrBuilder&) = delete;

  // Steps 1-5 for the active set given as a bitmap of n bits...
  SubcsrShape build_from_bitmap(const uint32_t* bits);
  // ...or as a list of distinct vertices (sorted: copied; else radix-sorted;
  // list == nullptr: the vertices 0..count-1, as PushInput gives every vertex);
  // `light`: the SubCSR of their light lists (set_light_lists) in place of
  // their lists. The pieces then load from the lists the last build read.
  // `limit`: each list's first `limit` entries only (CC's sample pushes two
  // of each); such a SubCSR's pieces load plain, not packed.
  SubcsrShape build_from_list(const V* list, uint64_t count, bool sorted, bool light = false,
                              eid_t limit = kWholeList);
  static constexpr eid_t kWholeList = ~eid_t{0};

  // A second set of lists of the same vertices, the light lists (the
  // entries of weight under some bound; DeviceGraph::light), packed with
  // byte weights, which builds may take in place of the lists; they share
  // the buffers and the scratch. Ignored (light_lists() stays false) where
  // the builder's own lists do not cross packed.
  void set_light_lists(const SubcsrSource<V>& light);
  bool light_lists() const { return has_light_; }

  const std::vector<EdgeRange>& pieces() const { return pieces_; }

  // Allocates the CPU way's pinned host arrays (active list, sub-offsets,
  // staging) now rather than at its first load, which may lie inside a timed
  // run (cudaHostAlloc of the staging takes tens of ms per 100 MB).
  void prepare_cpu_gather();

  // Step 6 for pieces()[piece] into buffer `slot`: begin_load queues the
  // GPU way's gather (and decode) on the slot's stream and returns (the CPU
  // way gathers and copies before it returns); end_load waits for it and
  // returns the piece, in device memory. One load at a time: begin_load(k + 1)
  // goes after end_load(k), and before pushing piece k, which then runs
  // while k + 1 crosses the link. The caller must have finished with what it
  // last processed from `slot` (push_step returns after its kernels have).
  void begin_load(uint64_t piece, uint32_t slot, GatherWay way);
  LoadedPiece<V> end_load();
  LoadedPiece<V> load(uint64_t piece, uint32_t slot, GatherWay way) {
    begin_load(piece, slot, way);
    return end_load();
  }

  const V* active() const { return active_.data(); }                // sorted, active_vertices entries
  const eid_t* sub_offsets() const { return sub_.data(); }          // active_vertices + 1
  const eid_t* scattered_offsets() const { return full_.data(); }  // n + 1, see work_unit.h
  uint64_t active_vertices() const { return count_; }
  bool packed() const { return src_.packed_words_mapped != nullptr; }  // the GPU way reads packed lists
  uint64_t scratch_words() const { return scratch_.size(); }
  const BufferSizing& sizing() const { return sizing_; }
  // A slot's device buffers (capacity_edges entries each; weights null
  // without weights), to lend to a PartitionStreamer between builds.
  V* slot_neighbors(uint32_t slot) const { return buf_n_.at(slot).data(); }
  weight_t* slot_weights(uint32_t slot) const { return cfg_.weights ? buf_w_.at(slot).data() : nullptr; }
  uint64_t vertex_bytes() const;

 private:
  SubcsrShape finish_build(double start);
  void size_slots();
  bool load_packed(const EdgeRange& p, uint32_t slot);
  void decode(const EdgeRange& p, eid_t word_begin, uint32_t slot, int sms, cudaStream_t stream);
  // Queues launch(lines) (a piece's zero-copy gather) on the slot's stream
  // with its line counter zeroed, between the slot's timing events; end_load
  // reads the lines requested and the time.
  template <typename Launch>
  void over_link(uint32_t slot, Launch&& launch);
  void ensure_host_lists(LoadedPiece<V>& out);
  void ensure_staging();

  SubcsrSource<V> src_;          // the lists the last build read: main_ or light_
  SubcsrSource<V> main_, light_;  // the builder's own lists (as sized), the light lists
  bool has_light_ = false;
  SubcsrConfig cfg_;
  BufferSizing sizing_;
  gpu::ScratchPool pool_;
  gpu::DeviceArray<V> active_;
  gpu::DeviceArray<eid_t> sub_;
  gpu::DeviceArray<eid_t> full_;
  gpu::DeviceArray<eid_t> psub_;  // packed sources: the active lists' packed sub-offsets, in words
  gpu::DeviceArray<eid_t> split_;  // 2 entries per slot
  gpu::DeviceArray<unsigned long long> counter_;  // selected count, then pieces planned (build)
  gpu::DeviceArray<EdgeRange> planned_;           // an oversized SubCSR's pieces, planned on the GPU
  gpu::DeviceArray<unsigned long long> lines_;    // one per slot (GPU way)
  gpu::DeviceArray<uint32_t> scratch_;            // packed sources: a piece's packed words
  std::vector<gpu::DeviceArray<V>> buf_n_;
  std::vector<gpu::DeviceArray<weight_t>> buf_w_;
  std::vector<cudaStream_t> streams_;     // one per slot, non-blocking
  std::vector<cudaEvent_t> copied_;       // staging slot free again
  std::vector<cudaEvent_t> began_, ended_;  // the GPU way's gather on the slot's stream (timed)
  unsigned long long* host_lines_ = nullptr;  // pinned, one per slot: lines_ copied back
  bool pending_ = false;                      // begun, not yet ended
  bool pending_gpu_ = false;
  LoadedPiece<V> loading_;
  V* host_active_ = nullptr;              // pinned, n entries
  eid_t* host_sub_ = nullptr;             // pinned, n + 1 entries
  std::vector<V*> stage_n_;               // pinned, one per slot
  std::vector<weight_t*> stage_w_;
  uint64_t count_ = 0;
  eid_t limit_ = kWholeList;  // the last build's entries a list (build_from_list)
  eid_t total_ = 0;
  bool host_active_valid_ = false;
  bool host_sub_valid_ = false;
  std::vector<EdgeRange> pieces_;
};

}  // namespace tg::subgraph
