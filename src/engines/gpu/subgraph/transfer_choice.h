// The per-iteration choice of how the active edges reach the GPU:
//
//   subgraph, CPU gather: build the SubCSR (Subway algorithm 3), OpenMP
//                         threads copy the active lists into pinned staging,
//                         cudaMemcpyAsync moves them (the paper's way);
//   subgraph, GPU gather: the same SubCSR, but a kernel reads the lists over
//                         zero-copy (warp per list, 128-byte aligned) straight
//                         into device memory;
//   stream:               copy the partitions holding active vertices (PT-Opt);
//   zero-copy:            no copy, the kernels read host memory in place
//                         (the GPU engine's zerocopy-aligned placement; later).
//
// Subway's rule is a threshold on the fraction of active edges: above 80%,
// stream (section 3.1). `kThreshold` applies it with the threshold as a
// parameter; `kCostModel` compares estimated times from link and gather rates
// (PLATFORM.md priors, replaced by rates measured during the run). Every
// choice keeps its inputs and estimates (IterationRecord) so that the
// threshold can be measured rather than assumed. Pure host logic.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tg::subgraph {

enum class Transfer { kSubgraphCpuGather, kSubgraphGpuGather, kStream, kZeroCopy };
const char* transfer_name(Transfer t);  // "subgraph-cpu", "subgraph-gpu", "stream", "zerocopy"

// Rates in bytes (or lists) per second. Defaults are this machine's
// measurements (../shared/PLATFORM.md, H100 over PCIe Gen5) where they exist,
// and guesses, marked, where they do not yet.
struct TransferRates {
  double link = 54.1e9;             // pinned cudaMemcpy host->device
  double cpu_gather = 20e9;         // guess: 16 cores copying lists into pinned staging
  double gpu_gather = 50.7e9;       // zero-copy, warp-merged, 128 B aligned, address order
  double gpu_gather_lists = 44e6;   // lists/s floor: scattered lists over multi-GB footprints
  double device_pass = 1000e9;      // bytes/s of the scans and compactions of steps 1-5
  double launch_s = 10e-6;          // fixed cost per kernel launch or copy
};

// What an iteration looks like when the choice is made.
struct IterationShape {
  uint64_t vertices = 0;         // |V|
  uint64_t total_edges = 0;      // |E| of the CSR the step reads
  uint64_t active_vertices = 0;  // frontier size
  uint64_t active_edges = 0;     // sum of the frontier's degrees
  uint64_t stream_edges = 0;     // edges streaming would copy (PT-Opt: non-resident active partitions); 0: total_edges
  uint32_t id_bytes = 4;
  bool weights = false;
  uint64_t entry_bytes() const { return id_bytes + (weights ? 4u : 0u); }
};

enum class ChoiceRule { kThreshold, kCostModel };
enum class GatherPreference { kAuto, kCpu, kGpu };

struct ChoiceParams {
  ChoiceRule rule = ChoiceRule::kThreshold;
  double stream_threshold = 0.8;  // Subway: stream when active edges > 80% of all
  GatherPreference gather = GatherPreference::kAuto;  // kAuto: the cheaper estimate
  bool allow_stream = true;
  bool allow_zero_copy = false;  // not wired yet (phase 2+)
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

TransferEstimate estimate_transfer(const IterationShape& shape, const TransferRates& rates);

struct TransferChoice {
  Transfer transfer = Transfer::kSubgraphCpuGather;
  double active_edge_fraction = 0;  // active_edges / total_edges (0 when there are no edges)
  TransferEstimate estimate;
  std::string reason;  // one line: which rule decided, with the numbers
};

// Throws tg::Error for a threshold outside [0, 1] or a shape whose active
// part exceeds its whole.
TransferChoice choose_transfer(const IterationShape& shape, const TransferRates& rates, const ChoiceParams& params);

// A measured rate: bytes (or lists) over seconds across the last `window`
// samples large enough to mean something; the prior until there is one.
class RateMeter {
 public:
  explicit RateMeter(double min_amount = double(1 << 20), size_t window = 8) : min_(min_amount), window_(window) {}
  void add(double amount, double seconds);
  double rate(double prior) const;
  uint64_t samples() const { return samples_; }

 private:
  double min_;
  size_t window_;
  std::deque<std::pair<double, double>> recent_;
  uint64_t samples_ = 0;
};

struct TransferMeters {
  RateMeter link, cpu_gather, gpu_gather;
  // The priors, with each measured rate in place of its prior.
  TransferRates rates(const TransferRates& prior) const;
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
};

nlohmann::json to_json(const IterationRecord& r);
// Totals and the per-iteration records.
nlohmann::json summarize(const std::vector<IterationRecord>& records);

}  // namespace tg::subgraph
