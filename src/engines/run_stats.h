// What a run measured, typed: every engine fills what applies to it, and
// reports write it out (to_json below keeps the record's field names).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engines/stream_stats.h"

namespace tg {

// The resident edge cache of a zero-copy placement (docs/GPU.md, "The
// resident edge cache"): what GPU memory holds of the edge lists.
struct EdgeCacheStats {
  std::string mode;           // --edge-cache: auto or off
  uint64_t budget_bytes = 0;  // GPU memory it could fill: the budget, within free memory
  uint64_t bytes = 0;         // it holds: heads, lists, lookups
  int heads = 0;              // H: first entries of every in-list
  uint64_t lists = 0;         // whole lists
  uint64_t cached_entries = 0;  // list entries it holds (a head within a cached list once)
  uint64_t total_entries = 0;   // of the lists placed

  double cached_fraction() const { return total_entries ? double(cached_entries) / double(total_entries) : 0.0; }
};

// The placed graph of a GPU run: where it went and what it cost.
// The device placement's source-blocked in-edges (engines/gpu/source_blocks.h):
// blocks 0 where none were built, with the reason in note.
struct SourceBlockStats {
  int blocks = 0;
  uint64_t block_vertices = 0;
  uint64_t bytes = 0;  // the copy of the entries and the blocks' offsets
  double build_s = 0;
  std::string note;
};

// Garaph's shards of the device placement's in-edges (`--gather-layout
// shards`, engines/shard_plan.h, engines/gpu/gather_shards.h).
struct ShardStats {
  uint64_t shards = 0;           // long lists included
  uint64_t long_lists = 0;       // lists past max_edges, gathered by the chunked warp pass
  uint64_t long_list_edges = 0;
  uint64_t slots = 0;            // accumulators a block
  uint64_t max_edges = 0;        // in-edges a shard at most
  uint64_t shards_by_replication[6] = {};  // R = 1, 2, 4 .. 32
  uint64_t edges_by_replication[6] = {};
  uint64_t bytes = 0;            // IdxOff, the shards' starts and R, the long lists
  double build_s = 0;
};

// The in-lists a streamed placement's gathers copy packed (graph/packed_lists.h).
struct PackedListsStats {
  uint64_t entries = 0;      // list entries
  uint64_t plain_bytes = 0;  // of those entries unpacked: ids, and weights where packed with them
  uint64_t bytes = 0;        // packed: chunk tables, headers, gaps and byte weights
  double build_s = 0;        // the encoder's pass, part of the transfer phase
  bool weights = false;      // some lists carry byte weights (subgraph pushes of SSSP, SSWP)
  bool gpu_encoder = false;  // packed on the GPU (TG_GPU_PACK=1, engines/gpu/packed_encoder.h)
  bool resident = false;     // the packed words copied into GPU memory, within the budget (light lists)
  double ratio() const { return bytes ? double(plain_bytes) / double(bytes) : 0.0; }
  PackedListsStats& operator+=(const PackedListsStats& o) {
    entries += o.entries;
    plain_bytes += o.plain_bytes;
    bytes += o.bytes;
    build_s += o.build_s;
    weights = weights || o.weights;
    gpu_encoder = gpu_encoder || o.gpu_encoder;
    resident = resident || o.resident;
    return *this;
  }
};

struct GpuPlacementStats {
  std::string gpu;                     // device name
  uint64_t budget_bytes = 0;           // device memory the edges may take
  uint64_t gpu_free_bytes = 0;         // free before the run
  uint64_t edge_bytes = 0;             // of the edge arrays the run reads
  uint64_t vertex_bytes_estimate = 0;  // offsets, values, frontiers
  uint64_t transfer_bytes = 0;         // edge bytes copied to the GPU before the run
  uint64_t zerocopy_copied_bytes = 0;  // edge bytes copied into pinned memory (file mappings are not pinned in place)
  std::optional<EdgeCacheStats> edge_cache;  // zero-copy placements
  std::optional<SourceBlockStats> source_blocks;  // device placement, once a gather asked for them
  // Device placement: the first sources whose values the gather's warp and
  // chunked passes stage in their clusters' shared memory
  // (engines/gpu/staged_values.h), 0 none.
  uint64_t staged_values = 0;
  std::optional<ShardStats> gather_shards;         // device placement with --gather-layout shards, once built
  std::optional<PackedListsStats> packed_lists;    // subgraph / stream, where lists were packed
  // subgraph: the out-lists' entries of weight under light_below, packed as
  // lists of their own (EdgeReads::light_below; DeviceGraph::light); their
  // build_s counts the split too
  std::optional<PackedListsStats> light_lists;
  double light_below = 0;
  // The packed bytes light lists would have taken where they were not kept
  // (past kLightListsBudgetPercent of the budget, so not resident: no split); 0 where kept or none.
  uint64_t light_lists_left = 0;
};

// A run across several GPUs (`--gpus N`, src/distributed/gpu/): the
// partition, and per level the slowest rank's kernel and NCCL time and the
// bytes all ranks sent (Graph500's per-level split, issue 10).
struct DistributedLevel {
  double compute_s = 0;
  double communication_s = 0;  // waiting for slower ranks included
  uint64_t bytes_exchanged = 0;
  uint64_t normals_exchanged = 0;  // normal vertices sent to their owners
  uint32_t delegate_frontier = 0;
  int ranks_pulling = 0;  // ranks whose delegate frontier went bottom-up
  // BFS: compute_s by phase, each the slowest rank's (distributed/gpu/rank_program.h's LevelRecord)
  double normals_s = 0, delegates_s = 0, visit_s = 0, settle_s = 0;
  bool normals_pulled = false;  // BFS: the normal frontier bottom-up too, on every rank (no normal crossed ranks)
  // BFS on several GPUs, how the level crossed ranks (distributed/gpu/rank_bfs.cu): "queues" (the
  // queues' lengths gathered and read back, then the queues, then the reached masks), "quiet" (the
  // same, but no rank reached a delegate: announcements in place of the masks), "small" (queues of a
  // fixed length with the masks, in one group), "tail" (past the peak: fixed queues with the lengths
  // alone), "tail+mask" (a tail level some rank reached a delegate at: the masks after all),
  // "pulled" (the normals bottom-up: visited bits, then the masks); empty on one GPU.
  std::string exchange;
  // BFS: the frontiers' edges entering the level (the directions' inputs):
  // the delegate frontier's dn and dd edges, the normal frontier's nn and nd.
  uint64_t delegate_frontier_edges = 0, normal_frontier_edges = 0;
  // The fastest rank's compute and the least any rank waited in the
  // collectives: beside the slowest's above, the ranks' imbalance, and the
  // collectives' own latency.
  double compute_min_s = 0, communication_min_s = 0;
  // BFS: communication_s by phase, each the slowest rank's (LevelRecord's).
  double normals_exchange_s = 0, delegates_exchange_s = 0, frontier_share_s = 0;
  // Parts in host memory: list bytes every rank's kernels read whole over
  // its link (a lower bound on what the links carried), and the slowest
  // rank's time in those kernels (LevelRecord's).
  uint64_t host_bytes_read = 0;
  double host_read_s = 0;
};
struct DistributedStats {
  int gpus = 0;
  uint64_t threshold = 0;  // TH: out-degree above which a vertex is a delegate
  uint64_t delegates = 0;
  uint64_t bytes_exchanged = 0;
  int parts_in_host_memory = 0;  // ranks whose lists stay in host memory, read by zero-copy
  std::vector<DistributedLevel> levels;

  // The levels' host_bytes_read and host_read_s, summed: every link's bytes
  // over the time the slowest rank read, the aggregate rate of the bulk steps.
  uint64_t host_bytes_read() const;
  double host_read_s() const;
  double host_read_gb_per_s() const;  // the two's quotient in GB/s; 0 where nothing was read
};

// The hybrid engine (`--engine hybrid`, src/engines/hybrid/): how its gathers
// were split between the GPU and the CPU threads, summed over the run. A
// side's idle time is the part of a split gather it spent waiting for the
// other; the exchange copies each side's share of the vertex data the
// gather's operator points to across the link (vertex bytes, apart from the
// edge bytes of bytes_moved).
struct HybridStats {
  uint64_t pages = 0;          // a gather's pages
  uint64_t gathers = 0;        // split gathers (others ran on the GPU alone)
  uint64_t forest_steps = 0;   // split edge maps of forest operators (CC's links)
  uint64_t gpu_only_steps = 0;  // gathers and other steps the GPU ran alone
  uint64_t pages_gpu = 0, pages_cpu = 0;
  uint64_t edges_gpu = 0, edges_cpu = 0;
  double gpu_busy_s = 0, cpu_busy_s = 0;
  double gpu_idle_s = 0, cpu_idle_s = 0;
  double exchange_s = 0;         // the exchanges and the refreshes
  uint64_t exchange_bytes = 0;  // vertex data over the link after split gathers, both ways
  uint64_t refresh_bytes = 0;   // stale mirrors brought up to date (after GPU steps)
  int cpu_threads = 0;
  double last_cpu_share = 0;  // of the last split step's work
};

// `--host-mem` on the CPU engine (src/engines/paged/, docs/HOST-MEM.md): the
// budget, what stayed in memory, and the reading of the edges from the .tgb
// file in pages, ahead of the engine on a reader thread.
struct PagingStats {
  uint64_t budget_bytes = 0;         // --host-mem
  uint64_t edge_bytes = 0;           // the edge arrays the run reads (neighbours, weights, in-edges), in the file
  uint64_t resident_bytes = 0;       // graph bytes in memory: the offsets; paged, the buffers and resident edges too
  uint64_t resident_edge_bytes = 0;  // edge bytes kept in memory (paged: a prefix of each array read, once read)
  bool paged = false;                // false: everything fitted the budget, the run read memory as without it
  bool direct_io = false;            // O_DIRECT; false: ordinary reads, each range dropped from the page cache after
  uint64_t buffer_bytes = 0;         // the page buffers, all of them
  uint64_t window_edges = 0;         // edges a buffer holds
  uint64_t disk_bytes = 0;           // read from the file (into the buffers and the resident edges)
  uint64_t resident_read_bytes = 0;  // of disk_bytes, read into the resident edges (each page once)
  uint64_t reads = 0;                // pread calls (a window's pages coalesced across small gaps)
  uint64_t windows = 0;              // buffers filled
  uint64_t resident_windows = 0;     // windows served from the resident edges (no buffer)
  uint64_t prefetched = 0;           // windows already read when the engine came for them
  uint64_t waited = 0;               // windows the engine waited for
  double wait_s = 0;                 // time the engine spent waiting for the disk
  uint64_t partial_pulls = 0;        // pulls that read only their vertices' lists, not the whole array
};

struct RunStats {
  std::vector<std::pair<std::string, double>> phases_s;  // e.g. {"compute", 0.12}, in order
  uint64_t iterations = 0;
  uint64_t edges_traversed = 0;  // edges the engine read (both directions)
  uint64_t bytes_moved = 0;      // across the host-GPU link
  uint64_t cache_bytes_read = 0;  // GPU: edge bytes read from the resident edge cache in GPU memory instead
  uint64_t bytes_needed = 0;     // bytes of the edges the algorithm needed
  uint64_t push_steps = 0;
  uint64_t pull_steps = 0;
  uint64_t notify_pull_steps = 0;  // CPU: Garaph's notify-pull steps (engines/cpu/notify_pull.h)
  uint64_t link_requests = 0;    // zero-copy: distinct 128-byte lines per warp load
  std::optional<double> residual;  // iterative algorithms: the last change (pagerank)
  std::optional<bool> converged;   // iterative algorithms: the tolerance met (false: stopped at --max-iters)
  std::string advice;              // the algorithm's hint where it did not converge
  int threads = 0;                 // CPU engine: OpenMP threads
  std::optional<GpuPlacementStats> gpu;
  std::optional<StreamStats> stream;  // subgraph / stream placements
  std::optional<DistributedStats> distributed;
  std::optional<HybridStats> hybrid;
  std::optional<PagingStats> paging;  // --host-mem
  nlohmann::json plan;                // --placement auto: the planner's plan (planner/planner.h); null otherwise

  void add_phase(const std::string& name, double seconds);
  double phase(const std::string& name) const;  // 0 when absent
};

// The engine-specific part of a report (its "details" object).
nlohmann::json details_json(const RunStats& stats);

}  // namespace tg
