#include "distributed/gpu/rank_pagerank.h"

#include <cmath>

#include "distributed/gpu/push_kernels.cuh"

namespace tg::dist::gpu {
namespace {

using tg::gpu::DeviceArray;
using tg::gpu::kBlock;

struct PrIteration {
  RankView g;
  const double* contribution;  // local normals
  double* sum;
  const double* delegate_contribution;
  double* delegate_sum;
  double* remote;  // the owners' segments (null with one rank)
  uint64_t segment_slots;
};

struct PushNn {
  PrIteration r;
  __device__ bool active(uint32_t) const { return true; }
  __device__ void operator()(uint32_t u, uint64_t v, eid_t) const {
    const RankOf at = rank_of(r.g, v);
    if (at.owner == static_cast<uint32_t>(r.g.rank)) atomicAdd(&r.sum[r.g.local_of_slot[at.slot]], r.contribution[u]);
    else atomicAdd(&r.remote[at.owner * r.segment_slots + at.slot], r.contribution[u]);
  }
};
struct PushNd {
  PrIteration r;
  __device__ bool active(uint32_t) const { return true; }
  __device__ void operator()(uint32_t u, uint32_t k, eid_t) const { atomicAdd(&r.delegate_sum[k], r.contribution[u]); }
};
struct PushDn {
  PrIteration r;
  __device__ bool active(uint32_t) const { return true; }
  __device__ void operator()(uint32_t k, uint32_t l, eid_t) const { atomicAdd(&r.sum[l], r.delegate_contribution[k]); }
};
struct PushDd {
  PrIteration r;
  __device__ bool active(uint32_t) const { return true; }
  __device__ void operator()(uint32_t k, uint32_t j, eid_t) const {
    atomicAdd(&r.delegate_sum[j], r.delegate_contribution[k]);
  }
};

__global__ void local_delegate_degrees(RankView g, double* degree) {
  for (uint64_t k = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; k < g.num_delegates; k += uint64_t{gridDim.x} * blockDim.x)
    degree[k] = static_cast<double>(delegate_edges_here(g, k));
}

__global__ void start_normals(RankView g, double y, double* score, double* contribution) {
  for (uint64_t l = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; l < g.num_normals; l += uint64_t{gridDim.x} * blockDim.x) {
    const eid_t degree = normal_edges_here(g, l);
    score[l] = y;
    contribution[l] = degree > 0 ? y / static_cast<double>(degree) : 0.0;
  }
}

__global__ void start_delegates(uint32_t d, double y, const double* degree, double* score, double* contribution) {
  for (uint64_t k = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; k < d; k += uint64_t{gridDim.x} * blockDim.x) {
    score[k] = y;
    contribution[k] = y / degree[k];  // a delegate has out-degree above TH >= 0
  }
}

// y = base + damping * (what reached the vertex here + what its segment
// brought); |change| into scalars[0].
__global__ void settle_normals(RankView g, uint64_t slots, double base, double damping, const double* sum,
                               const double* received, double* score, double* contribution, double* scalars) {
  double change = 0;
  for (uint64_t s = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; s < slots; s += uint64_t{gridDim.x} * blockDim.x) {
    const uint32_t l = g.local_of_slot[s];
    if (l == kNoLocalId) continue;
    const double y = base + damping * (sum[l] + (received != nullptr ? received[s] : 0.0));
    change += fabs(y - score[l]);
    score[l] = y;
    const eid_t degree = normal_edges_here(g, l);
    contribution[l] = degree > 0 ? y / static_cast<double>(degree) : 0.0;
  }
  block_add(change, &scalars[0]);
}

// The delegates' sums are reduced over every rank: each settles them alike,
// and rank 0 alone counts their change.
__global__ void settle_delegates(RankView g, double base, double damping, const double* sum, const double* degree,
                                 double* score, double* contribution, double* scalars) {
  double change = 0;
  for (uint64_t k = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; k < g.num_delegates; k += uint64_t{gridDim.x} * blockDim.x) {
    const double y = base + damping * sum[k];
    change += fabs(y - score[k]);
    score[k] = y;
    contribution[k] = y / degree[k];
  }
  block_add(g.rank == 0 ? change : 0.0, &scalars[0]);
}

__global__ void add_scores(const double* score, uint64_t count, double* total) {
  double sum = 0;
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < count; i += uint64_t{gridDim.x} * blockDim.x)
    sum += score[i];
  block_add(sum, total);
}

const RankGraph& checked(const RankGraph& g, PartMemory where) {
  check_fits("pagerank", g, where);
  return g;
}

}  // namespace

RankPageRank::RankPageRank(const RankGraph& graph, ncclComm_t comm, PartMemory where)
    : host_(checked(graph, where)), comm_(comm), stream_(6), graph_(graph, false, where), remote_(graph) {
  const uint64_t n = graph.num_normals(), d = graph.num_delegates();
  if (where == PartMemory::kHost)
    host_list_bytes_ = graph.nn.num_edges() * sizeof(uint64_t) +
                       (graph.nd.num_edges() + graph.dn.num_edges() + graph.dd.num_edges()) * sizeof(uint32_t);
  score_ = DeviceArray<double>::allocate(n);
  contribution_ = DeviceArray<double>::allocate(n);
  sum_ = DeviceArray<double>::allocate(n);
  delegate_score_ = DeviceArray<double>::allocate(d);
  delegate_contribution_ = DeviceArray<double>::allocate(d);
  delegate_sum_ = DeviceArray<double>::allocate(d);
  delegate_degree_ = DeviceArray<double>::allocate(d);
  scalars_ = DeviceArray<double>::allocate(2);
  TG_CUDA(cudaMallocHost(&pinned_, 2 * sizeof(double)));
}

RankPageRank::~RankPageRank() { cudaFreeHost(pinned_); }

void RankPageRank::warm_up() {
  if (host_.num_ranks == 1) return;
  remote_.clear(0, stream_.stream());
  remote_.reduce(ncclSum, comm_, stream_.stream());
  TG_NCCL(ncclAllReduce(scalars_.data(), scalars_.data(), 2, ncclFloat64, ncclSum, comm_, stream_.stream()));
  stream_.sync();
}

// *value (on the device) summed over the ranks, read back; event `mark`
// (where given) recorded once it is on its way back, before the wait.
double RankPageRank::allreduced(double* value, int mark) {
  const cudaStream_t s = stream_.stream();
  if (host_.num_ranks > 1) TG_NCCL(ncclAllReduce(value, value, 1, ncclFloat64, ncclSum, comm_, s));
  TG_CUDA(cudaMemcpyAsync(pinned_, value, sizeof(double), cudaMemcpyDeviceToHost, s));
  if (mark >= 0) stream_.mark(mark);
  stream_.sync();
  return pinned_[0];
}

double RankPageRank::sum_of_scores() {
  const cudaStream_t s = stream_.stream();
  const int sms = stream_.sms();
  TG_CUDA(cudaMemsetAsync(scalars_.data() + 1, 0, sizeof(double), s));
  if (host_.num_normals() > 0) {
    add_scores<<<tg::gpu::grid_for(host_.num_normals(), kBlock, sms), kBlock, 0, s>>>(score_.data(), host_.num_normals(),
                                                                                      scalars_.data() + 1);
    TG_CUDA_CHECK_LAUNCH();
  }
  if (host_.rank == 0 && host_.num_delegates() > 0) {  // the same on every rank: counted once
    add_scores<<<tg::gpu::grid_for(host_.num_delegates(), kBlock, sms), kBlock, 0, s>>>(
        delegate_score_.data(), host_.num_delegates(), scalars_.data() + 1);
    TG_CUDA_CHECK_LAUNCH();
  }
  return allreduced(scalars_.data() + 1);
}

RankRunRecord RankPageRank::run(const RunRequest& request) {
  const RankGraph& g = host_;
  const AlgorithmOptions& options = request.options;
  const uint64_t n = g.num_normals(), d = g.num_delegates();
  const uint64_t slots = DegreeSeparation::slots_on_rank(g.num_vertices, g.num_ranks, g.rank);
  const cudaStream_t s = stream_.stream();
  const int sms = stream_.sms();
  const RankView view = graph_.view();
  const unsigned normal_grid = tg::gpu::grid_for(n, kBlock, sms), delegate_grid = tg::gpu::grid_for(d, kBlock, sms);
  const double vertices = static_cast<double>(g.num_vertices);
  const double base = (1.0 - options.damping) / vertices;

  if (!have_degrees_ && d > 0) {  // a delegate's out-degree over every rank, once
    local_delegate_degrees<<<delegate_grid, kBlock, 0, s>>>(view, delegate_degree_.data());
    TG_CUDA_CHECK_LAUNCH();
    if (g.num_ranks > 1)
      TG_NCCL(ncclAllReduce(delegate_degree_.data(), delegate_degree_.data(), d, ncclFloat64, ncclSum, comm_, s));
  }
  have_degrees_ = true;
  if (g.num_ranks > 1) TG_NCCL(ncclAllReduce(scalars_.data(), scalars_.data(), 1, ncclFloat64, ncclSum, comm_, s));
  stream_.mark(0);
  if (n > 0) {
    start_normals<<<normal_grid, kBlock, 0, s>>>(view, 1.0 / vertices, score_.data(), contribution_.data());
    TG_CUDA_CHECK_LAUNCH();
  }
  if (d > 0) {
    start_delegates<<<delegate_grid, kBlock, 0, s>>>(static_cast<uint32_t>(d), 1.0 / vertices, delegate_degree_.data(),
                                                     delegate_score_.data(), delegate_contribution_.data());
    TG_CUDA_CHECK_LAUNCH();
  }

  RankRunRecord record;
  const uint64_t edges = g.nn.num_edges() + g.nd.num_edges() + g.dn.num_edges() + g.dd.num_edges();
  double change = 0, mass = -1;  // as pagerank_pull: a lower bound on |y|_1 once summed
  for (int iteration = 0; iteration < options.max_iters;) {
    stream_.mark(1);
    if (n > 0) TG_CUDA(cudaMemsetAsync(sum_.data(), 0, n * sizeof(double), s));
    if (d > 0) TG_CUDA(cudaMemsetAsync(delegate_sum_.data(), 0, d * sizeof(double), s));
    remote_.clear(0, s);
    const PrIteration r{view, contribution_.data(), sum_.data(), delegate_contribution_.data(), delegate_sum_.data(),
                        remote_.send(), remote_.segment_slots()};
    launch_push_rows(view.nn, view.num_normals, PushNn{r}, sms, s);
    launch_push_rows(view.nd, view.num_normals, PushNd{r}, sms, s);
    launch_push_rows(view.dn, view.num_delegates, PushDn{r}, sms, s);
    launch_push_rows(view.dd, view.num_delegates, PushDd{r}, sms, s);
    stream_.mark(2);
    remote_.reduce(ncclSum, comm_, s);
    if (g.num_ranks > 1 && d > 0)
      TG_NCCL(ncclAllReduce(delegate_sum_.data(), delegate_sum_.data(), d, ncclFloat64, ncclSum, comm_, s));
    stream_.mark(3);
    TG_CUDA(cudaMemsetAsync(scalars_.data(), 0, sizeof(double), s));
    settle_normals<<<tg::gpu::grid_for(slots, kBlock, sms), kBlock, 0, s>>>(
        view, slots, base, options.damping, sum_.data(), remote_.active() ? remote_.received() : nullptr,
        score_.data(), contribution_.data(), scalars_.data());
    TG_CUDA_CHECK_LAUNCH();
    if (d > 0) {
      settle_delegates<<<delegate_grid, kBlock, 0, s>>>(view, base, options.damping, delegate_sum_.data(),
                                                       delegate_degree_.data(), delegate_score_.data(),
                                                       delegate_contribution_.data(), scalars_.data());
      TG_CUDA_CHECK_LAUNCH();
    }
    stream_.mark(4);
    change = allreduced(scalars_.data(), 5);
    ++iteration;
    record.edges += edges;

    LevelRecord l;
    l.delegate_frontier = static_cast<uint32_t>(d);
    l.compute_s = stream_.seconds(1, 2) + stream_.seconds(3, 4);
    l.communication_s = stream_.seconds(2, 3) + stream_.seconds(4, 5);
    l.bytes_sent = g.num_ranks > 1 ? remote_.bytes_sent() + d * 8 + 8 : 0;
    l.host_bytes_read = host_list_bytes_;
    l.host_read_s = host_list_bytes_ > 0 ? stream_.seconds(1, 2) : 0;
    record.levels.push_back(l);

    if (mass >= 0) mass -= change;
    if (change < options.tolerance) {
      if (mass < 0) mass = sum_of_scores();
      if (change < options.tolerance * mass / 2) break;
    }
  }
  total_ = sum_of_scores();
  stream_.mark(1);
  stream_.sync();
  record.seconds = stream_.seconds(0, 1);
  record.residual = total_ > 0 ? change / total_ : change;
  return record;
}

RankResult RankPageRank::result() const {
  RankPart<double> part =
      part_to_host<double>(score_.data(), host_.num_normals(), delegate_score_.data(), host_.num_delegates());
  const double scale = total_ > 0 ? 1 / total_ : 1;
  for (double& x : part.normal) x *= scale;
  for (double& x : part.delegate) x *= scale;
  return part;
}

}  // namespace tg::dist::gpu
