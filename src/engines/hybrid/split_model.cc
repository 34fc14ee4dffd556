#include "engines/hybrid/split_model.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tg::hybrid {

namespace {
// A measurement replaces most of the old estimate: the rates change when the
// other side's load on host memory changes, and a gather is long enough to
// measure.
constexpr double kKeep = 0.3;
double blend(double old, double measured) { return old * kKeep + measured * (1 - kKeep); }
}  // namespace

void RecentSteps::add(double seconds) {
  if (last_.size() < kKept) {
    last_.push_back(seconds);
  } else {
    last_[next_] = seconds;
    next_ = (next_ + 1) % kKept;
  }
}

double RecentSteps::median() const {
  if (last_.empty()) return 0;
  std::vector<double> v = last_;
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

uint64_t default_pages(uint64_t n) { return std::clamp<uint64_t>(n / 4096, std::min<uint64_t>(n, 64), 256); }

SplitModel::SplitModel(const eid_t* in_offsets, uint64_t n, uint64_t pages, double cpu_rate, double exchange_s)
    : in_offsets_(in_offsets), n_(n), cpu_rate_(cpu_rate), wait_s_(exchange_s), probe_cost_s_(exchange_s / 4) {
  pages = std::max<uint64_t>(pages, 1);
  const double total = static_cast<double>(in_offsets[n]) + static_cast<double>(n);
  first_.push_back(0);
  uint64_t v = 0;
  for (uint64_t k = 1; k < pages; ++k) {
    const double target = total * static_cast<double>(k) / static_cast<double>(pages);
    // The first vertex whose work before it reaches the target (monotone in v).
    uint64_t lo = v, hi = n;
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2;
      if (static_cast<double>(in_offsets[mid]) + static_cast<double>(mid) < target) lo = mid + 1;
      else hi = mid;
    }
    v = lo;
    first_.push_back(v);
  }
  first_.push_back(n);
}

double SplitModel::work_before(uint64_t k) const {
  const uint64_t v = first_[k];
  return static_cast<double>(in_offsets_[v]) + static_cast<double>(v);
}

double SplitModel::predicted_s(uint64_t k) const {
  if (!gpu_measured_) return 0;
  const double gpu = work_before(k) / gpu_rate_;
  if (k == pages()) return gpu;
  const double cpu = (total_work() - work_before(k)) / cpu_rate_;
  return std::max(gpu, wait_s_ + cpu) + sync_s_;
}

uint64_t SplitModel::choose(std::optional<double> cpu_share) const {
  const uint64_t p = pages();
  if (cpu_share) {
    // The cut whose CPU share of the work is nearest the one asked for.
    const double want = total_work() * (1 - std::clamp(*cpu_share, 0.0, 1.0));
    if (*cpu_share <= 0) return p;
    if (*cpu_share >= 1) return 0;
    uint64_t best = 0;
    for (uint64_t k = 0; k <= p; ++k)
      if (std::fabs(work_before(k) - want) < std::fabs(work_before(best) - want)) best = k;
    return best;
  }
  // The accelerator alone first (the CPU's mirrors are not even made), and
  // for each run's warm-up.
  if (!gpu_measured_ || !warm_) return p;
  uint64_t best = p;
  for (uint64_t k = 0; k < p; ++k)
    if (predicted_s(k) < predicted_s(best)) best = k;
  // The probe, only where the CPU could repay it: at twice its estimated
  // rate c, starting after the wait w for the download, a CPU share saves
  // at most (A - w) c / (g + c) a gather (A the accelerator's time alone, g
  // its rate: the cut where both sides end together), and the probe costs
  // about one exchange (the mirrors' first refresh), which it must win back
  // within four gathers. With the edges in GPU memory it cannot (kron:25
  // on the H200: 14 ms alone, 0.3 ms to save, 20-40 ms for a probe; session
  // 36); over subgraph at a quarter budget it can (34 ms alone, 2.5 ms).
  const double cpu = 2 * cpu_rate_;
  const double alone = total_work() / gpu_rate_;
  const bool could_pay = (alone - wait_s_) * cpu / (cpu + gpu_rate_) > probe_cost_s_;
  // No split at all before the CPU is measured unless it could: the linear
  // model's best cut saved 0.17 ms of kron:25's 14 in GPU memory, and the
  // probe cost 5 ms of mirrors and exchange (session 37).
  if (!cpu_measured_) {
    if (!could_pay || p <= 1) return p;
    return best < p ? best : p - std::max<uint64_t>(1, p / 16);
  }
  // Measured split steps (cut with both rates measured: the splits after
  // the probe; two of them, for one is noise: urand:25 over subgraph split
  // at 47.4 ms once against 47.6 alone, and at 44-45 ms after) slower than
  // the accelerator alone, by the medians of the last few of each kind,
  // send the gather to it. Back from the accelerator alone, a split must
  // also repay what the switch costs (the mirrors the GPU's steps left
  // stale are copied down again), taken as the probe's cost, or noise flips
  // the choice (kron:25 over subgraph: 34.0 ms split against 33.7 and then
  // 35.8 alone).
  const double switch_s = last_alone_ ? probe_cost_s_ : 0;
  if (best < p && split_steps_s_.size() >= 2 && alone_steps_s_.median() <= split_steps_s_.median() + switch_s) return p;
  return best;
}

void SplitModel::observe_split_step(uint64_t k, double seconds) {
  // Only steps cut once both rates were measured: the first, with its pages
  // handed out a bite at a time, is no measure of a split (kron:25 over
  // subgraph: 83 ms against 36). And only once the cut has settled (within
  // kSettledPages of the last split's), or after kUnsettledSteps that did
  // not: kron:25 over subgraph cut at 249, 243, 239, then 236-238 pages, and
  // its first two measured steps (34.07, 33.24 ms, 243 and 239 pages) sent it
  // to the accelerator alone (33.63) where the settled cut took 32.4-33.6.
  const uint64_t last = std::exchange(last_split_k_, k);
  if (!measured()) return;
  const bool settled = last != kNoCut && k + kSettledPages >= last && k <= last + kSettledPages;
  if (!settled && ++unsettled_steps_ <= kUnsettledSteps) return;
  split_steps_s_.add(seconds);
}

void SplitModel::observe_alone_step(double seconds) {
  const bool after_split = std::exchange(after_split_, false);
  if (!std::exchange(warm_, true)) return;
  last_alone_ = true;
  // The first gather alone after a split is no measure of the accelerator:
  // the split's copy down is still in flight under it, and the host is
  // still slow from the CPU threads' work (kron:25 over subgraph on the
  // H200: 39.1, 36.6, 34.7, 34.3, then 33.9 ms after splits, for the same
  // bytes). Counted, it made the accelerator alone look slower than splits
  // that were slower than it.
  if (after_split) return;
  alone_steps_s_.add(seconds);
  if (seconds > 1e-5) {
    const double rate = total_work() / seconds;
    gpu_rate_ = gpu_measured_ ? blend(gpu_rate_, rate) : rate;
    gpu_measured_ = true;
  }
}

void SplitModel::start_run() { warm_ = false; }

void SplitModel::observe(uint64_t k, double gpu_s, double cpu_s, double sync_s, std::optional<double> wait_s) {
  warm_ = true;
  last_alone_ = k == pages();
  after_split_ = !last_alone_;
  const double gw = work_before(k), cw = total_work() - gw;
  if (wait_s) {
    wait_s_ = blend(wait_s_, *wait_s);
    cpu_s = std::max(0.0, cpu_s - *wait_s);
  }
  // A side's rate is measured only from a share large enough to time.
  if (gw > 0 && gpu_s > 1e-5) {
    gpu_rate_ = gpu_measured_ ? blend(gpu_rate_, gw / gpu_s) : gw / gpu_s;
    gpu_measured_ = true;
  }
  if (cw > 0 && cpu_s > 1e-5) {
    cpu_rate_ = blend(cpu_rate_, cw / cpu_s);
    cpu_measured_ = true;
  }
  if (k < pages()) sync_s_ = blend(sync_s_, sync_s);
}

}  // namespace tg::hybrid
