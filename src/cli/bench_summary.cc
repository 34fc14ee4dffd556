#include "cli/bench_summary.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace tg::cli {

std::optional<double> BenchCell::io_amplification() const {
  if (bytes_needed <= 0) return std::nullopt;
  return bytes_moved / bytes_needed;
}

namespace {

// The compute time a row's plan (auto's, details.plan) predicted for the
// placement it chose, and that placement; none where the row has no plan.
std::optional<std::pair<std::string, double>> predicted(const BenchRow& r) {
  if (!r.details.is_object() || !r.details.contains("plan")) return std::nullopt;
  const nlohmann::json& plan = r.details["plan"];
  if (!plan.contains("choice") || !plan.contains("candidates")) return std::nullopt;
  for (const nlohmann::json& c : plan["candidates"]) {
    if (c.value("placement", "") != plan["choice"]) continue;
    const std::string chosen = plan["choice"].get<std::string>();
    if (c.contains("predicted_per_iteration_s") && r.iterations > 0)
      return std::pair{chosen, c["predicted_per_iteration_s"].get<double>() * double(r.iterations)};
    if (c.contains("predicted_compute_s")) return std::pair{chosen, c["predicted_compute_s"].get<double>()};
  }
  return std::nullopt;
}

}  // namespace

bool BenchSummary::verification_failed() const {
  for (const BenchCell& c : cells)
    if (c.verify_failed > 0) return true;
  return false;
}

const BenchPlacement* default_baseline(const std::vector<const BenchPlacement*>& placements) {
  for (const BenchPlacement* p : placements)
    if (p->engine == EngineKind::kGpu && p->placement == Placement::kUvm) return p;
  return placements.empty() ? nullptr : placements.front();
}

BenchSummary summarize(const std::vector<BenchRow>& rows, const BenchPlacement* baseline) {
  BenchSummary summary;
  summary.baseline = baseline;
  using Key = std::tuple<std::string, const AlgorithmInfo*, const BenchPlacement*>;
  std::map<Key, size_t> index;
  // Per cell, for the harmonic mean: the sum of 1 / GTEPS and how many runs had a rate.
  struct Rates {
    double inverse_sum = 0;
    int rated = 0;
  };
  std::vector<Rates> rates;
  std::vector<std::vector<double>> times;  // per cell, the runs' compute times
  struct Predicted {
    double sum_s = 0;
    int runs = 0;
  };
  std::vector<Predicted> predictions;
  for (const BenchRow& r : rows) {
    if (r.placement == nullptr) continue;
    auto [it, added] = index.try_emplace(Key{r.graph, r.algorithm, r.placement}, summary.cells.size());
    if (added) {
      summary.cells.push_back(BenchCell{.graph = r.graph, .algorithm = r.algorithm, .placement = r.placement});
      rates.emplace_back();
      times.emplace_back();
      predictions.emplace_back();
    }
    BenchCell& c = summary.cells[it->second];
    c.runs++;
    if (r.failed()) {
      c.failed++;
      c.error = r.error;
      continue;
    }
    c.compute_s += r.compute_s;
    times[it->second].push_back(r.compute_s);
    c.gteps += r.gteps;
    if (r.gteps > 0) {
      rates[it->second].inverse_sum += 1.0 / r.gteps;
      rates[it->second].rated++;
    }
    c.bytes_moved += r.bytes_moved;
    c.bytes_needed += r.bytes_needed;
    if (const auto p = predicted(r)) {
      c.chosen = p->first;
      predictions[it->second].sum_s += p->second;
      predictions[it->second].runs++;
    }
    if (r.verification) (r.verification->ok ? c.verified : c.verify_failed)++;
  }
  for (size_t i = 0; i < summary.cells.size(); ++i) {
    BenchCell& c = summary.cells[i];
    if (rates[i].rated > 0) c.gteps_hmean = rates[i].rated / rates[i].inverse_sum;
    if (predictions[i].runs > 0) c.predicted_s = predictions[i].sum_s / predictions[i].runs;
    if (c.succeeded() == 0) continue;
    c.compute_s /= c.succeeded();
    std::vector<double>& t = times[i];
    std::sort(t.begin(), t.end());
    c.min_compute_s = t.front();
    c.median_compute_s = t[(t.size() - 1) / 2];
    c.max_compute_s = t.back();
    c.gteps /= c.succeeded();
    c.bytes_moved /= c.succeeded();
    c.bytes_needed /= c.succeeded();
  }
  for (BenchCell& c : summary.cells) {
    auto b = index.find(Key{c.graph, c.algorithm, baseline});
    if (b == index.end()) continue;
    const BenchCell& base = summary.cells[b->second];
    if (base.succeeded() > 0 && c.succeeded() > 0 && base.compute_s > 0 && c.compute_s > 0)
      c.speedup = base.compute_s / c.compute_s;
  }
  return summary;
}

void print_plan_checks(std::FILE* out, const BenchSummary& summary) {
  for (const BenchCell& c : summary.cells) {
    if (!c.predicted_s || c.succeeded() == 0 || c.compute_s <= 0) continue;
    const double ratio = *c.predicted_s / c.compute_s;
    std::fprintf(out, "plan: %s %s chose %s, predicted %.3f ms, measured %.3f (%.2f)%s\n", c.graph.c_str(),
                 c.algorithm->name().c_str(), c.chosen.c_str(), *c.predicted_s * 1e3, c.compute_s * 1e3, ratio,
                 ratio > 2 || ratio < 0.5 ? "; more than 2x apart: the profile may not describe this machine "
                                            "(tiergraph calibrate)"
                                          : "");
  }
}

}  // namespace tg::cli
