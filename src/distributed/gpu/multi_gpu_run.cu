// `--gpus N` in one process: partition the graph (Pan et al.'s degree
// separation), place each rank's part on its GPU once, then run each request
// on every rank's thread and assemble the ranks' depths into one result.
#include <algorithm>
#include <chrono>
#include <memory>

#include "distributed/gpu/bfs_output.h"
#include "distributed/gpu/gpu_group.h"
#include "distributed/gpu/rank_bfs.h"
#include "distributed/multi_gpu_checks.h"
#include "distributed/partition.h"
#include "engines/run.h"

namespace tg {
namespace {

using dist::gpu::RankRunRecord;
using dist::gpu::seconds_since;

// Every rank's depths into one array indexed by global id.
ResultVector<int32_t> gather_depths(const dist::Partition& part,
                                    const std::vector<std::vector<int32_t>>& normal_depth,
                                    const std::vector<int32_t>& delegate_depth) {
  ResultVector<int32_t> depth(part.num_vertices);
  for (int r = 0; r < part.num_ranks(); ++r) {
    const dist::RankGraph& g = part.ranks[r];
    const int64_t n = g.num_normals();
#pragma omp parallel for schedule(static)
    for (int64_t l = 0; l < n; ++l) depth[g.normal_global[l]] = normal_depth[r][l];
  }
  for (uint32_t k = 0; k < part.num_delegates(); ++k) depth[part.delegate_global[k]] = delegate_depth[k];
  return depth;
}

// Per level: the slowest rank's times, every rank's bytes.
DistributedStats combine(const dist::Partition& part, const std::vector<RankRunRecord>& ranks) {
  DistributedStats d;
  d.gpus = part.num_ranks();
  d.threshold = part.threshold;
  d.delegates = part.num_delegates();
  d.levels.resize(ranks.front().levels.size());
  for (const RankRunRecord& r : ranks)
    for (size_t i = 0; i < d.levels.size() && i < r.levels.size(); ++i) {
      DistributedLevel& l = d.levels[i];
      l.compute_s = std::max(l.compute_s, r.levels[i].compute_s);
      l.communication_s = std::max(l.communication_s, r.levels[i].communication_s);
      l.bytes_exchanged += r.levels[i].bytes_sent;
      l.normals_exchanged += r.levels[i].normals_received;
      l.delegate_frontier = r.levels[i].delegate_frontier;
      l.ranks_pulling += r.levels[i].pulled ? 1 : 0;
    }
  return d;
}

}  // namespace

std::vector<RunOutput> run_batch_on_gpus(const AnyGraph& graph, const std::vector<RunRequest>& requests,
                                         const GpuOptions& options) {
  dist::check_multi_gpu_run(requests, options);
  const int p = options.gpus;
  dist::gpu::GpuGroup group(p);  // refuses first when fewer GPUs are present

  dist::gpu::BfsTimes times;
  auto t = std::chrono::steady_clock::now();
  const dist::Partition part = dist::partition_graph(graph, p, dist::PartitionOptions{.threshold = options.delegate_threshold});
  times.partition_s = seconds_since(t);

  t = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<dist::gpu::RankBfs>> ranks(p);
  group.on_each_rank([&](int r) { ranks[r] = std::make_unique<dist::gpu::RankBfs>(part.ranks[r], group.comm(r), !part.directed); });
  group.on_each_rank([&](int r) { ranks[r]->warm_up(); });
  times.transfer_s = seconds_since(t);
  uint64_t placed_bytes = 0;
  for (const dist::RankGraph& g : part.ranks) placed_bytes += dist::gpu::DeviceRankGraph::bytes_needed(g);

  std::vector<RunOutput> outputs;
  for (const RunRequest& request : requests) {
    std::vector<RankRunRecord> records(p);
    std::vector<std::vector<int32_t>> normal_depth(p);
    std::vector<int32_t> delegate_depth(part.num_delegates());
    group.on_each_rank([&](int r) {
      records[r] = ranks[r]->run(request.source());
      normal_depth[r].resize(part.ranks[r].num_normals());
      std::vector<int32_t> delegates(part.num_delegates());
      ranks[r]->copy_depths(normal_depth[r], delegates);
      if (r == 0) delegate_depth = std::move(delegates);
    });
    t = std::chrono::steady_clock::now();
    ResultVector<int32_t> depth = gather_depths(part, normal_depth, delegate_depth);
    times.compute_s = 0;
    for (const RankRunRecord& r : records) times.compute_s = std::max(times.compute_s, r.seconds);
    times.copy_back_s = seconds_since(t);
    outputs.push_back(dist::gpu::bfs_output(graph, std::move(depth), combine(part, records), times, placed_bytes));
  }
  return outputs;
}

}  // namespace tg
