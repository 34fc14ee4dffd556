// What the subgraph and stream placements did, iteration by iteration, as
// typed records: the run's statistics keep them (run_stats.h) and reports
// write them out. The choice logic that fills them is in
// engines/gpu/subgraph/transfer_choice.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engines/placement.h"

namespace tg::subgraph {

// How the active edges of one iteration reached the GPU.
// kResident: lists read where they lie in GPU memory (the subgraph
// placement's resident light lists), nothing over the link.
enum class Transfer { kSubgraphCpuGather, kSubgraphGpuGather, kStream, kZeroCopy, kResident };
const char* transfer_name(Transfer t);  // "subgraph-cpu", "subgraph-gpu", "stream", "zerocopy", "resident"

// What an iteration looks like when the choice is made.
struct IterationShape {
  uint64_t vertices = 0;         // |V|
  uint64_t total_edges = 0;      // |E| of the CSR the step reads
  uint64_t active_vertices = 0;  // frontier size
  uint64_t active_edges = 0;     // sum of the frontier's degrees
  uint64_t stream_edges = 0;     // edges streaming would copy (PT-Opt: non-resident active partitions); 0: total_edges
  uint32_t id_bytes = 4;
  bool weights = false;
  // The GPU way's bytes an entry over a plain entry's: below 1 where it reads
  // the lists packed (graph/packed_lists.h; about 0.42 with byte weights on
  // kron:25), 1 where it reads them plain.
  double packed_fraction = 1.0;
  uint64_t entry_bytes() const { return id_bytes + (weights ? 4u : 0u); }
};

// Estimated seconds of each way for one iteration's transfer (not compute).
struct TransferEstimate {
  double subgraph_cpu_s = 0;
  double subgraph_gpu_s = 0;
  double stream_s = 0;
  double zero_copy_s = 0;
  uint64_t subgraph_bytes = 0;  // over the link, both directions
  uint64_t stream_bytes = 0;
};

struct TransferChoice {
  Transfer transfer = Transfer::kSubgraphCpuGather;
  double active_edge_fraction = 0;  // active_edges / total_edges (0 when there are no edges)
  TransferEstimate estimate;
  std::string reason;  // one line: which rule decided, with the numbers
};

// What one outer iteration did, for --json and for fitting the threshold.
struct IterationRecord {
  uint64_t iteration = 0;
  uint64_t inner_iterations = 1;  // asynchronous mode: steps run on loaded units
  IterationShape shape;
  TransferChoice choice;
  uint64_t units = 0;  // pieces or partitions processed
  uint64_t bytes_copied = 0;
  double generate_s = 0;  // steps 1-5
  double gather_s = 0;    // step 6
  double copy_s = 0;      // not overlapped with the gather
  double compute_s = 0;
  // Subgraph rounds, host wall time: in pushes (each waits for its counters),
  // and waiting for a piece's load after the previous piece's push. The next
  // piece loads beside each push, so a round is push-bound where load_wait_s
  // is small and load-bound where it is large.
  double push_s = 0;
  double load_wait_s = 0;
};

nlohmann::json to_json(const IterationRecord& r);
// Totals and the per-iteration records.
nlohmann::json summarize(const std::vector<IterationRecord>& records);

}  // namespace tg::subgraph

namespace tg {

// The subgraph / stream placements' totals over a run, and the per-iteration
// records.
struct StreamStats {
  uint64_t budget_bytes = 0;   // device memory of the edge buffers
  uint64_t buffer_edges = 0;   // entries a buffer (SubCSR piece or partition) holds
  uint64_t partitions = 0;
  uint64_t resident_partitions = 0;
  // --host-mem: those a batch's earlier run left loaded in GPU memory
  // (subgraph::ResidentPartitions), not read from the file again.
  uint64_t resident_carried = 0;
  std::optional<StreamMode> mode;  // where partitions are streamed
  bool async = false;
  uint64_t copies = 0;         // partitions copied
  uint64_t skipped = 0;        // partitions without active vertices, not copied (PT-Opt)
  uint64_t resident_hits = 0;  // partitions read from the resident buffer
  uint64_t subcsr_max_edges = 0;
  uint64_t subcsr_max_pieces = 0;
  uint64_t subcsr_bytes = 0;   // SubCSR bytes moved to the device
  uint64_t d2h_bytes = 0;      // active lists and offsets moved to the host (CPU gather)
  // stream with --host-mem (docs/HOST-MEM.md): the pinned page buffers the
  // partitions are read into, the host cache of edges kept once read (the
  // rest of the budget), and the bytes read from the file.
  uint64_t host_buffer_bytes = 0;
  uint64_t host_cache_bytes = 0;
  uint64_t disk_bytes = 0;
  // Gathers: how the in-lists travel, "packed" (graph/packed_lists.h) or
  // "plain", with the reason where packed lists were placed but not used.
  std::string gather_lists;
  // Subgraph pushes: the SubCSR pieces whose out-lists crossed the link
  // packed (the GPU way over packed lists) and those that crossed plain.
  uint64_t packed_pieces = 0;
  uint64_t plain_pieces = 0;
  std::vector<subgraph::IterationRecord> iterations;
};

// The counters under their report names, "subgraph" holding summarize().
nlohmann::json to_json(const StreamStats& s);

}  // namespace tg
