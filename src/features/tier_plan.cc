#include "features/tier_plan.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <string>

#include "core/error.h"
#include "features/tier_scores.h"

namespace tg::features {
namespace {

// 0.6, not to_string's 0.600000: the message names what the caller wrote.
std::string decimal(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

// floor(fraction * n), with 1.0 giving every row (the product is exact for it).
uint64_t rows_for(double fraction, uint64_t n) {
  return std::min<uint64_t>(n, static_cast<uint64_t>(fraction * static_cast<double>(n)));
}

}  // namespace

void check_fractions(TierFractions f) {
  if (!(f.gpu >= 0.0 && f.gpu <= 1.0)) throw usage_error("gpu_fraction " + decimal(f.gpu) + " is outside [0, 1]");
  if (!(f.peer >= 0.0 && f.peer <= 1.0)) throw usage_error("peer_fraction " + decimal(f.peer) + " is outside [0, 1]");
  // A little slack for fractions that sum to 1 in decimal but not in binary
  // (0.7 + 0.3); rows_for's floors keep the tiers within the rows anyway.
  if (f.gpu + f.peer > 1.0 + 1e-9)
    throw usage_error("gpu_fraction " + decimal(f.gpu) + " + peer_fraction " + decimal(f.peer) + " is above 1");
}

std::vector<int64_t> TierPlan::gpu_tier_rows() const {
  return {ranked_rows.begin(), ranked_rows.begin() + static_cast<int64_t>(bounds.gpu_rows)};
}

std::vector<int64_t> TierPlan::peer_tier_rows(uint32_t peer) const {
  std::vector<int64_t> rows;
  if (peer >= bounds.num_peers) return rows;
  rows.reserve(peer_rows() / bounds.num_peers + 1);
  for (uint64_t rank = bounds.gpu_rows + peer; rank < bounds.device_rows; rank += bounds.num_peers)
    rows.push_back(ranked_rows[rank]);
  return rows;
}

TierPlan plan_tiers(std::span<const double> scores, uint64_t num_rows, TierFractions fractions, uint32_t num_peers) {
  check_fractions(fractions);
  if (num_peers > kMaxPeers)
    throw usage_error("peers: " + std::to_string(num_peers) + " devices, at most " + std::to_string(kMaxPeers));
  if (!scores.empty() && scores.size() != num_rows)
    throw usage_error("tier plan: " + std::to_string(scores.size()) + " scores for " + std::to_string(num_rows) +
                      " rows");
  const uint64_t gpu = rows_for(fractions.gpu, num_rows);
  const uint64_t peer = num_peers == 0 ? 0 : std::min(rows_for(fractions.peer, num_rows), num_rows - gpu);
  if (gpu + peer >= kHostRank)
    throw usage_error("gpu_fraction and peer_fraction put " + std::to_string(gpu + peer) +
                      " rows in GPU memory; the tiers' 4-byte map holds at most " + std::to_string(kHostRank - 1));
  TierPlan plan;
  plan.num_rows = num_rows;
  plan.bounds = {gpu, gpu + peer, num_peers};
  const uint64_t device = gpu + peer;
  if (scores.empty()) {
    plan.ranked_rows.resize(device);
    std::iota(plan.ranked_rows.begin(), plan.ranked_rows.end(), int64_t{0});
    return plan;
  }
  if (device == 0) return plan;  // every rank is host memory's: no map needed
  const std::vector<uint64_t> order = order_by_score(scores);
  plan.ranked_rows.assign(order.begin(), order.begin() + static_cast<int64_t>(device));
  // Rows already ordered hottest first (features[order] with the graph
  // relabelled by the same order, graph/relabel.h) rank as their ids: no map.
  bool in_id_order = true;
  for (uint64_t rank = 0; rank < device && in_id_order; ++rank)
    in_id_order = plan.ranked_rows[rank] == static_cast<int64_t>(rank);
  if (in_id_order) return plan;
  plan.rank_of_row.assign(num_rows, kHostRank);
#pragma omp parallel for schedule(static)
  for (int64_t rank = 0; rank < static_cast<int64_t>(device); ++rank)
    plan.rank_of_row[plan.ranked_rows[rank]] = static_cast<uint32_t>(rank);
  return plan;
}

TierCounts count_tiers(const TierPlan& plan, std::span<const int64_t> ids) {
  const int64_t n = static_cast<int64_t>(ids.size());
  if (plan.bounds.device_rows == 0) return {0, 0, static_cast<uint64_t>(n)};
  uint64_t gpu = 0, peer = 0;
#pragma omp parallel for schedule(static) reduction(+ : gpu, peer) if (n >= (int64_t{1} << 16))
  for (int64_t i = 0; i < n; ++i) {
    const Tier tier = plan.place_of_row(static_cast<uint64_t>(ids[i])).tier;
    gpu += tier == Tier::kGpu ? 1 : 0;
    peer += tier == Tier::kPeer ? 1 : 0;
  }
  return {gpu, peer, static_cast<uint64_t>(n) - gpu - peer};
}

}  // namespace tg::features
