// A GNN feature store (issue 11): the rows of a feature matrix that stays in
// the caller's host memory, gathered by id. With a usable GPU the matrix is
// registered in place and rows are read by zero-copy, the hottest
// gpu_fraction of them (by a tier score over the graph) from a copy in GPU
// memory, the next peer_fraction from copies interleaved over the peer GPUs
// (read directly over NVLink); without one, rows are gathered by CPU
// threads. Hits and bytes per tier are counted. docs/FEATURES.md describes
// it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tiergraph/error.h"
#include "tiergraph/graph.h"

namespace tiergraph {

struct FeatureStoreOptions {
  double gpu_fraction = 0.0;          // rows held in GPU memory, [0, 1]
  double peer_fraction = 0.0;         // the next rows, over the peer GPUs; gpu_fraction + peer_fraction <= 1
  // The peer GPUs (each readable by `device`). Unset: every other visible
  // GPU that `device` can read (none: the peer tier is empty, its rows stay
  // in host memory, and description() says so). A CPU store plans and counts
  // against the peers given, none where unset. Not used (nor peer access
  // enabled) where peer_fraction is 0.
  std::optional<std::vector<int>> peers;
  std::string score = "degree";       // "degree", "reverse-pagerank", "weighted-reverse-pagerank"
  std::vector<uint64_t> train_ids;    // weighted-reverse-pagerank: the labelled nodes
  std::string where = "auto";         // "auto" (a GPU where usable), "gpu" (required), "cpu"
  int device = 0;                     // which GPU
  double sm_fraction = 1.0;           // share of the GPU's SMs the gather kernel may fill, (0, 1]
  // Share of each large gather's host-memory rows that CPU threads gather
  // into pinned memory for the copy engine to carry, beside the kernel's
  // zero-copy reads of the rest (GPU stores; host ids): 0 none, (0, 1] that
  // share, negative: balanced from the rates each gather measures. Meant for
  // small rows (under about 1 KB), whose zero-copy reads are bounded by the
  // GPU's address translation, not the link; it costs CPU cores, and on the
  // H200 it gained nothing (docs/PERF.md).
  double cpu_share = 0.0;
};

// What the gathers so far read from each tier. Without a GPU the tiers are
// still planned and counted as a GPU store would (every byte is read from
// host memory then: on_gpu is false).
struct FeatureStoreStats {
  bool on_gpu = false;
  uint64_t gpu_rows = 0, peer_rows = 0, host_rows = 0;  // rows in each tier
  uint64_t gpu_hits = 0, peer_hits = 0, host_hits = 0;  // rows gathered from each tier
  uint64_t gpu_bytes = 0, peer_bytes = 0, host_bytes = 0;
  uint64_t gathers = 0;
};

class TIERGRAPH_API FeatureStore {
 public:
  // rows: num_rows rows of row_bytes bytes, row-major and packed, in host
  // memory that must outlive the store (it is read in place; a GPU store
  // copies it once into pinned memory only where it cannot or should not be
  // pinned in place: host_rows_in_place() and description() tell). graph:
  // one vertex per row, scoring the rows for the GPU tier; without it the first rows are the hot ones (a matrix already ordered
  // hottest first). Throws Error kUsage for a fraction outside [0, 1] or
  // fractions above 1 together, an unknown score or `where`, a graph of
  // another size, a device or peer that does not exist, a peer the device
  // cannot read, train ids without a graph or past the rows, num_rows x
  // row_bytes past 2^64, and any use of a moved-from store; kOther where="gpu"
  // finds no usable GPU; kOutOfMemory where GPU memory is short.
  FeatureStore(const void* rows, uint64_t num_rows, uint64_t row_bytes, const Graph* graph = nullptr,
               const FeatureStoreOptions& options = {});
  ~FeatureStore();
  FeatureStore(FeatureStore&&) noexcept;
  FeatureStore& operator=(FeatureStore&&) noexcept;

  uint64_t num_rows() const;
  uint64_t row_bytes() const;
  bool on_gpu() const;
  int device() const;  // -1 without a GPU
  std::vector<int> peers() const;  // the peer tier's GPUs, in interleaving order (planned ones on a CPU store)
  // One line: the rows of each tier and where they are, and why a requested
  // peer tier is empty ("40 rows in GPU memory (device 0), 80 over peer GPUs
  // 1, 280 in host memory"), and whether the host rows are read in place.
  std::string description() const;
  // False where a GPU store could not register the caller's matrix in place
  // (it shares a page with memory registered elsewhere; a read-only file
  // mapping where read-only registration is unsupported; a private, copy-on-
  // write file mapping, which pins far too slowly) and copied it once
  // into pinned memory: twice the host memory, and later writes to the
  // matrix are not seen. description() says why. True on a CPU store.
  bool host_rows_in_place() const;

  // Rows ids[0..n) packed into out (host memory, n * row_bytes). Throws
  // Error kUsage for an id that is negative or not a row.
  void gather(const int64_t* ids, size_t n, void* out);
  // The same rows in fresh GPU memory (freed with the last copy of the
  // pointer; null for no bytes), complete on return. GPU stores only.
  std::shared_ptr<void> gather_to_device(const int64_t* ids, size_t n);
  // The same rows written into the caller's GPU memory `out` (n * row_bytes
  // on device()), ordered on `stream` (a cudaStream_t of that GPU as an
  // integer, 0 for the legacy default stream) as a kernel queued there
  // would be: it waits for the stream's earlier work, the stream's later
  // work sees the rows. Returns without waiting for the GPU; ids may be
  // reused at once. GPU stores only.
  void gather_into_device(const int64_t* ids, size_t n, void* out, uintptr_t stream);
  // The same with the ids in GPU memory too (device(), written on `stream`,
  // e.g. a sampler's output): checked and counted on the GPU, which waits for
  // the stream's queued work once. Throws Error kUsage for an id out of range.
  void gather_on_device(const int64_t* device_ids, size_t n, void* out, uintptr_t stream);

  FeatureStoreStats stats() const;
  void reset_stats();

 private:
  struct Impl;
  Impl& impl() const;  // throws kUsage on a moved-from store
  std::unique_ptr<Impl> impl_;
};

}  // namespace tiergraph
