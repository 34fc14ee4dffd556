// `--gpus N` in one process: partition the graph (Pan et al.'s degree
// separation), place each rank's part and its program's state on its GPU
// once, then run each request on every rank's thread and assemble the ranks'
// values into one result.
#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <span>

#include "distributed/gpu/gpu_group.h"
#include "distributed/gpu/host_threads.h"
#include "distributed/gpu/rank_program.h"
#include "distributed/gpu/run_output.h"
#include "distributed/multi_gpu_checks.h"
#include "distributed/partition.h"
#include "distributed/values_by_global_id.h"
#include "engines/gpu/host_openmp.h"
#include "engines/run.h"

namespace tg {
namespace {

using dist::gpu::RankPart;
using dist::gpu::RankResult;
using dist::gpu::RankRunRecord;

// Every rank's values into one array indexed by global id (the delegates'
// from rank 0: every rank holds the same).
template <typename T>
ResultVector<T> by_global_id(const dist::GlobalIdOrder& order, const std::vector<RankResult>& results) {
  ResultVector<T> all(order.num_vertices());
  std::vector<std::span<const T>> normals;
  for (const RankResult& r : results) normals.push_back(std::span<const T>(std::get<RankPart<T>>(r).normal));
  order.gather<T>(normals, std::span<const T>(std::get<RankPart<T>>(results.front()).delegate), all.data());
  return all;
}

VertexValues gather(const dist::GlobalIdOrder& order, const std::vector<RankResult>& results) {
  return std::visit(
      [&](const auto& first) -> VertexValues {
        using T = typename std::decay_t<decltype(first.normal)>::value_type;
        return by_global_id<T>(order, results);
      },
      results.front());
}

// keep_gpu_groups: a group per GPU count, made on first use, remade after an
// abort. Never destroyed with the statics (keep_gpu_groups(false) does it).
struct KeptGroups {
  std::mutex mutex;
  bool keep = false;
  std::map<int, std::unique_ptr<dist::gpu::GpuGroup>> by_size;
};
KeptGroups& kept_groups() {
  static KeptGroups* kept = new KeptGroups;
  return *kept;
}

// The batch's group: the kept one for p GPUs where groups are kept, else
// `own`, made here. Either way refuses first when fewer GPUs are present.
dist::gpu::GpuGroup& group_for(int p, std::unique_ptr<dist::gpu::GpuGroup>& own) {
  KeptGroups& kept = kept_groups();
  std::lock_guard<std::mutex> lock(kept.mutex);
  if (!kept.keep) {
    own = std::make_unique<dist::gpu::GpuGroup>(p);
    return *own;
  }
  std::unique_ptr<dist::gpu::GpuGroup>& group = kept.by_size[p];
  if (!group || group->aborted()) {
    group.reset();
    group = std::make_unique<dist::gpu::GpuGroup>(p);
  }
  return *group;
}

// The ranks' levels combined (distributed/level_record.h).
DistributedStats combine(const dist::Partition& part, const std::vector<RankRunRecord>& ranks) {
  DistributedStats d;
  d.gpus = part.num_ranks();
  d.threshold = part.threshold;
  d.delegates = part.num_delegates();
  dist::PackedLevels levels = dist::pack_levels(ranks.front().levels);
  for (size_t r = 1; r < ranks.size(); ++r) dist::reduce_levels(levels, dist::pack_levels(ranks[r].levels));
  d.levels = dist::unpack_levels(levels, ranks.front().levels);
  return d;
}

}  // namespace

void keep_gpu_groups(bool keep) {
  KeptGroups& kept = kept_groups();
  std::lock_guard<std::mutex> lock(kept.mutex);
  kept.keep = keep;
  if (!keep) kept.by_size.clear();
}

void run_batch_on_gpus(const AnyGraph& graph, const std::vector<RunRequest>& requests, const GpuOptions& options,
                       const OutputSink& sink) {
  const bool directed = std::visit([](const auto& g) { return g.directed; }, graph);
  dist::check_multi_gpu_run(requests, options, directed);
  const int p = options.gpus;
  std::unique_ptr<dist::gpu::GpuGroup> own;
  dist::gpu::GpuGroup& group = group_for(p, own);

  dist::gpu::RunTimes times;
  auto t = std::chrono::steady_clock::now();
  const dist::Partition part = dist::partition_graph(
      graph, p, dist::PartitionOptions{.threshold = options.delegate_threshold, .rule = dist::threshold_rule_for(requests)});
  const dist::GlobalIdOrder order(part.num_vertices,
                                 std::span<const uint64_t>(part.delegate_global.data(), part.num_delegates()), p);
  times.partition_s = seconds_since(t);

  // The partition above used every core; from here the host's parallel work
  // leaves cores for each GPU's rank thread and NCCL's threads (host_threads.h).
  const dist::gpu::HostThreadsLeaveGpuCores leave_gpu_cores(p);
  // One program per algorithm of the batch, placed when its first request comes.
  const AlgorithmInfo* placed = nullptr;
  std::vector<std::unique_ptr<dist::gpu::RankProgram>> ranks(p);
  std::vector<dist::gpu::PartMemory> where(p, dist::gpu::PartMemory::kDevice);
  uint64_t placed_bytes = 0;
  int in_host = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    const RunRequest& request = requests[i];
    if (placed != request.algorithm) {
      t = std::chrono::steady_clock::now();
      group.on_each_rank([&](int r) { ranks[r].reset(); });
      group.on_each_rank([&](int r) {
        where[r] = dist::gpu::choose_part_memory(*request.algorithm, part.ranks[r], options);
        ranks[r] = dist::gpu::make_rank_program(*request.algorithm, part.ranks[r], group.comm(r), !part.directed, where[r]);
      });
      group.on_each_rank([&](int r) { ranks[r]->warm_up(); });
      times.transfer_s = seconds_since(t);
      placed = request.algorithm;
      placed_bytes = 0;
      in_host = 0;
      for (int r = 0; r < p; ++r) {
        placed_bytes += dist::gpu::program_memory(request.algorithm->name(), part.ranks[r])
                            .part(where[r] == dist::gpu::PartMemory::kDevice);
        in_host += where[r] == dist::gpu::PartMemory::kHost ? 1 : 0;
      }
    }
    std::vector<RankRunRecord> records(p);
    std::vector<RankResult> results(p);
    group.on_each_rank([&](int r) {
      records[r] = ranks[r]->run(request);
      results[r] = ranks[r]->result();
    });
    t = std::chrono::steady_clock::now();
    VertexValues values = gather(order, results);
    times.compute_s = 0;
    uint64_t edges = 0;
    for (const RankRunRecord& r : records) {
      times.compute_s = std::max(times.compute_s, r.seconds);
      edges += r.edges;
    }
    times.copy_back_s = seconds_since(t);
    DistributedStats stats = combine(part, records);
    stats.parts_in_host_memory = in_host;
    sink(i, dist::gpu::distributed_output(graph, *request.algorithm, std::move(values), std::move(stats), times,
                                          placed_bytes, edges, records.front().residual));
  }
  group.on_each_rank([&](int r) { ranks[r].reset(); });  // each rank's memory freed with its device current
}

}  // namespace tg
