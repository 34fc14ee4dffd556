// One traversal step of the GPU engine, as the edge sources and the kernels
// see it: a source (sources/) fills these argument structs and calls
// push_step, pull_step or gather_step for its access pattern; the kernels are
// defined in push.cuh, pull.cuh and gather.cuh, and each access pattern's
// translation unit (access_*.cu) compiles them for every operator of the
// algorithm registry (instantiate.cuh). Other translation units see only the
// declarations below, so the kernels are compiled once.
//
// An access pattern differs from another only in where the edge array lives
// and how a worker walks a neighbour list (thread or warp, aligned or not),
// so one template over `Access` serves all of them.
#pragma once

#include <cstdint>
#include <memory>

#include "core/types.h"
#include "engines/gpu/cuda_util.h"

namespace tg::gpu {

class SideStream;  // side_stream.h

// How the kernels reach the edge array.
enum class Access {
  kDevice,   // edges in GPU memory (cudaMalloc); warp per list, long lists split
  kUvm,      // edges in managed memory (ReadMostly); same kernels, pages counted
  kNaive,    // pinned host memory, one thread walks a whole list (EMOGI Listing 1)
  kMerged,   // pinned host memory, a warp reads a list 32 entries at a time
  kAligned,  // as kMerged, but starting at the 128-byte line before the list (EMOGI Listing 2)
};

// A word of the lookup of cached lists: a bit for each of 32 consecutive
// vertices whose list is cached, and how many cached lists precede them.
struct alignas(8) CacheWord {
  uint32_t bits;
  uint32_t before;
};

// The resident edge cache of a zero-copy placement in GPU memory (docs/GPU.md;
// what it holds is chosen by engines/edge_cache_plan.h). Empty (no heads, no
// lists) for every other placement and with --edge-cache off.
//
// How a kernel finds a cached list: lists shorter than min_degree are never
// cached, which it knows from the degree it already holds, without a load;
// nearly every list of a power-law graph stops there. A longer one costs one
// 8-byte load of its word (its bit, and its rank among the cached lists by
// a popcount), and a cached one a second load, of its start. The lookup
// takes 8 bytes per 32 vertices and 8 per cached list (8 MiB for 2^25
// vertices), where a slot per vertex would take 8 bytes each (256 MiB), and a
// sorted table of cached ids a binary search of log2(lists) loads per list.
template <typename V>
struct EdgeCacheView {
  // Heads: the first `heads` entries of every list, entry i of v's list at
  // head_ids[i * plane + v]. A plane per i, so that the 32 lanes probing
  // entry i of 32 consecutive vertices read one 128-byte line (4-byte ids),
  // and a lane that stops early leaves the later planes unread.
  int heads = 0;
  uint64_t plane = 0;  // vertices
  const V* head_ids = nullptr;
  const weight_t* head_weights = nullptr;  // where the placement holds weights
  // Whole lists: v's list, if cached, at ids[start ..], start from the lookup,
  // or with `all` (every list cached) at ids[offsets[v] ..].
  int64_t min_degree = INT64_MAX;
  bool all = false;
  const CacheWord* words = nullptr;  // (vertices + 31) / 32
  const eid_t* starts = nullptr;     // per cached list, in vertex order
  const V* ids = nullptr;
  const weight_t* weights = nullptr;  // where the placement holds weights
};

// One CSR as the kernels see it. Offsets are always in GPU memory; neighbours
// and weights in the placement's memory (for zero-copy: the device pointer of
// pinned host memory).
template <typename V>
struct CsrView {
  const eid_t* offsets = nullptr;
  const V* neighbors = nullptr;
  const weight_t* weights = nullptr;  // null unless the operator needs them
  // Entries before neighbors[0] up to the previous 128-byte line (0 when the
  // array is 128-byte aligned, as tg::Array and cudaHostAlloc make it).
  uint32_t neighbor_misalign = 0;
  EdgeCacheView<V> cache;  // zero-copy: what of these lists GPU memory holds
};

// Counters a step accumulates on the device; the engine zeroes them before a
// step and folds them into RunStats after it.
struct StepCounters {
  unsigned long long edges;      // neighbour entries read
  unsigned long long sectors;    // 32-byte sectors requested across the link (zero-copy)
  unsigned long long cache_bytes;  // read from the resident edge cache in GPU memory (zero-copy)
  unsigned long long requests;   // link requests: distinct 128-byte lines per warp load
  unsigned long long pages;      // UVM pages touched for the first time in this run
  unsigned long long out_count;  // vertices written to the output frontier
  unsigned long long big_count;  // long lists deferred to the chunked pass
  unsigned long long warp_count;  // gather on kDevice: lists deferred from a thread each to a warp each
};

// Lists longer than this are cut into chunks of this many entries, each
// walked by its own warp, so that one vertex of degree one million does not
// keep a single warp busy while the rest of the GPU idles.
constexpr int64_t kChunkEntries = 1024;
// A gather in GPU memory sums lists of at most this many entries with one
// thread each (32 lists a warp at once), longer ones with a warp each: on
// kron:25 a pass of warps over every vertex cost about 6 ms of latency
// whatever its lists held, most of them a few entries (docs/GPU.md,
// "Source blocks").
constexpr int64_t kThreadEntries = 8;
// UVM accounting granule: 64 KiB, the unit in which the driver migrates pages
// on a GPU fault (see docs/GPU.md, "Bytes moved").
constexpr int kUvmPageShift = 16;

// What every step's arguments hold: the CSR it reads and where it counts.
template <typename V>
struct StepArgs {
  CsrView<V> csr;
  StepCounters* counters = nullptr;
  uint32_t* uvm_pages = nullptr;  // UVM: one bit per page of neighbours, then of weights
  uint64_t uvm_weight_page0 = 0;  // first bit of the weights' pages
  V* big_queue = nullptr;         // long lists deferred to the chunked pass: capacity, the step's items
  int sms = 1;
  ScratchPool* pool = nullptr;
};

template <typename V>
struct PushArgs : StepArgs<V> {  // csr: out-edges
  const V* frontier = nullptr;  // null: the frontier is every vertex (0..count-1)
  uint64_t count = 0;
  bool want_output = true;
  uint32_t* out_bits = nullptr;  // all zero on entry; the output set, one bit per vertex
  V* out_queue = nullptr;        // capacity: number of vertices
};

template <typename V>
struct PullArgs : StepArgs<V> {  // csr: in-edges
  uint64_t n = 0;
  const uint32_t* in_bits = nullptr;  // the input frontier as a bitmap
  uint32_t* out_bits = nullptr;       // every word is written
};

// The second pass over the nb long lists a first pass deferred to big_queue:
// each list's chunks numbered in order (prefix[i] = first chunk of big[i],
// prefix[nb] = all chunks; kernels/edge_walk.cuh's plan_chunks). The arrays
// come from the pool and live as long as the plan.
struct ChunkPlan {
  std::shared_ptr<void> chunks, prefix;
  unsigned long long total = 0;
  const unsigned long long* starts() const { return static_cast<const unsigned long long*>(prefix.get()); }
};

// The queues a gather in GPU memory over every vertex of a range leaves
// (kernels/gather.cuh): the lists longer than a thread's in the warp queue,
// those longer than a warp's in big_queue with their chunk plan. Which list
// goes where depends only on its length, so the edge source keeps them for
// the next gather over the same range of the same CSR (PageRank's every
// iteration), which then queues nothing and waits for no count: one read-back
// a step where a fresh one takes four and a scan. The source forgets them
// when another step may write its queues.
struct GatherQueues {
  bool known = false;
  const void* offsets = nullptr;  // the CSR's (its identity)
  uint64_t first = 0, n = 0;      // the range
  uint64_t warp_count = 0;        // lists in the warp queue
  uint64_t big_count = 0;         // lists in big_queue
  ChunkPlan chunks;               // big_queue's
  bool hold(const void* o, uint64_t f, uint64_t count) const { return known && offsets == o && first == f && n == count; }
  void forget() { *this = GatherQueues{}; }
};

template <typename V>
struct GatherArgs : StepArgs<V> {  // csr: in-edges
  uint64_t n = 0;  // vertices first .. first + n - 1
  uint64_t first = 0;
  // Streamed in-edge partitions (placements subgraph / stream): null, or an
  // Op::acc_t per vertex to which each vertex's sum is added instead of being
  // applied. A list split over several partitions is then summed in parts,
  // one launch after another; the engine applies once every part is in.
  void* partial = nullptr;
  double* residual = nullptr;  // zero on entry; sum of apply's results
  // kDevice: where lists longer than kThreadEntries wait for a warp each
  // (capacity n); null: every list by a warp (the streamed placements).
  V* warp_queue = nullptr;
  const V* vertices = nullptr;  // the warp pass: its vertices (n of them) instead of first ..
  // An operator with source_values (engines/engine.h), in GPU memory: the
  // warp and chunked passes hold the values of sources 0 .. kStagedCluster x
  // staged_per_block - 1 in their clusters' shared memory (staged_values.h);
  // 0: every value from global memory.
  uint32_t staged_per_block = 0;
  // Host: where a full gather in GPU memory keeps its queues for the next
  // over the same range (null: built each step, as every other caller does).
  GatherQueues* queues = nullptr;
  // Host: with the queues kept, the thread pass runs on this stream beside
  // the warp passes (null: before them, on the default stream).
  SideStream* beside = nullptr;
  // Kernels: the queues are a previous gather's, so a pass skips the lists
  // it would queue instead of queueing them again.
  bool queues_kept = false;
};

// A gather over packed in-lists (graph/packed_lists.h), for the streamed
// placements: csr.offsets are the lists' entry offsets (their degrees), and
// v's packed list starts at words[word_offsets[v]] (words shifted back as a
// loaded unit's neighbours are). 4-byte ids, no weights.
template <typename V>
struct PackedGatherArgs : GatherArgs<V> {
  const eid_t* word_offsets = nullptr;
  const uint32_t* words = nullptr;
};

// A gather over Garaph's shards of the in-edges in GPU memory
// (engines/shard_plan.h, gather_shards.cuh): shards [first_shard,
// end_shard) clipped to vertices first .. first + n - 1, a block each; the
// long lists (R = 0) are gathered apart, by the chunked warp pass over
// big_queue (long_count of them). `slots` accumulators of shared memory a
// block.
template <typename V>
struct ShardGatherArgs : GatherArgs<V> {
  const uint64_t* starts = nullptr;    // shard i: vertices [starts[i], starts[i + 1])
  const uint8_t* replicas = nullptr;   // R of shard i; 0 for a long list
  const uint16_t* idx_off = nullptr;   // an in-edge's destination, as its offset in its shard
  uint64_t first_shard = 0, end_shard = 0;
  uint64_t slots = 0;
  uint64_t long_count = 0;
};

// A push over packed out-lists lying in GPU memory (graph/packed_lists.h,
// with byte weights): csr.offsets are the lists' entry offsets, and u's
// packed list starts at words[word_offsets[u]]. The subgraph placement's
// light lists, resident (DeviceGraph::light). 4-byte ids.
template <typename V>
struct PackedPushArgs : PushArgs<V> {
  const eid_t* word_offsets = nullptr;
  const uint32_t* words = nullptr;
};

// Each returns the step's counters, copied to the host.
template <Access A, typename V, typename Op>
StepCounters push_step(const PushArgs<V>& args, const Op& op);
template <Access A, typename V, typename Op>
StepCounters pull_step(const PullArgs<V>& args, const Op& op);
// Also returns the residual (sum of apply's results) through *residual.
template <Access A, typename V, typename Op>
StepCounters gather_step(const GatherArgs<V>& args, const Op& op, double* residual);
// The same over packed lists (compiled in gather_packed.cu, for 4-byte ids).
template <typename V, typename Op>
StepCounters gather_packed_step(const PackedGatherArgs<V>& args, const Op& op, double* residual);
// The same over Garaph's shards (compiled in gather_shards.cu).
template <typename V, typename Op>
StepCounters gather_shards_step(const ShardGatherArgs<V>& args, const Op& op, double* residual);
// A push over packed lists in GPU memory (compiled in push_packed.cu, for
// 4-byte ids and the operators with a weight band).
template <typename V, typename Op>
StepCounters push_packed_step(const PackedPushArgs<V>& args, const Op& op);

}  // namespace tg::gpu
