#include "engines/run_stats.h"

namespace tg {

void RunStats::add_phase(const std::string& name, double seconds) {
  for (auto& p : phases_s)
    if (p.first == name) {
      p.second += seconds;
      return;
    }
  phases_s.emplace_back(name, seconds);
}

double RunStats::phase(const std::string& name) const {
  for (const auto& p : phases_s)
    if (p.first == name) return p.second;
  return 0;
}

uint64_t DistributedStats::host_bytes_read() const {
  uint64_t bytes = 0;
  for (const DistributedLevel& l : levels) bytes += l.host_bytes_read;
  return bytes;
}

double DistributedStats::host_read_s() const {
  double seconds = 0;
  for (const DistributedLevel& l : levels) seconds += l.host_read_s;
  return seconds;
}

double DistributedStats::host_read_gb_per_s() const {
  const double seconds = host_read_s();
  return seconds > 0 ? static_cast<double>(host_bytes_read()) / seconds / 1e9 : 0.0;
}

nlohmann::json details_json(const RunStats& s) {
  nlohmann::json j = nlohmann::json::object();
  if (s.threads > 0) j["threads"] = s.threads;
  if (s.residual) j["residual"] = *s.residual;
  if (s.converged) j["converged"] = *s.converged;
  if (!s.advice.empty()) j["advice"] = s.advice;
  if (s.gpu) {
    const GpuPlacementStats& g = *s.gpu;
    j["gpu"] = g.gpu;
    j["budget_bytes"] = g.budget_bytes;
    j["gpu_free_bytes"] = g.gpu_free_bytes;
    j["edge_bytes"] = g.edge_bytes;
    j["vertex_bytes_estimate"] = g.vertex_bytes_estimate;
    j["transfer_bytes"] = g.transfer_bytes;
    if (g.zerocopy_copied_bytes > 0) j["zerocopy_copied_bytes"] = g.zerocopy_copied_bytes;
    j["link_requests"] = s.link_requests;
    if (g.edge_cache) {
      const EdgeCacheStats& c = *g.edge_cache;
      j["edge_cache"] = {{"mode", c.mode},
                         {"budget_bytes", c.budget_bytes},
                         {"bytes", c.bytes},
                         {"heads", c.heads},
                         {"lists", c.lists},
                         {"cached_entries", c.cached_entries},
                         {"total_entries", c.total_entries},
                         {"cached_fraction", c.cached_fraction()},
                         {"bytes_read", s.cache_bytes_read}};
    }
    if (g.staged_values > 0) j["staged_values"] = g.staged_values;
    if (g.source_blocks) {
      const SourceBlockStats& b = *g.source_blocks;
      j["source_blocks"] = {{"blocks", b.blocks},
                            {"block_vertices", b.block_vertices},
                            {"bytes", b.bytes},
                            {"build_s", b.build_s},
                            {"note", b.note}};
    }
    if (g.gather_shards) {
      const ShardStats& h = *g.gather_shards;
      nlohmann::json by_r = nlohmann::json::object();
      for (int k = 0; k < 6; ++k)
        if (h.shards_by_replication[k] > 0)
          by_r[std::to_string(1 << k)] = {{"shards", h.shards_by_replication[k]}, {"edges", h.edges_by_replication[k]}};
      j["gather_shards"] = {{"shards", h.shards},           {"long_lists", h.long_lists},
                            {"long_list_edges", h.long_list_edges}, {"slots", h.slots},
                            {"max_edges", h.max_edges},     {"by_replication", by_r},
                            {"bytes", h.bytes},             {"build_s", h.build_s}};
    }
    auto packed_json = [](const PackedListsStats& p) {
      return nlohmann::json{{"entries", p.entries}, {"bytes", p.bytes},     {"plain_bytes", p.plain_bytes},
                            {"ratio", p.ratio()},  {"build_s", p.build_s}, {"weights", p.weights},
                            {"gpu_encoder", p.gpu_encoder}, {"resident", p.resident}};
    };
    if (g.packed_lists) j["packed_lists"] = packed_json(*g.packed_lists);
    if (g.light_lists) {
      j["light_lists"] = packed_json(*g.light_lists);
      j["light_lists"]["below"] = g.light_below;
    }
    if (g.light_lists_left > 0) j["light_lists_left_bytes"] = g.light_lists_left;
  }
  if (s.stream) j.update(to_json(*s.stream));
  if (!s.plan.is_null()) j["plan"] = s.plan;
  if (s.distributed) {
    const DistributedStats& d = *s.distributed;
    nlohmann::json levels = nlohmann::json::array();
    for (const DistributedLevel& l : d.levels) {
      nlohmann::json level = {{"compute_s", l.compute_s},
                              {"communication_s", l.communication_s},
                              {"compute_min_s", l.compute_min_s},
                              {"communication_min_s", l.communication_min_s},
                              {"bytes_exchanged", l.bytes_exchanged},
                              {"normals_exchanged", l.normals_exchanged},
                              {"delegate_frontier", l.delegate_frontier},
                              {"ranks_pulling", l.ranks_pulling},
                              {"normals_pulled", l.normals_pulled},
                              {"exchange", l.exchange},
                              {"delegate_frontier_edges", l.delegate_frontier_edges},
                              {"normal_frontier_edges", l.normal_frontier_edges}};
      if (l.normals_s + l.delegates_s + l.visit_s + l.settle_s > 0)
        level["compute_by_phase_s"] = {
            {"normals", l.normals_s}, {"delegates", l.delegates_s}, {"visit", l.visit_s}, {"settle", l.settle_s}};
      if (l.normals_exchange_s + l.delegates_exchange_s + l.frontier_share_s > 0)
        level["communication_by_phase_s"] = {{"normals", l.normals_exchange_s},
                                             {"delegates", l.delegates_exchange_s},
                                             {"frontier_bits", l.frontier_share_s}};
      if (l.host_bytes_read > 0) {
        level["host_bytes_read"] = l.host_bytes_read;
        level["host_read_s"] = l.host_read_s;
      }
      levels.push_back(std::move(level));
    }
    j["distributed"] = {{"gpus", d.gpus},
                        {"threshold", d.threshold},
                        {"delegates", d.delegates},
                        {"bytes_exchanged", d.bytes_exchanged},
                        {"parts_in_host_memory", d.parts_in_host_memory},
                        {"levels", std::move(levels)}};
    if (const uint64_t bytes = d.host_bytes_read(); bytes > 0)
      j["distributed"]["host_read"] = {{"bytes", bytes}, {"seconds", d.host_read_s()}, {"gb_per_s", d.host_read_gb_per_s()}};
  }
  if (s.hybrid) {
    const HybridStats& h = *s.hybrid;
    j["hybrid"] = {{"pages", h.pages},
                   {"gathers", h.gathers},
                   {"forest_steps", h.forest_steps},
                   {"gpu_only_steps", h.gpu_only_steps},
                   {"pages_gpu", h.pages_gpu},
                   {"pages_cpu", h.pages_cpu},
                   {"edges_gpu", h.edges_gpu},
                   {"edges_cpu", h.edges_cpu},
                   {"gpu_busy_s", h.gpu_busy_s},
                   {"cpu_busy_s", h.cpu_busy_s},
                   {"gpu_idle_s", h.gpu_idle_s},
                   {"cpu_idle_s", h.cpu_idle_s},
                   {"exchange_s", h.exchange_s},
                   {"exchange_bytes", h.exchange_bytes},
                   {"refresh_bytes", h.refresh_bytes},
                   {"cpu_threads", h.cpu_threads},
                   {"last_cpu_share", h.last_cpu_share}};
  }
  if (s.paging) {
    const PagingStats& p = *s.paging;
    j["host_mem"] = {{"budget_bytes", p.budget_bytes},
                     {"edge_bytes", p.edge_bytes},
                     {"resident_bytes", p.resident_bytes},
                     {"resident_edge_bytes", p.resident_edge_bytes},
                     {"paged", p.paged},
                     {"direct_io", p.direct_io},
                     {"buffer_bytes", p.buffer_bytes},
                     {"window_edges", p.window_edges},
                     {"disk_bytes", p.disk_bytes},
                     {"resident_read_bytes", p.resident_read_bytes},
                     {"pages_read", p.disk_bytes / 4096},
                     {"reads", p.reads},
                     {"windows", p.windows},
                     {"resident_windows", p.resident_windows},
                     {"prefetched", p.prefetched},
                     {"waited", p.waited},
                     {"wait_s", p.wait_s},
                     {"partial_pulls", p.partial_pulls}};
  }
  return j;
}

}  // namespace tg
