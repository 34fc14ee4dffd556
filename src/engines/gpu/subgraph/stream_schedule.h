// Partition streaming, the baselines of Subway's evaluation (section 4.1):
//
//   PT:     the CSR is cut into vertex-range partitions that fit one buffer;
//           every iteration copies every partition, one after another, into
//           that buffer and runs the step on it. No overlap, no skipping.
//   PT-Opt: partitions without an active vertex are skipped; the first
//           partitions that fit the budget left after the rotating buffers
//           stay resident once loaded ("the first k stay", reloaded never);
//           the others rotate through 2-3 staging buffers, each with its own
//           copy stream, so that the copy of the next partition overlaps the
//           kernel of the current one (double / triple buffering).
//
// This file is the host logic: the budget split and, per iteration, the
// ordered list of steps (which partition, which slice of the active list,
// copied into which buffer). partition_streamer.cuh executes it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engines/gpu/subgraph/subgraph_plan.h"
#include "engines/placement.h"

namespace tg::subgraph {

// PT or PT-Opt: tg::StreamMode (engines/placement.h).
using ::tg::StreamMode;

struct StreamConfig {
  StreamMode mode = StreamMode::kPtOpt;
  EdgeEntry entry;
  uint64_t staging_buffers = 2;  // rotating buffers, one partition each (PT: 1)
  uint64_t partition_edges = 0;  // capacity of a partition and of each buffer
  uint64_t resident_edges = 0;   // PT-Opt: edges of budget for partitions that stay
  bool operator==(const StreamConfig&) const = default;
};

// Default number of equal slots the PT-Opt budget is cut into: 2 rotate, 6
// hold resident partitions. Smaller partitions skip more finely and keep more
// of the graph resident, at the cost of more launches per iteration.
constexpr uint64_t kDefaultStreamSlots = 8;

// Splits the edge budget. PT: one buffer of the whole budget (the fewest,
// largest partitions, as Subway's PT). PT-Opt: `slots` equal slots, of which
// `staging_buffers` (1 to 3) rotate and the rest hold resident partitions.
// Throws tg::Error (naming `what`) when a slot is under the minimum buffer
// (subgraph_plan.h) or slots < staging_buffers.
StreamConfig stream_config(uint64_t budget_bytes, EdgeEntry entry, StreamMode mode, const std::string& what,
                           uint64_t staging_buffers = 2, uint64_t slots = kDefaultStreamSlots);

// One partition's turn in an iteration.
struct StreamStep {
  enum class Load {
    kNone,      // resident and loaded in an earlier iteration: no copy
    kResident,  // resident, first use: copied into its place in the resident buffer
    kStaging,   // copied into staging buffer `staging_buffer`
  };
  uint64_t partition = 0;
  uint64_t active_lo = 0;  // slice [active_lo, active_hi) of the sorted active list
  uint64_t active_hi = 0;
  Load load = Load::kStaging;
  uint64_t staging_buffer = 0;  // kStaging only; the j-th staging step uses j % staging_buffers
  eid_t copy_edges = 0;         // edges copied before this step runs (0 for kNone)
  eid_t copy_from = 0;          // from this edge of the partition (staging: lists before it are not read)
};

struct StreamIteration {
  std::vector<StreamStep> steps;  // in execution order
  eid_t copied_edges = 0;
  uint64_t copies = 0;
  uint64_t skipped = 0;        // partitions without an active vertex, not copied (PT-Opt)
  uint64_t resident_hits = 0;  // steps that found their partition already loaded
};

class StreamSchedule {
 public:
  // `partitions` from plan_partitions with capacity config.partition_edges.
  StreamSchedule(std::vector<EdgeRange> partitions, const StreamConfig& config);

  const std::vector<EdgeRange>& partitions() const { return partitions_; }
  const StreamConfig& config() const { return config_; }
  // Partitions 0 .. resident_count() - 1 stay; together they hold CSR edges
  // [0, resident_edges_used()), which the device keeps in one buffer.
  uint64_t resident_count() const { return resident_count_; }
  eid_t resident_edges_used() const { return resident_count_ ? partitions_[resident_count_ - 1].edge_end : 0; }
  bool is_resident(uint64_t p) const { return p < resident_count_; }
  bool is_loaded(uint64_t p) const { return p < resident_count_ && loaded_[p]; }

  // The steps of one iteration, given each partition's slice of the sorted
  // active list (active_ranges in subgraph_plan.h); marks first-loaded
  // resident partitions as loaded. PT: every partition, in order, through
  // staging buffer 0. PT-Opt: loaded resident partitions first (their kernels
  // run while the first copies are in flight), then the others in order;
  // partitions without active vertices are skipped.
  StreamIteration plan_iteration(std::span<const std::pair<uint64_t, uint64_t>> active);

  // Forgets what is loaded (a new run, or the device buffers were reused).
  void reset();
  // Which resident partitions are loaded; and the same flags taken over from
  // a schedule of the same partitions and config (a batch's earlier run left
  // them in GPU memory: ResidentPartitions, partition_streamer.cuh). Throws
  // where their count differs.
  const std::vector<bool>& loaded() const { return loaded_; }
  void take_loaded(const std::vector<bool>& loaded);

 private:
  std::vector<EdgeRange> partitions_;
  StreamConfig config_;
  uint64_t resident_count_ = 0;
  std::vector<bool> loaded_;
};

}  // namespace tg::subgraph
