#include "cli/report.h"

#include <string>

#include "algorithms/describe.h"
#include "engines/gpu_footprint.h"

namespace tg::cli {

namespace {

std::string human_bytes(double x) {
  char buf[32];
  if (x >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", x / 1e9);
  else if (x >= 1e6) std::snprintf(buf, sizeof buf, "%.2f MB", x / 1e6);
  else std::snprintf(buf, sizeof buf, "%.0f B", x);
  return buf;
}

// Several GPUs (Graph500's reporting): the partition, then per level the
// slowest rank's compute and communication and the bytes every rank sent.
void print_distributed(std::FILE* out, const DistributedStats& d) {
  double compute = 0, communication = 0;
  for (const DistributedLevel& l : d.levels) {
    compute += l.compute_s;
    communication += l.communication_s;
  }
  const char* parts = d.parts_in_host_memory == 0        ? "GPU memory"
                      : d.parts_in_host_memory == d.gpus ? "host memory (zero-copy)"
                                                         : "GPU and host memory";
  std::fprintf(out,
               "  gpus       %d, degree separation: TH %llu, %s delegates; parts in %s; "
               "levels: compute %.4f s, communication %.4f s, %s exchanged\n",
               d.gpus, static_cast<unsigned long long>(d.threshold), describe::count(d.delegates).c_str(), parts,
               compute, communication, human_bytes(d.bytes_exchanged).c_str());
  if (d.host_read_gb_per_s() > 0)
    std::fprintf(out, "  host reads %s of lists over the links in %.4f s: at least %.1f GB/s, all links together\n",
                 human_bytes(d.host_bytes_read()).c_str(), d.host_read_s(), d.host_read_gb_per_s());
  constexpr size_t kShown = 32;  // a long SSSP or PageRank run: the rest in --json
  for (size_t i = 0; i < d.levels.size() && i < kShown; ++i) {
    const DistributedLevel& l = d.levels[i];
    std::string pulled =
        l.ranks_pulling > 0 ? ", bottom-up on " + std::to_string(l.ranks_pulling) + " of " + std::to_string(d.gpus)
                            : "";
    if (l.normals_pulled) pulled += ", normals bottom-up";
    if (!l.exchange.empty()) pulled += ", exchange " + l.exchange;
    std::fprintf(out,
                 "  level %-4zu compute %.4f s, communication %.4f s, %s exchanged, %llu normals sent, "
                 "%u frontier delegates%s\n",
                 i, l.compute_s, l.communication_s, human_bytes(l.bytes_exchanged).c_str(),
                 static_cast<unsigned long long>(l.normals_exchanged), l.delegate_frontier, pulled.c_str());
  }
  if (d.levels.size() > kShown)
    std::fprintf(out, "  level      ... %zu more (--json lists every level)\n", d.levels.size() - kShown);
}

}  // namespace

void print_summary(std::FILE* out, const AnyGraph& graph, const RunReport& r) {
  const RunStats& s = r.output.stats;
  const bool directed = std::visit([](const auto& g) { return g.directed; }, graph);
  std::fprintf(out, "%s on %s: %s vertices, %s edges (%s, %d-byte ids)\n", r.algorithm->name().c_str(),
               std::visit([](const auto& g) { return g.name; }, graph).c_str(),
               describe::count(num_vertices(graph)).c_str(), describe::count(num_edges(graph)).c_str(),
               directed ? "directed" : "undirected", vertex_id_bytes(graph));
  std::string engine = engine_name(r.output.engine);
  if (r.output.engine == EngineKind::kCpu && s.threads > 0) engine += " (" + std::to_string(s.threads) + " threads)";
  else if (r.output.placement) engine += ", placement " + placement_of(r.output);
  if (r.sources.size() == 1) engine += ", source " + std::to_string(describe::file_id(graph, r.sources.front()));
  if (r.sources.size() > 1) engine += ", " + std::to_string(r.sources.size()) + " sources";
  std::fprintf(out, "  engine     %s\n", engine.c_str());
  if (!r.engine_note.empty()) std::fprintf(out, "  note       %s\n", r.engine_note.c_str());
  if (s.plan.contains("profile_note"))
    std::fprintf(out, "  note       %s\n", s.plan["profile_note"].get<std::string>().c_str());
  std::string times;
  for (const auto& [name, seconds] : s.phases_s) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%s %.4f s", times.empty() ? "" : ", ", name.c_str(), seconds);
    times += buf;
  }
  std::fprintf(out, "  time       %s\n", times.c_str());
  nlohmann::json j = to_json(graph, r);
  const std::string notified =
      s.notify_pull_steps > 0 ? ", " + std::to_string(s.notify_pull_steps) + " notify-pull" : std::string();
  std::fprintf(out, "  work       %llu iterations (%llu push, %llu pull%s), %s edges traversed, %.3f GTEPS\n",
               static_cast<unsigned long long>(s.iterations), static_cast<unsigned long long>(s.push_steps),
               static_cast<unsigned long long>(s.pull_steps), notified.c_str(),
               describe::count(s.edges_traversed).c_str(), j["gteps"].get<double>());
  if (s.converged && !*s.converged)
    std::fprintf(out,
                 "  note       not converged: stopped after %llu iterations (--max-iters) with the L1 change at %.3g, "
                 "above --tolerance%s%s\n",
                 static_cast<unsigned long long>(s.iterations), s.residual.value_or(0.0), s.advice.empty() ? "" : "; ",
                 s.advice.c_str());
  if (s.bytes_moved > 0)
    std::fprintf(out, "  transfer   %s moved across the link, %s of edges needed, I/O amplification %.2f\n",
                 human_bytes(s.bytes_moved).c_str(), human_bytes(s.bytes_needed).c_str(),
                 s.bytes_needed ? double(s.bytes_moved) / double(s.bytes_needed) : 0.0);
  if (s.gpu && s.gpu->edge_cache && s.gpu->edge_cache->bytes > 0) {
    const EdgeCacheStats& c = *s.gpu->edge_cache;
    std::fprintf(out, "  edge cache %s in GPU memory (heads of %d, %llu whole lists: %.1f%% of entries), %s read from it\n",
                 human_bytes(c.bytes).c_str(), c.heads, static_cast<unsigned long long>(c.lists),
                 100.0 * c.cached_fraction(),
                 human_bytes(s.cache_bytes_read).c_str());
  }
  if (s.gpu && s.gpu->source_blocks) {
    const SourceBlockStats& b = *s.gpu->source_blocks;
    if (b.blocks > 0)
      std::fprintf(out, "  sources    gathers in %d blocks of %s vertices (%s copy of the in-edges, built in %.3f s)\n",
                   b.blocks, describe::count(b.block_vertices).c_str(), human_bytes(b.bytes).c_str(), b.build_s);
    else
      std::fprintf(out, "  sources    gathers in one pass: %s\n", b.note.c_str());
  }
  if (s.gpu && s.gpu->staged_values > 0)
    std::fprintf(out, "  staged     the first %llu sources' values read from shared memory by the gather's warp passes\n",
                 static_cast<unsigned long long>(s.gpu->staged_values));
  if (s.gpu && s.gpu->gather_shards) {
    const ShardStats& h = *s.gpu->gather_shards;
    std::string by_r;
    for (int k = 0; k < 6; ++k)
      if (h.edges_by_replication[k] > 0)
        by_r += (by_r.empty() ? "" : ", ") + std::string("R=") + std::to_string(1 << k) + " " +
                describe::count(h.edges_by_replication[k]);
    std::fprintf(out, "  shards     %s shards of up to %s accumulators (edges %s), %s long lists (%s edges) by warps; "
                 "%s in GPU memory, built in %.3f s\n",
                 describe::count(h.shards - h.long_lists).c_str(), describe::count(h.slots).c_str(),
                 by_r.empty() ? "none" : by_r.c_str(), describe::count(h.long_lists).c_str(),
                 describe::count(h.long_list_edges).c_str(), human_bytes(h.bytes).c_str(), h.build_s);
  }
  if (s.gpu && s.gpu->packed_lists) {
    const PackedListsStats& p = *s.gpu->packed_lists;
    std::fprintf(out, "  packed     lists %s -> %s%s (%.2fx fewer bytes over the link), packed in %.3f s\n",
                 human_bytes(p.plain_bytes).c_str(), human_bytes(p.bytes).c_str(), p.weights ? " with byte weights" : "",
                 p.ratio(), p.build_s);
  }
  if (s.gpu && s.gpu->light_lists) {
    const PackedListsStats& p = *s.gpu->light_lists;
    std::fprintf(out, "  light      %s entries under weight %g apart, packed %s, split and packed in %.3f s\n",
                 describe::count(p.entries).c_str(), s.gpu->light_below, human_bytes(p.bytes).c_str(), p.build_s);
  } else if (s.gpu && s.gpu->light_lists_left > 0) {
    std::fprintf(out, "  light      lists not kept apart: %s packed, past %d%% of the budget (buckets not split)\n",
                 human_bytes(s.gpu->light_lists_left).c_str(), int(kLightListsBudgetPercent));
  }
  if (s.hybrid) {
    const HybridStats& h = *s.hybrid;
    const double edges = double(h.edges_gpu + h.edges_cpu);
    std::fprintf(out,
                 "  hybrid     %llu split gathers and %llu split link steps over %llu pages: CPU (%d threads) %.1f%% of their edges; busy GPU "
                 "%.4f s, CPU %.4f s; idle GPU %.4f s, CPU %.4f s; exchange %s + refresh %s in %.4f s\n",
                 static_cast<unsigned long long>(h.gathers), static_cast<unsigned long long>(h.forest_steps),
                 static_cast<unsigned long long>(h.pages), h.cpu_threads,
                 edges > 0 ? 100.0 * double(h.edges_cpu) / edges : 0.0, h.gpu_busy_s, h.cpu_busy_s, h.gpu_idle_s,
                 h.cpu_idle_s, human_bytes(h.exchange_bytes).c_str(), human_bytes(h.refresh_bytes).c_str(), h.exchange_s);
  }
  if (s.distributed) print_distributed(out, *s.distributed);
  if (s.stream && s.stream->host_buffer_bytes > 0)
    std::fprintf(out, "  host-mem   GPU stream from the file: %s of page buffers, %s of edges kept in host memory, %s read\n",
                 human_bytes(s.stream->host_buffer_bytes).c_str(), human_bytes(s.stream->host_cache_bytes).c_str(),
                 human_bytes(s.stream->disk_bytes).c_str());
  if (s.paging) {
    const PagingStats& p = *s.paging;
    // The hybrid's paging record is its CPU side's, planned in what the GPU
    // left of --host-mem (the line above says what the GPU took).
    const std::string budget = s.hybrid ? "CPU side: " + human_bytes(p.budget_bytes) + " of the budget"
                                        : human_bytes(p.budget_bytes) + " budget";
    if (!p.paged)
      std::fprintf(out, "  host-mem   %s: the graph (%s of edges) fits, read from memory\n", budget.c_str(),
                   human_bytes(p.edge_bytes).c_str());
    else
      std::fprintf(out,
                   "  host-mem   %s, %s of edges paged from the file (%s), %s of them resident: %s read "
                   "(%s into the resident edges) in %llu windows of %llu edges and %llu resident windows, "
                   "%llu prefetched, %llu waited for (%.4f s)\n",
                   budget.c_str(), human_bytes(p.edge_bytes).c_str(),
                   p.direct_io ? "O_DIRECT" : "no O_DIRECT here: reads + fadvise DONTNEED",
                   human_bytes(p.resident_edge_bytes).c_str(), human_bytes(p.disk_bytes).c_str(),
                   human_bytes(p.resident_read_bytes).c_str(), static_cast<unsigned long long>(p.windows),
                   static_cast<unsigned long long>(p.window_edges), static_cast<unsigned long long>(p.resident_windows),
                   static_cast<unsigned long long>(p.prefetched), static_cast<unsigned long long>(p.waited), p.wait_s);
  }
  std::fprintf(out, "  result     %s\n", j["result"].get<std::string>().c_str());
  if (r.verification)
    std::fprintf(out, "  verify     %s: %s\n", r.verification->ok ? "PASS" : "FAIL", r.verification->message.c_str());
}

}  // namespace tg::cli
