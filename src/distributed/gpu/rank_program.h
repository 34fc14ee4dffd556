// One rank's share of an algorithm over a degree-separated partition: the
// interface the drivers of `--gpus N` (threads of one process,
// multi_gpu_run.cu) and of `mpirun ... --distributed` (a process per GPU,
// rank_run.cu) run, whatever the algorithm. A program needs its RankGraph,
// its device current and an NCCL communicator whose other ranks make the
// same calls in the same order.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/recycled_vector.h"
#include "distributed/gpu/device_rank_graph.h"
#include "distributed/partition.h"
#include "distributed/rank_memory.h"
#include "engines/gpu/cuda_util.h"
#include "engines/gpu/host_openmp.h"
#include "engines/run.h"

namespace tg::dist::gpu {

// One level (BFS) or round (CC, PageRank) as this rank saw it.
struct LevelRecord {
  double compute_s = 0;        // kernels
  double communication_s = 0;  // NCCL (waits for slower ranks included)
  uint64_t bytes_sent = 0;     // this rank's payload
  uint64_t normals_received = 0;
  uint32_t delegate_frontier = 0;  // delegates active this level (the same on every rank)
  bool pulled = false;             // BFS: the delegates' edges bottom-up on this rank
  bool normals_pulled = false;     // BFS: the normal frontier bottom-up too (on every rank)
  // BFS: the edges of the frontiers entering the level, the inputs of the
  // directions: this rank's dn and dd edges of the delegate frontier, every
  // rank's nn and nd edges of the normal frontier (as announced).
  uint64_t delegate_frontier_edges = 0, normal_frontier_edges = 0;
  // BFS: compute_s by phase (the normals' expansion or pull; the delegates'
  // degree scan, host read of its total and push or pull; the visit of the
  // normals received; the delegates' settle), to find where a level goes.
  double normals_s = 0, delegates_s = 0, visit_s = 0, settle_s = 0;
  // BFS: communication_s by phase (the normals' counts and queues; the
  // reached delegates' mask, or a quiet level's announcements; the normal
  // frontier's bits).
  double normals_exchange_s = 0, delegates_exchange_s = 0, frontier_share_s = 0;
  // Where the part is in host memory (zero-copy): the bytes of the lists
  // this level's kernels read whole (PageRank: all four, every round), and
  // the time of those kernels. The link carried at least these bytes (whole
  // 32-byte sectors), so bytes over time is a lower bound on its rate.
  uint64_t host_bytes_read = 0;
  double host_read_s = 0;
};

struct RankRunRecord {
  double seconds = 0;  // first level to last, CUDA events on this rank
  std::vector<LevelRecord> levels;
  uint64_t edges = 0;   // edges this rank pushed along (CC, SSSP, PageRank; BFS counts from its depths)
  double residual = 0;  // PageRank: the last L1 change over the scores' sum
};

// A rank's values: its normal vertices' in local order, every delegate's
// (the same on every rank).
// ResultVectors (core/recycled_vector.h): no zero-fill on one thread before
// the copy, and blocks reused from run to run (a bench of many roots at
// kron:29 hands back 1 GB a rank per root).
template <typename T>
struct RankPart {
  ResultVector<T> normal, delegate;
};

// Device arrays of a rank's values copied into a RankPart of type R (widened
// in parallel where R is wider).
template <typename R, typename T>
RankPart<R> part_to_host(const T* normal, uint64_t normals, const T* delegate, uint64_t delegates) {
  ResultVector<T> n(normals), d(delegates);
  if (normals > 0) TG_CUDA(cudaMemcpy(n.data(), normal, normals * sizeof(T), cudaMemcpyDeviceToHost));
  if (delegates > 0) TG_CUDA(cudaMemcpy(d.data(), delegate, delegates * sizeof(T), cudaMemcpyDeviceToHost));
  if constexpr (std::is_same_v<R, T>) {
    return {std::move(n), std::move(d)};
  } else {
    auto widened = [](const ResultVector<T>& from) {
      ResultVector<R> to(from.size());
      const int64_t size = static_cast<int64_t>(from.size());
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < size; ++i) to[i] = static_cast<R>(from[i]);
      return to;
    };
    return {widened(n), widened(d)};
  }
}
using RankResult = std::variant<RankPart<int32_t>, RankPart<uint64_t>, RankPart<double>>;

class RankProgram {
 public:
  virtual ~RankProgram() = default;
  // NCCL connects peers on their first exchange (lazily: 9-12 ms on the x2
  // machine); every rank calls this once after all have constructed.
  virtual void warm_up() = 0;
  virtual RankRunRecord run(const RunRequest& request) = 0;
  // The last run's values.
  virtual RankResult result() const = 0;
};

// The program of request's algorithm (bfs, cc, pagerank, sssp), its state on
// the current device and its part where `where` says; refuses in one line
// when they do not fit.
std::unique_ptr<RankProgram> make_rank_program(const AlgorithmInfo& algorithm, const RankGraph& graph, ncclComm_t comm,
                                               bool symmetric, PartMemory where);

// The GPU memory the program of `algorithm` takes (distributed/rank_memory.h).
RankMemory program_memory(const std::string& algorithm, const RankGraph& graph);

// Where this rank's part goes, on its device (current): `--placement device`
// in GPU memory, any zero-copy placement in host memory, auto in GPU memory
// where the part and the state fit the budget (`--gpu-mem`, per GPU; else the
// free memory), else in host memory.
PartMemory choose_part_memory(const AlgorithmInfo& algorithm, const RankGraph& graph, const GpuOptions& options);

// Refuses, before anything is allocated, a program whose part (where
// placed) and state the device's free memory cannot take: a partial upload
// that then failed would leave the other ranks waiting in their first
// collective.
void check_fits(const std::string& algorithm, const RankGraph& graph, PartMemory where);

// A stream, the device's SM count and CUDA events for one rank.
class RankStream {
 public:
  explicit RankStream(int marks);
  ~RankStream();
  RankStream(const RankStream&) = delete;
  RankStream& operator=(const RankStream&) = delete;

  cudaStream_t stream() const { return stream_; }
  int sms() const { return sms_; }
  void mark(int i) const;                    // records event i
  double seconds(int from, int to) const;    // between two recorded events
  void sync() const;

 private:
  cudaStream_t stream_ = nullptr;
  int sms_ = 1;
  std::vector<cudaEvent_t> marks_;
};

}  // namespace tg::dist::gpu
