#include "distributed/rank_run.h"

#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <span>
#include <string>

#include "distributed/degree_separation.h"
#include "distributed/gpu/gpu_group.h"
#include "distributed/gpu/host_threads.h"
#include "distributed/gpu/nccl_check.h"
#include "distributed/gpu/rank_program.h"
#include "distributed/gpu/run_output.h"
#include "distributed/multi_gpu_checks.h"
#include "distributed/partition.h"
#include "distributed/values_by_global_id.h"
#include "engines/gpu/cuda_util.h"
#include "engines/gpu/host_openmp.h"

namespace tg::dist {
namespace {


// The ranks agree on whether every one of them got here without an error, so
// that none enters an NCCL exchange that a failed rank will never join.
void agree_all_ready(Communicator& host, bool ready) {
  if (host.allreduce(static_cast<uint32_t>(ready ? 0 : 1), ReduceOp::kMax) != 0 && ready)
    throw Error("another rank failed (its own error says why)");
}

// Every rank's normal values in its local order, turned into values by
// global id: rank q's normal vertices are the ids q, q + P, q + 2P, ... that
// are not delegates, ascending, so only the values need to travel.
template <typename T>
ResultVector<T> by_global_id(Communicator& host, const GlobalIdOrder& order, const gpu::RankPart<T>& mine) {
  std::vector<uint64_t> counts;
  const std::vector<T> all = host.allgatherv(std::span<const T>(mine.normal), &counts);
  ResultVector<T> value(order.num_vertices());
  std::vector<std::span<const T>> normals;
  uint64_t at = 0;
  for (uint64_t count : counts) {
    normals.push_back(std::span<const T>(all).subspan(at, count));
    at += count;
  }
  order.gather<T>(normals, std::span<const T>(mine.delegate), value.data());
  return value;
}

VertexValues gather(Communicator& host, const GlobalIdOrder& order, const gpu::RankResult& mine) {
  return std::visit([&](const auto& part) -> VertexValues { return by_global_id(host, order, part); }, mine);
}

// This rank's levels combined with the others' (distributed/level_record.h;
// the level count is the same everywhere: the stop is decided by the reduced
// flags).
DistributedStats combine(Communicator& host, const RankGraph& g, const gpu::RankRunRecord& mine) {
  PackedLevels levels = pack_levels(mine.levels);
  host.allreduce(std::span<double>(levels.slowest), ReduceOp::kMax);
  host.allreduce(std::span<double>(levels.fastest), ReduceOp::kMin);
  host.allreduce(std::span<uint64_t>(levels.summed), ReduceOp::kSum);
  DistributedStats d;
  d.gpus = g.num_ranks;
  d.threshold = g.threshold;
  d.delegates = g.num_delegates();
  d.levels = unpack_levels(levels, mine.levels);
  return d;
}

}  // namespace

std::vector<RunOutput> run_batch_as_rank(const AnyGraph& graph, const std::vector<RunRequest>& requests,
                                         const GpuOptions& options, Communicator& host) {
  std::vector<RunOutput> outputs;
  run_batch_as_rank(graph, requests, options, host, [&](size_t, RunOutput&& out) { outputs.push_back(std::move(out)); });
  return outputs;
}

void run_batch_as_rank(const AnyGraph& graph, const std::vector<RunRequest>& requests, const GpuOptions& options,
                       Communicator& host, const OutputSink& sink) {
  GpuOptions checked = options;
  checked.gpus = host.size();
  checked.device = 0;  // the device is the rank's own, not a choice among the group's
  const bool directed = std::visit([](const auto& x) { return x.directed; }, graph);
  check_multi_gpu_run(requests, checked, directed);
  const int rank = host.rank(), p = host.size();

  bool ready = false;
  int present = gpu::visible_gpu_count();
  std::string why;
  if (options.device >= present)
    why = "rank " + std::to_string(rank) + " wants GPU " + std::to_string(options.device) + " of its host and " +
          std::to_string(present) + " present";
  ready = why.empty();
  agree_all_ready(host, ready);
  if (!ready) throw Error("--distributed: " + why);
  TG_CUDA(cudaSetDevice(options.device));

  gpu::RunTimes times;
  auto t = std::chrono::steady_clock::now();
  const RankGraph g =
      partition_rank(graph, p, rank, PartitionOptions{.threshold = options.delegate_threshold, .rule = threshold_rule_for(requests)});
  const GlobalIdOrder order(g.num_vertices, std::span<const uint64_t>(g.delegate_global.data(), g.num_delegates()), p);
  times.partition_s = seconds_since(t);

  // NCCL's id from rank 0 to every process, then one communicator.
  ncclUniqueId id{};
  if (rank == 0) TG_NCCL(ncclGetUniqueId(&id));
  host.broadcast(std::span<ncclUniqueId>(&id, 1), 0);
  setenv("NCCL_NVLS_ENABLE", "0", 0);  // as gpu_group.cu: off unless the user says otherwise
  ncclComm_t comm = nullptr;
  TG_NCCL(ncclCommInitRank(&comm, p, id, rank));
  struct CommOwner {
    ncclComm_t c;
    ~CommOwner() { ncclCommDestroy(c); }
  } owner{comm};

  // The partition above used every core; from here each process's parallel
  // work leaves cores for each GPU of this host to the ranks and NCCL's threads
  // (host_threads.h), and shares the rest with the host's other ranks.
  const int here = gpu::ranks_on_this_host(p);
  const gpu::HostThreadsLeaveGpuCores leave_gpu_cores(here, here);
  uint64_t placed_bytes = 0, in_host = 0;
  const AlgorithmInfo* placed = nullptr;
  std::unique_ptr<gpu::RankProgram> program;
  for (size_t i = 0; i < requests.size(); ++i) {
    const RunRequest& request = requests[i];
    if (placed != request.algorithm) {  // one program per algorithm of the batch
      t = std::chrono::steady_clock::now();
      program.reset();
      std::string error;
      gpu::PartMemory where = gpu::PartMemory::kDevice;
      try {
        where = gpu::choose_part_memory(*request.algorithm, g, options);
        program = gpu::make_rank_program(*request.algorithm, g, comm, !directed, where);
      } catch (const Error& e) {
        error = e.what();
      }
      agree_all_ready(host, error.empty());
      if (!error.empty()) throw Error(error);
      program->warm_up();
      times.transfer_s = seconds_since(t);
      placed = request.algorithm;
      placed_bytes = host.allreduce(gpu::program_memory(request.algorithm->name(), g).part(where == gpu::PartMemory::kDevice),
                                    ReduceOp::kSum);
      in_host = host.allreduce(uint64_t{where == gpu::PartMemory::kHost ? 1u : 0u}, ReduceOp::kSum);
    }
    const gpu::RankRunRecord record = program->run(request);
    const gpu::RankResult mine = program->result();
    t = std::chrono::steady_clock::now();
    VertexValues values = gather(host, order, mine);
    times.compute_s = host.allreduce(record.seconds, ReduceOp::kMax);
    const uint64_t edges = host.allreduce(record.edges, ReduceOp::kSum);
    DistributedStats stats = combine(host, g, record);
    stats.parts_in_host_memory = static_cast<int>(in_host);
    times.copy_back_s = seconds_since(t);
    sink(i, gpu::distributed_output(graph, *request.algorithm, std::move(values), std::move(stats), times, placed_bytes,
                                    edges, record.residual));
  }
}

}  // namespace tg::dist
