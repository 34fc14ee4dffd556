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
#include "distributed/level_record.h"
#include "distributed/partition.h"
#include "distributed/rank_memory.h"
#include "engines/gpu/cuda_util.h"
#include "engines/gpu/host_openmp.h"
#include "engines/run.h"

namespace tg::dist::gpu {

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
