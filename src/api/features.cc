// tiergraph::FeatureStore over features/: the tier plan from the graph's
// scores, then the GPU tiers where a GPU is (features/gpu_tiers.h) or the CPU
// gather where not, with the counts the stats report.
#include "tiergraph/features.h"

#include <mutex>
#include <optional>
#include <shared_mutex>

#include "api/api_errors.h"
#include "api/graph_access.h"
#include "core/error.h"
#include "features/cpu_gather.h"
#include "features/gpu_tiers.h"
#include "features/tier_plan.h"
#include "features/tier_scores.h"

namespace tiergraph {

struct FeatureStore::Impl {
  tg::features::HostMatrix matrix;
  tg::features::TierPlan plan;
  std::unique_ptr<tg::features::GpuTiers> gpu;
  mutable std::mutex stats_mutex;
  FeatureStoreStats stats;

  // Checks the ids and counts them into the stats.
  void account(const int64_t* ids, size_t n) {
    if (n > 0 && ids == nullptr) throw tg::usage_error("feature store: ids is null");
    const std::span<const int64_t> span(ids, n);
    tg::features::check_row_ids(span, matrix.num_rows);
    const tg::features::TierCounts c = tg::features::count_tiers(plan, span);
    std::lock_guard<std::mutex> lock(stats_mutex);
    stats.gpu_hits += c.gpu_hits;
    stats.host_hits += c.host_hits;
    stats.gpu_bytes += c.gpu_hits * matrix.row_bytes;
    stats.host_bytes += c.host_hits * matrix.row_bytes;
    ++stats.gathers;
  }
};

namespace {

std::vector<double> scores_for(const Graph* graph, uint64_t num_rows, const FeatureStoreOptions& o,
                               tg::TierScore score) {
  if (graph == nullptr) return {};
  Graph::Impl* g = GraphAccess::impl(*graph);
  if (g == nullptr) throw tg::usage_error("feature store: the graph handle is empty");
  if (graph->num_vertices() != num_rows)
    throw tg::usage_error("feature store: the graph has " + std::to_string(graph->num_vertices()) +
                          " vertices, the features " + std::to_string(num_rows) + " rows");
  if (o.gpu_fraction == 0.0 || o.gpu_fraction == 1.0) return {};  // nothing to choose
  ensure_in_edges(*g);
  std::shared_lock lock(g->mutex);
  return tg::tier_scores(g->graph, {score, o.train_ids});
}

}  // namespace

FeatureStore::FeatureStore(const void* rows, uint64_t num_rows, uint64_t row_bytes, const Graph* graph,
                           const FeatureStoreOptions& o) {
  try {
    if (rows == nullptr && num_rows > 0 && row_bytes > 0) throw tg::usage_error("feature store: rows is null");
    if (!(o.gpu_fraction >= 0.0 && o.gpu_fraction <= 1.0))
      throw tg::usage_error("gpu_fraction " + std::to_string(o.gpu_fraction) + " is outside [0, 1]");
    const std::optional<tg::TierScore> score = tg::parse_tier_score(o.score);
    if (!score)
      throw tg::usage_error("score '" + o.score + "' is not a tier score (degree, reverse-pagerank, "
                            "weighted-reverse-pagerank)");
    if (o.where != "auto" && o.where != "gpu" && o.where != "cpu")
      throw tg::usage_error("where '" + o.where + "' is not auto, gpu or cpu");
    if (o.device < 0) throw tg::usage_error("device " + std::to_string(o.device) + " is negative");
    if (!(o.sm_fraction > 0.0 && o.sm_fraction <= 1.0))
      throw tg::usage_error("sm_fraction " + std::to_string(o.sm_fraction) + " is outside (0, 1]");
    auto impl = std::make_unique<Impl>();
    impl->matrix = {rows, num_rows, row_bytes, row_bytes};
    impl->plan = tg::features::plan_tiers(scores_for(graph, num_rows, o, *score), num_rows, o.gpu_fraction);
    std::string why;
    const bool use_gpu = o.where == "gpu" || (o.where == "auto" && tg::features::gpu_tiers_available(&why));
    if (use_gpu) {
      const tg::features::GpuTierOptions gpu_options{o.device, o.sm_fraction};
      impl->gpu = std::make_unique<tg::features::GpuTiers>(impl->matrix, impl->plan, gpu_options);
    }
    impl->stats.on_gpu = use_gpu;
    impl->stats.gpu_rows = impl->plan.gpu_rows();
    impl->stats.host_rows = num_rows - impl->plan.gpu_rows();
    impl_ = std::move(impl);
  } catch (...) {
    rethrow_as_api_error();
  }
}

FeatureStore::~FeatureStore() = default;
FeatureStore::FeatureStore(FeatureStore&&) noexcept = default;
FeatureStore& FeatureStore::operator=(FeatureStore&&) noexcept = default;

uint64_t FeatureStore::num_rows() const { return impl_->matrix.num_rows; }
uint64_t FeatureStore::row_bytes() const { return impl_->matrix.row_bytes; }
bool FeatureStore::on_gpu() const { return impl_->gpu != nullptr; }
int FeatureStore::device() const { return impl_->gpu ? impl_->gpu->device() : -1; }

void FeatureStore::gather(const int64_t* ids, size_t n, void* out) {
  try {
    impl_->account(ids, n);
    if (n > 0 && impl_->matrix.row_bytes > 0 && out == nullptr) throw tg::usage_error("feature store: out is null");
    if (impl_->gpu) {
      impl_->gpu->gather_to_host({ids, n}, out);
    } else {
      const auto& m = impl_->matrix;
      tg::features::gather_rows_cpu(static_cast<const uint8_t*>(m.data), m.row_bytes, m.stride_bytes, {ids, n},
                                    static_cast<uint8_t*>(out));
    }
  } catch (...) {
    rethrow_as_api_error();
  }
}

std::shared_ptr<void> FeatureStore::gather_to_device(const int64_t* ids, size_t n) {
  try {
    if (!impl_->gpu) throw tg::Error("feature store: gather_to_device needs a GPU store (this one gathers on the CPU)");
    impl_->account(ids, n);
    return impl_->gpu->gather({ids, n});
  } catch (...) {
    rethrow_as_api_error();
  }
}

FeatureStoreStats FeatureStore::stats() const {
  std::lock_guard<std::mutex> lock(impl_->stats_mutex);
  return impl_->stats;
}

void FeatureStore::reset_stats() {
  std::lock_guard<std::mutex> lock(impl_->stats_mutex);
  FeatureStoreStats& s = impl_->stats;
  s.gpu_hits = s.host_hits = s.gpu_bytes = s.host_bytes = s.gathers = 0;
}

}  // namespace tiergraph
