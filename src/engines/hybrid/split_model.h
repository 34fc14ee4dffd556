// Where the hybrid engine cuts a gather between the accelerator and the CPU
// threads. The vertices are cut into pages of about equal work (in-edges
// plus one per vertex, from the in-offsets); the accelerator takes pages
// [0, k), the CPU [k, P), so each side's share is one range and the vertex
// data to exchange afterwards is two contiguous copies.
//
// k comes from Garaph's cost model: alpha, the accelerator's rate over the
// CPU's (Garaph, section 4). The first gathers run on the accelerator alone:
// their time is what a split has to beat, and they measure the accelerator's
// rate on this placement, which no constant guesses well (kron:25's gather
// takes 14 ms in GPU memory, 34 ms over subgraph at a quarter budget and
// 82 ms over zero-copy on the H200). The CPU's rate starts from an estimate
// from the thread count. After every gather the rates are re-measured from
// the two sides' times, and so is the cost of the exchange, and k is the cut
// with the least predicted time: the slower side's time plus the exchange,
// or the accelerator alone, with nothing to exchange, where the CPU cannot
// win back what the exchange costs.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/types.h"

namespace tg::hybrid {

// The median of the last few whole steps of a kind: the choice between a
// split and the accelerator alone follows it, so that one slow step does not
// decide for the rest of a run (urand:25 over subgraph on the H200: a split
// step of 48.7 ms among ones of 45.4-47.1, blended in at 70%, sent a run and
// the batch's later ones to the accelerator alone, 47.6-48.3 ms a gather).
class RecentSteps {
 public:
  void add(double seconds);
  double median() const;  // 0 before any
  size_t size() const { return last_.size(); }

 private:
  static constexpr size_t kKept = 5;
  std::vector<double> last_;
  size_t next_ = 0;  // where the next replaces the oldest, once kKept are in
};

class SplitModel {
 public:
  // in_offsets: n + 1 entries. cpu_rate: the CPU's starting estimate, in
  // work units (edges plus vertices) per second; exchange_s: an estimate of
  // the time to move the written vertex data across the link once.
  SplitModel(const eid_t* in_offsets, uint64_t n, uint64_t pages, double cpu_rate, double exchange_s);

  uint64_t pages() const { return first_.size() - 1; }
  uint64_t vertex_at(uint64_t k) const { return first_[k]; }  // first vertex of page k; n at k = P
  double work_before(uint64_t k) const;                       // of pages [0, k)
  double total_work() const { return work_before(pages()); }

  // The predicted time of a gather cut at k (0 before the accelerator is
  // measured): the later of the accelerator's share and the CPU's, which
  // starts after the wait for the last exchange's copy down (left in flight
  // to overlap the GPU's next gather, hybrid_engine.h), plus what of the
  // exchange stays serial (the copy up of the CPU's share).
  double predicted_s(uint64_t k) const;
  // The cut with the least predicted time; a fixed CPU share of the work
  // (0..1) where one is given (tests, measurements). Before the
  // accelerator is measured: P, the accelerator alone. While the CPU's rate
  // is still the starting estimate, no cut unless the CPU could repay a
  // probe (split_model.cc), and then a cut that leaves the CPU nothing gives
  // it a sixteenth instead, once, so that the estimate gets measured.
  uint64_t choose(std::optional<double> cpu_share = std::nullopt) const;

  // What a gather cut at k took on each side and for the serial exchange;
  // wait_s: the part of cpu_s the CPU waited for the last exchange's copy
  // down, where one was in flight.
  void observe(uint64_t k, double gpu_s, double cpu_s, double sync_s, std::optional<double> wait_s = std::nullopt);
  // Whole steps, as the run saw them: a split gather from its start to the
  // end of its exchange, and a gather on the accelerator alone (which also
  // measures the accelerator's rate). The run's first gather is not a
  // measure: it also loads what the placement keeps resident (subgraph's
  // resident partitions: kron:25 at a quarter budget moves 1 GB more in
  // it), so the first two run on the accelerator alone and the second
  // counts. The rates above assume the accelerator's time is its share's
  // work over a rate; on a streamed placement most of it is not (kron:25
  // over subgraph on the H200: 33.5 ms for 92% of the pages, 34 ms for all
  // of them), so once both kinds of step are measured (two split steps),
  // the faster kind wins. Call observe_split_step before observe(): a split
  // step (cut at k) counts only if it was cut with both rates measured
  // already (the probe's is not) and its cut has settled (split_model.cc).
  void observe_split_step(uint64_t k, double seconds);
  void observe_alone_step(double seconds);

  // A later run of the same algorithm on the same graph starts here, from
  // what the earlier ones measured (the runs of a batch: bench's trials, a
  // run per source): its first gather is a warm-up again, on the
  // accelerator alone, and its next decides from the measured rates and
  // steps, with neither the gather that measures the accelerator nor the
  // probe; it goes on as the last run ended, splitting or alone (charging
  // the switch to a split, as within a run, sent kron:25's later runs to the
  // accelerator alone, 34.1 ms a gather, where its splits had taken 33.2-33.7
  // with the new mirrors' refresh, 4.9 ms, to pay once a run). kron:25 over
  // subgraph on the H200, where the CPU's work can slow the GPU's share as
  // much as it takes off it, paid those gathers again in every run, and
  // urand:25, where the split wins, a probe of 52-69 ms for 45-48 ms
  // gathers.
  void start_run();

  // Both sides' rates measured (not the starting estimates any more).
  bool measured() const { return gpu_measured_ && cpu_measured_; }
  bool accelerator_measured() const { return gpu_measured_; }

  double gpu_rate() const { return gpu_rate_; }
  double cpu_rate() const { return cpu_rate_; }
  double sync_s() const { return sync_s_; }
  double wait_s() const { return wait_s_; }

 private:
  const eid_t* in_offsets_;
  uint64_t n_;
  std::vector<uint64_t> first_;  // P + 1 page boundaries
  double gpu_rate_ = 0, cpu_rate_;
  double sync_s_ = 0;       // the serial exchange (the CPU's share up), measured
  double wait_s_;           // the CPU's wait for the GPU's share to come down
  double probe_cost_s_;     // what a probe must win back within four gathers
  bool cpu_measured_ = false, gpu_measured_ = false;
  bool warm_ = false;        // a gather has run (the first is a warm-up)
  bool last_alone_ = false;  // the last gather ran on the accelerator alone
  bool after_split_ = false;  // the last gather was split
  RecentSteps split_steps_s_, alone_steps_s_;  // measured whole steps
  static constexpr uint64_t kNoCut = ~uint64_t{0};
  static constexpr uint64_t kSettledPages = 2;  // of 256 by default
  static constexpr int kUnsettledSteps = 4;
  uint64_t last_split_k_ = kNoCut;  // the last split step's cut
  int unsettled_steps_ = 0;         // measured split steps left out, their cut still moving
};

// An algorithm's models, one per kind of split step (each has its own
// rates: a gather's sum over in-edges, CC's links with their atomics over
// out-edges), made by its first split step. A batch keeps them across the
// algorithm's runs (SplitModel::start_run).
struct SplitModels {
  enum Kind { kGather, kForestPush, kKinds };
  std::optional<SplitModel> of[kKinds];
};

// A page count for n vertices: enough that a cut lands within 1/256 of the
// work, and no page smaller than a few thousand vertices on large graphs.
uint64_t default_pages(uint64_t n);

}  // namespace tg::hybrid
