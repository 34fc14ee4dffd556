// tiergraph::FeatureStore over features/: the peers (features/
// peer_devices.h), the tier plan from the graph's scores, then the GPU tiers
// where a GPU is (features/gpu_tiers.h) or the CPU gather where not, with the
// counts the stats report.
#include "tiergraph/features.h"

#include <mutex>
#include <optional>
#include <shared_mutex>
#include <sstream>

#include "api/api_errors.h"
#include "api/graph_access.h"
#include "core/error.h"
#include "features/cpu_gather.h"
#include "features/cpu_share.h"
#include "features/gpu_tiers.h"
#include "features/peer_devices.h"
#include "features/tier_plan.h"
#include "features/tier_scores.h"

namespace tiergraph {

struct FeatureStore::Impl {
  tg::features::HostMatrix matrix;
  tg::features::TierPlan plan;
  std::vector<int> peers;
  std::string description;
  std::unique_ptr<tg::features::GpuTiers> gpu;
  mutable std::mutex stats_mutex;
  FeatureStoreStats stats;

  // Checks the ids and counts them into the stats.
  void account(const int64_t* ids, size_t n) {
    if (n > 0 && ids == nullptr) throw tg::usage_error("feature store: ids is null");
    const std::span<const int64_t> span(ids, n);
    tg::features::check_row_ids(span, matrix.num_rows);
    add(tg::features::count_tiers(plan, span));
  }
  void add(const tg::features::TierCounts& c) {
    std::lock_guard<std::mutex> lock(stats_mutex);
    stats.gpu_hits += c.gpu_hits;
    stats.peer_hits += c.peer_hits;
    stats.host_hits += c.host_hits;
    stats.gpu_bytes += c.gpu_hits * matrix.row_bytes;
    stats.peer_bytes += c.peer_hits * matrix.row_bytes;
    stats.host_bytes += c.host_hits * matrix.row_bytes;
    ++stats.gathers;
  }
};

namespace {

std::vector<double> scores_for(const Graph* graph, uint64_t num_rows, const FeatureStoreOptions& o, bool have_peers,
                               tg::TierScore score) {
  if (graph == nullptr) return {};
  Graph::Impl* g = GraphAccess::impl(*graph);
  if (g == nullptr) throw tg::usage_error("feature store: the graph handle is empty");
  if (graph->num_vertices() != num_rows)
    throw tg::usage_error("feature store: the graph has " + std::to_string(graph->num_vertices()) +
                          " vertices, the features " + std::to_string(num_rows) + " rows");
  // Nothing to choose where every row lands in one tier.
  const double peer = have_peers ? o.peer_fraction : 0.0;
  if ((o.gpu_fraction == 0.0 && peer == 0.0) || o.gpu_fraction == 1.0 || peer == 1.0) return {};
  ensure_in_edges(*g);
  std::shared_lock lock(g->mutex);
  return tg::tier_scores(g->graph, {score, o.train_ids});
}

// The peers a store plans with: found and checked on the GPU; on the CPU,
// the ones given (a study of hit ratios for a machine that has them). None
// without a peer fraction: enabling peer access is not free for the rest of
// the process (every later cudaMalloc on a peer is mapped for the device
// too), so a store that does not use the tier does not enable it.
tg::features::PeerChoice peers_for(bool use_gpu, const FeatureStoreOptions& o) {
  if (o.peer_fraction == 0.0) return {};
  if (use_gpu) return tg::features::choose_peers(o.device, o.peers);
  if (o.peers) return {*o.peers, o.peers->empty() ? "peers=[] given" : ""};
  return {{}, "none looked for: the store gathers on the CPU"};
}

std::string describe(const tg::features::TierPlan& plan, const std::vector<int>& peers, const std::string& why_none,
                     const FeatureStoreOptions& o, const tg::features::GpuTiers* gpu) {
  const bool on_gpu = gpu != nullptr;
  std::ostringstream d;
  d << plan.gpu_rows() << " rows in GPU memory";
  if (on_gpu) d << " (device " << o.device << ")";
  if (!peers.empty()) {
    d << ", " << plan.peer_rows() << " interleaved over peer GPU" << (peers.size() > 1 ? "s" : "");
    for (size_t i = 0; i < peers.size(); ++i) d << (i == 0 ? " " : ", ") << peers[i];
  }
  d << ", " << plan.host_rows() << " in host memory";
  if (peers.empty() && o.peer_fraction > 0.0)
    d << "; peer_fraction " << o.peer_fraction << " has no peer GPU (" << why_none << "): its rows are in host memory";
  if (!on_gpu) d << " (planned only: gathers run on the CPU)";
  // A copy doubles the matrix's footprint and misses later writes to it: the
  // user should see that it happened, and why.
  else if (!gpu->host_rows_copied_because().empty())
    d << "; host rows copied once into pinned memory (" << gpu->host_rows_copied_because() << ")";
  else d << "; host rows read in place";
  return d.str();
}

}  // namespace

FeatureStore::FeatureStore(const void* rows, uint64_t num_rows, uint64_t row_bytes, const Graph* graph,
                           const FeatureStoreOptions& o) {
  try {
    if (rows == nullptr && num_rows > 0 && row_bytes > 0) throw tg::usage_error("feature store: rows is null");
    if (row_bytes > 0 && num_rows > UINT64_MAX / row_bytes)  // the matrix's size wrapped (2^62 rows of 4 bytes: 0)
      throw tg::usage_error("feature store: " + std::to_string(num_rows) + " rows of " + std::to_string(row_bytes) +
                            " bytes are more bytes than 2^64");
    tg::features::check_fractions({o.gpu_fraction, o.peer_fraction});
    const std::optional<tg::TierScore> score = tg::parse_tier_score(o.score);
    if (!score)
      throw tg::usage_error("score '" + o.score + "' is not a tier score (degree, reverse-pagerank, "
                            "weighted-reverse-pagerank)");
    // train_ids weigh a graph's scores: without a graph they would be dropped unread, and an id past the
    // rows is a mistake whether or not this store's fractions ask for scores.
    if (!o.train_ids.empty() && graph == nullptr)
      throw tg::usage_error("train_ids weigh the graph's tier scores: give the graph too");
    for (uint64_t t : o.train_ids)
      if (t >= num_rows)
        throw tg::usage_error("train id " + std::to_string(t) + " is not a row (" + std::to_string(num_rows) + " rows)");
    if (o.where != "auto" && o.where != "gpu" && o.where != "cpu")
      throw tg::usage_error("where '" + o.where + "' is not auto, gpu or cpu");
    if (o.device < 0) throw tg::usage_error("device " + std::to_string(o.device) + " is negative");
    if (!(o.sm_fraction > 0.0 && o.sm_fraction <= 1.0))
      throw tg::usage_error("sm_fraction " + std::to_string(o.sm_fraction) + " is outside (0, 1]");
    tg::features::check_cpu_share(o.cpu_share);
    if (o.peers) tg::features::check_peer_list(o.device, *o.peers);
    auto impl = std::make_unique<Impl>();
    impl->matrix = {rows, num_rows, row_bytes, row_bytes};
    std::string why;
    const bool use_gpu = o.where != "cpu" && tg::features::gpu_tiers_available(&why);
    if (o.where == "gpu" && !use_gpu) throw tg::Error("no usable GPU for the feature store: " + why);
    tg::features::PeerChoice peers = peers_for(use_gpu, o);
    impl->plan = tg::features::plan_tiers(scores_for(graph, num_rows, o, !peers.peers.empty(), *score), num_rows,
                                          {o.gpu_fraction, o.peer_fraction},
                                          static_cast<uint32_t>(peers.peers.size()));
    if (use_gpu) {
      tg::features::GpuTierOptions gpu_options{o.device, o.sm_fraction, peers.peers};
      gpu_options.cpu_share = o.cpu_share;
      impl->gpu = std::make_unique<tg::features::GpuTiers>(impl->matrix, impl->plan, gpu_options);
    }
    impl->peers = std::move(peers.peers);
    impl->description = describe(impl->plan, impl->peers, peers.why_none, o, impl->gpu.get());
    impl->stats.on_gpu = use_gpu;
    impl->stats.gpu_rows = impl->plan.gpu_rows();
    impl->stats.peer_rows = impl->plan.peer_rows();
    impl->stats.host_rows = impl->plan.host_rows();
    impl_ = std::move(impl);
  } catch (...) {
    rethrow_as_api_error();
  }
}

FeatureStore::~FeatureStore() = default;
FeatureStore::FeatureStore(FeatureStore&&) noexcept = default;
FeatureStore& FeatureStore::operator=(FeatureStore&&) noexcept = default;

FeatureStore::Impl& FeatureStore::impl() const { return live(impl_, "FeatureStore"); }

uint64_t FeatureStore::num_rows() const { return impl().matrix.num_rows; }
uint64_t FeatureStore::row_bytes() const { return impl().matrix.row_bytes; }
bool FeatureStore::on_gpu() const { return impl().gpu != nullptr; }
int FeatureStore::device() const { return impl().gpu ? impl().gpu->device() : -1; }
std::vector<int> FeatureStore::peers() const { return impl().peers; }
std::string FeatureStore::description() const { return impl().description; }
bool FeatureStore::host_rows_in_place() const {
  return !impl().gpu || impl().gpu->host_rows_copied_because().empty();
}

namespace {

// The GPU side of a store, for the gathers into GPU memory: a CPU store has
// none, which is a usage error (as a CPU sampler's sample_into is).
tg::features::GpuTiers& gpu_tiers(const std::unique_ptr<tg::features::GpuTiers>& gpu, const char* call) {
  if (!gpu) throw tg::usage_error(std::string("feature store: ") + call + " needs a GPU store (this one gathers on the CPU)");
  return *gpu;
}

}  // namespace

void FeatureStore::gather(const int64_t* ids, size_t n, void* out) {
  try {
    Impl& s = impl();
    s.account(ids, n);
    if (n > 0 && s.matrix.row_bytes > 0 && out == nullptr) throw tg::usage_error("feature store: out is null");
    if (s.gpu) {
      s.gpu->gather_to_host({ids, n}, out);
    } else {
      const auto& m = s.matrix;
      tg::features::gather_rows_cpu(static_cast<const uint8_t*>(m.data), m.row_bytes, m.stride_bytes, {ids, n},
                                    static_cast<uint8_t*>(out));
    }
  } catch (...) {
    rethrow_as_api_error();
  }
}

std::shared_ptr<void> FeatureStore::gather_to_device(const int64_t* ids, size_t n) {
  try {
    Impl& s = impl();
    tg::features::GpuTiers& gpu = gpu_tiers(s.gpu, "gather_to_device");
    s.account(ids, n);
    return gpu.gather({ids, n});
  } catch (...) {
    rethrow_as_api_error();
  }
}

void FeatureStore::gather_into_device(const int64_t* ids, size_t n, void* out, uintptr_t stream) {
  try {
    Impl& s = impl();
    tg::features::GpuTiers& gpu = gpu_tiers(s.gpu, "gather_into_device");
    s.account(ids, n);
    gpu.gather_into({ids, n}, out, stream);
  } catch (...) {
    rethrow_as_api_error();
  }
}

void FeatureStore::gather_on_device(const int64_t* device_ids, size_t n, void* out, uintptr_t stream) {
  try {
    Impl& s = impl();
    tg::features::GpuTiers& gpu = gpu_tiers(s.gpu, "gather_on_device");
    if (n > 0 && device_ids == nullptr) throw tg::usage_error("feature store: ids is null");
    s.add(gpu.gather_into_from_device({device_ids, n}, out, stream));
  } catch (...) {
    rethrow_as_api_error();
  }
}

FeatureStoreStats FeatureStore::stats() const {
  Impl& s = impl();
  std::lock_guard<std::mutex> lock(s.stats_mutex);
  return s.stats;
}

void FeatureStore::reset_stats() {
  Impl& i = impl();
  std::lock_guard<std::mutex> lock(i.stats_mutex);
  FeatureStoreStats& s = i.stats;
  s.gpu_hits = s.peer_hits = s.host_hits = s.gpu_bytes = s.peer_bytes = s.host_bytes = s.gathers = 0;
}

}  // namespace tiergraph
