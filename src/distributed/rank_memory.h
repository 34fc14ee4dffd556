// The GPU memory one rank's program takes (src/distributed/gpu's programs:
// BFS, CC, SSSP, PageRank), from the rank's counts alone, so that the
// programs check their fit with it and `tiergraph plan --gpus N` can say,
// without a GPU and without building the partition, where each rank's part
// would go.
#pragma once

#include <cstdint>
#include <string>

#include "distributed/degree_separation.h"
#include "distributed/partition_summary.h"

namespace tg::dist {

struct RankShape {
  uint64_t num_vertices = 0;  // of the whole graph
  int num_ranks = 1;
  int rank = 0;
  uint64_t normals = 0;
  uint64_t delegates = 0;
  EdgeCounts edges{};
  bool weighted = false;  // the graph has weights
};
RankShape shape_of(const RankGraph& rank);
RankShape shape_of(const PartitionSummary& summary, int rank);

// What each program holds: every array rounded to 256 bytes, as one
// allocation holding them all lays them out.
struct RankMemory {
  uint64_t offsets = 0;  // the four CSRs' offsets, chunk rows and local_of_slot: always on the GPU
  uint64_t lists = 0;    // neighbours (and weights where the program reads them): on the GPU or in host memory
  uint64_t state = 0;    // the program's vertex arrays, queues and exchange buffers
  uint64_t on_gpu(bool lists_in_gpu_memory) const { return part(lists_in_gpu_memory) + state; }
  uint64_t part(bool lists_in_gpu_memory) const { return offsets + (lists_in_gpu_memory ? lists : 0); }
};

// What a rank leaves free beside its program: CUB's scratch, NCCL's buffers.
constexpr uint64_t kRankMemoryMargin = uint64_t{256} << 20;
// algorithm: bfs, cc, sssp or pagerank (sssp places the weights too).
RankMemory rank_memory(const std::string& algorithm, const RankShape& shape);
// The part alone (offsets and lists), the weights with it where asked.
RankMemory part_memory(const RankShape& shape, bool with_weights);

// The push kernels' chunk of edges (gpu/push_kernels.cuh), and the entries of
// a CSR's chunk index: the row holding each chunk's first edge, and the last
// edge's row after them (none for a CSR without edges).
inline constexpr uint64_t kPushChunkEdges = 2048;
inline uint64_t chunk_rows_entries(uint64_t edges) {
  return edges == 0 ? 0 : (edges + kPushChunkEdges - 1) / kPushChunkEdges + 1;
}

// The rows a queue of active rows holds (CC's and SSSP's rounds on several
// GPUs, gpu/rank_relax.h): an eighth of them, where pushing from a queue
// pays; more active rows than that push by the chunks of every row.
inline uint64_t active_queue_capacity(uint64_t rows) { return rows < 512 ? rows : rows / 8; }

// The slots of one owner segment (owner_segments.h): rank 0's, the most any rank has.
inline uint64_t segment_slots(uint64_t num_vertices, int num_ranks) {
  return DegreeSeparation::slots_on_rank(num_vertices, num_ranks, 0);
}

}  // namespace tg::dist
