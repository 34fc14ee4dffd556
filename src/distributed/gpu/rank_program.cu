#include "distributed/gpu/rank_program.h"

#include <algorithm>
#include <cstdio>

#include "core/error.h"
#include "distributed/gpu/rank_bfs.h"
#include "distributed/gpu/rank_pagerank.h"
#include "distributed/gpu/rank_relax.h"
#include "engines/gpu/cuda_util.h"

namespace tg::dist::gpu {
namespace {

std::string gib(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1ull << 30));
  return text;
}

}  // namespace

std::unique_ptr<RankProgram> make_rank_program(const AlgorithmInfo& algorithm, const RankGraph& graph, ncclComm_t comm,
                                               bool symmetric, PartMemory where) {
  const std::string name = algorithm.name();
  if (name == "bfs") return std::make_unique<RankBfs>(graph, comm, symmetric, where);
  if (name == "cc") return std::make_unique<RankCc>(graph, comm, where);
  if (name == "pagerank") return std::make_unique<RankPageRank>(graph, comm, where);
  if (name == "sssp") return std::make_unique<RankSssp>(graph, comm, where);
  throw Error("no program over several GPUs for " + name);  // multi_gpu_checks.cc refuses it first
}

RankMemory program_memory(const std::string& algorithm, const RankGraph& graph) {
  return rank_memory(algorithm, shape_of(graph));
}

PartMemory choose_part_memory(const AlgorithmInfo& algorithm, const RankGraph& graph, const GpuOptions& options) {
  if (is_zero_copy(options.placement)) return PartMemory::kHost;
  if (options.placement == Placement::kDevice) return PartMemory::kDevice;
  size_t free_bytes = 0, total_bytes = 0;
  TG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const uint64_t room = free_bytes > kRankMemoryMargin ? free_bytes - kRankMemoryMargin : 0;
  const uint64_t budget = options.memory_budget != 0 ? std::min<uint64_t>(options.memory_budget, room) : room;
  return program_memory(algorithm.name(), graph).on_gpu(true) <= budget ? PartMemory::kDevice : PartMemory::kHost;
}

void check_fits(const std::string& algorithm, const RankGraph& g, PartMemory where) {
  const uint64_t need = program_memory(algorithm, g).on_gpu(where == PartMemory::kDevice);
  size_t free_bytes = 0, total_bytes = 0;
  TG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (need + kRankMemoryMargin > free_bytes)
    throw Error("--gpus " + std::to_string(g.num_ranks) + ": rank " + std::to_string(g.rank) + "'s part needs " +
                gib(need) + " of GPU memory and " + gib(free_bytes) +
                " is free (--placement auto or zerocopy-aligned leaves the part in host memory)");
}

RankStream::RankStream(int marks) : marks_(marks, nullptr) {
  int device = 0;
  TG_CUDA(cudaGetDevice(&device));
  TG_CUDA(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device));
  TG_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  for (cudaEvent_t& e : marks_) TG_CUDA(cudaEventCreate(&e));
}

RankStream::~RankStream() {
  for (cudaEvent_t e : marks_) cudaEventDestroy(e);
  cudaStreamDestroy(stream_);
}

void RankStream::mark(int i) const { TG_CUDA(cudaEventRecord(marks_.at(i), stream_)); }

double RankStream::seconds(int from, int to) const {
  float ms = 0;
  TG_CUDA(cudaEventElapsedTime(&ms, marks_.at(from), marks_.at(to)));
  return ms / 1000.0;
}

void RankStream::sync() const { TG_CUDA(cudaStreamSynchronize(stream_)); }

}  // namespace tg::dist::gpu
