#include "distributed/gpu/rank_cc.h"

#include <limits>
#include <string>

#include "distributed/gpu/push_kernels.cuh"

namespace tg::dist::gpu {
namespace {

using tg::gpu::DeviceArray;
using tg::gpu::kBlock;

constexpr uint32_t kNoLabel = std::numeric_limits<uint32_t>::max();

struct CcRound {
  RankView g;
  const uint32_t* label;  // local normals, as the round began
  uint32_t* next_label;
  const uint32_t* delegate_label;
  uint32_t* delegate_candidate;
  const uint8_t* active;
  const uint8_t* delegate_active;
  uint32_t* remote;  // the owners' segments (null with one rank)
  uint64_t segment_slots;
};

__device__ void lower(uint32_t* at, uint32_t x) {
  if (x < *at) atomicMin(at, x);
}

// A normal vertex's edges: nn to a normal destination here or elsewhere,
// nd to a delegate.
struct PushNn {
  CcRound r;
  __device__ bool active(uint32_t u) const { return r.active[u]; }
  __device__ void operator()(uint32_t u, uint64_t v) const {
    const uint64_t p = static_cast<uint64_t>(r.g.num_ranks);
    const uint64_t owner = v % p, slot = v / p;
    if (owner == static_cast<uint64_t>(r.g.rank)) lower(&r.next_label[r.g.local_of_slot[slot]], r.label[u]);
    else lower(&r.remote[owner * r.segment_slots + slot], r.label[u]);
  }
};
struct PushNd {
  CcRound r;
  __device__ bool active(uint32_t u) const { return r.active[u]; }
  __device__ void operator()(uint32_t u, uint32_t k) const { lower(&r.delegate_candidate[k], r.label[u]); }
};
// A delegate's edges stored here: dn to a local normal, dd to a delegate.
struct PushDn {
  CcRound r;
  __device__ bool active(uint32_t k) const { return r.delegate_active[k]; }
  __device__ void operator()(uint32_t k, uint32_t l) const { lower(&r.next_label[l], r.delegate_label[k]); }
};
struct PushDd {
  CcRound r;
  __device__ bool active(uint32_t k) const { return r.delegate_active[k]; }
  __device__ void operator()(uint32_t k, uint32_t j) const { lower(&r.delegate_candidate[j], r.delegate_label[k]); }
};

// Labels by global id: this rank's normal vertices are slot * P + rank.
__global__ void start_labels(RankView g, uint64_t slots, uint32_t* label) {
  for (uint64_t s = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; s < slots; s += uint64_t{gridDim.x} * blockDim.x) {
    const uint32_t l = g.local_of_slot[s];
    if (l != kNoLocalId) label[l] = static_cast<uint32_t>(s * g.num_ranks + g.rank);
  }
}

// The round's end on this rank: each normal vertex takes the smaller of what
// reached it here and what its segment brought, each delegate the reduced
// candidate; those whose label fell push next round. counters: [0] labels
// fallen, summed over ranks next (the delegates' on rank 0 only: every rank
// settles them alike), [1] edges they will push from here, [2] delegates
// whose label fell (the same on every rank).
__global__ void settle_normals(RankView g, uint64_t slots, uint32_t* label, const uint32_t* next_label,
                               const uint32_t* received, uint8_t* active, unsigned long long* counters) {
  unsigned long long fell = 0, edges = 0;
  for (uint64_t s = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; s < slots; s += uint64_t{gridDim.x} * blockDim.x) {
    const uint32_t l = g.local_of_slot[s];
    if (l == kNoLocalId) continue;
    uint32_t x = next_label[l];
    if (received != nullptr && received[s] < x) x = received[s];
    const bool lower = x < label[l];
    active[l] = lower;
    if (lower) {
      label[l] = x;
      ++fell;
      edges += (g.nn.offsets[l + 1] - g.nn.offsets[l]) + (g.nd.offsets[l + 1] - g.nd.offsets[l]);
    }
  }
  block_add(fell, &counters[0]);
  block_add(edges, &counters[1]);
}

__global__ void settle_delegates(RankView g, uint32_t* label, const uint32_t* candidate, uint8_t* active,
                                 unsigned long long* counters) {
  unsigned long long fell = 0, edges = 0;
  for (uint64_t k = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; k < g.num_delegates; k += uint64_t{gridDim.x} * blockDim.x) {
    const bool lower = candidate[k] < label[k];
    active[k] = lower;
    if (lower) {
      label[k] = candidate[k];
      ++fell;
      edges += (g.dn.offsets[k + 1] - g.dn.offsets[k]) + (g.dd.offsets[k + 1] - g.dd.offsets[k]);
    }
  }
  block_add(g.rank == 0 ? fell : 0ull, &counters[0]);
  block_add(edges, &counters[1]);
  block_add(fell, &counters[2]);
}

uint64_t my_slots(const RankGraph& g) { return DegreeSeparation::slots_on_rank(g.num_vertices, g.num_ranks, g.rank); }

const RankGraph& checked(const RankGraph& g) {
  if (g.num_vertices > kNoLabel)
    throw Error("cc on several GPUs labels vertices with 32-bit ids: " + std::to_string(g.num_vertices) +
                " vertices are too many");
  check_fits(g, RankCc::bytes_needed(g));
  return g;
}

}  // namespace

uint64_t RankCc::bytes_needed(const RankGraph& g) {
  const uint64_t n = g.num_normals(), d = g.num_delegates();
  return DeviceRankGraph::bytes_needed(g) + n * (4 + 4 + 1) + d * (4 + 4 + 4 + 1) +
         OwnerSegments<uint32_t>::bytes_needed(g) + 64;
}

RankCc::RankCc(const RankGraph& graph, ncclComm_t comm)
    : host_(checked(graph)), comm_(comm), stream_(6), graph_(graph), remote_(graph) {
  const uint64_t n = graph.num_normals(), d = graph.num_delegates();
  label_ = DeviceArray<uint32_t>::allocate(n);
  next_label_ = DeviceArray<uint32_t>::allocate(n);
  active_ = DeviceArray<uint8_t>::allocate(n);
  delegate_label_ = DeviceArray<uint32_t>::allocate(d);
  delegate_candidate_ = DeviceArray<uint32_t>::allocate(d);
  delegate_active_ = DeviceArray<uint8_t>::allocate(d);
  delegate_global_ = DeviceArray<uint32_t>::allocate(d);
  counters_ = DeviceArray<unsigned long long>::allocate(3);
  std::vector<uint32_t> globals(graph.delegate_global.begin(), graph.delegate_global.end());
  if (d > 0) TG_CUDA(cudaMemcpy(delegate_global_.data(), globals.data(), d * 4, cudaMemcpyHostToDevice));
  TG_CUDA(cudaMallocHost(&pinned_, 3 * sizeof(unsigned long long)));
}

RankCc::~RankCc() { cudaFreeHost(pinned_); }

void RankCc::warm_up() {
  if (host_.num_ranks == 1) return;
  remote_.clear(0xFF, stream_.stream());
  remote_.reduce(ncclMin, comm_, stream_.stream());
  TG_NCCL(ncclAllReduce(counters_.data(), counters_.data(), 2, ncclUint64, ncclSum, comm_, stream_.stream()));
  stream_.sync();
}

RankRunRecord RankCc::run(const RunRequest&) {
  const RankGraph& g = host_;
  const uint64_t n = g.num_normals(), d = g.num_delegates(), slots = my_slots(g);
  const cudaStream_t s = stream_.stream();
  const int sms = stream_.sms();
  const RankView view = graph_.view();
  const unsigned slot_grid = tg::gpu::grid_for(slots, kBlock, sms), delegate_grid = tg::gpu::grid_for(d, kBlock, sms);

  if (g.num_ranks > 1) TG_NCCL(ncclAllReduce(counters_.data(), counters_.data(), 1, ncclUint64, ncclSum, comm_, s));
  stream_.mark(0);
  start_labels<<<slot_grid, kBlock, 0, s>>>(view, slots, label_.data());
  TG_CUDA_CHECK_LAUNCH();
  if (d > 0) TG_CUDA(cudaMemcpyAsync(delegate_label_.data(), delegate_global_.data(), d * 4, cudaMemcpyDeviceToDevice, s));
  if (n > 0) TG_CUDA(cudaMemsetAsync(active_.data(), 1, n, s));
  if (d > 0) TG_CUDA(cudaMemsetAsync(delegate_active_.data(), 1, d, s));

  RankRunRecord record;
  record.edges = g.nn.num_edges() + g.nd.num_edges() + g.dn.num_edges() + g.dd.num_edges();  // round 0 pushes all
  uint32_t delegates_active = static_cast<uint32_t>(d);
  for (;;) {
    stream_.mark(1);
    if (n > 0) TG_CUDA(cudaMemcpyAsync(next_label_.data(), label_.data(), n * 4, cudaMemcpyDeviceToDevice, s));
    if (d > 0) TG_CUDA(cudaMemsetAsync(delegate_candidate_.data(), 0xFF, d * 4, s));
    remote_.clear(0xFF, s);
    const CcRound r{view, label_.data(), next_label_.data(), delegate_label_.data(), delegate_candidate_.data(),
                    active_.data(), delegate_active_.data(), remote_.send(), remote_.segment_slots()};
    launch_push_rows(view.nn, view.num_normals, PushNn{r}, sms, s);
    launch_push_rows(view.nd, view.num_normals, PushNd{r}, sms, s);
    launch_push_rows(view.dn, view.num_delegates, PushDn{r}, sms, s);
    launch_push_rows(view.dd, view.num_delegates, PushDd{r}, sms, s);
    stream_.mark(2);
    remote_.reduce(ncclMin, comm_, s);
    if (g.num_ranks > 1 && d > 0)
      TG_NCCL(ncclAllReduce(delegate_candidate_.data(), delegate_candidate_.data(), d, ncclUint32, ncclMin, comm_, s));
    stream_.mark(3);
    TG_CUDA(cudaMemsetAsync(counters_.data(), 0, 3 * sizeof(unsigned long long), s));
    settle_normals<<<slot_grid, kBlock, 0, s>>>(view, slots, label_.data(), next_label_.data(),
                                                remote_.active() ? remote_.received() : nullptr, active_.data(),
                                                counters_.data());
    TG_CUDA_CHECK_LAUNCH();
    if (d > 0) {
      settle_delegates<<<delegate_grid, kBlock, 0, s>>>(view, delegate_label_.data(), delegate_candidate_.data(),
                                                       delegate_active_.data(), counters_.data());
      TG_CUDA_CHECK_LAUNCH();
    }
    TG_CUDA(cudaMemcpyAsync(pinned_ + 1, counters_.data() + 1, 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
    stream_.mark(4);
    if (g.num_ranks > 1) TG_NCCL(ncclAllReduce(counters_.data(), counters_.data(), 1, ncclUint64, ncclSum, comm_, s));
    TG_CUDA(cudaMemcpyAsync(pinned_, counters_.data(), sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
    stream_.mark(5);
    stream_.sync();

    LevelRecord l;
    l.delegate_frontier = delegates_active;
    l.compute_s = stream_.seconds(1, 2) + stream_.seconds(3, 4);
    l.communication_s = stream_.seconds(2, 3) + stream_.seconds(4, 5);
    l.bytes_sent = g.num_ranks > 1 ? remote_.bytes_sent() + d * 4 + 8 : 0;
    record.levels.push_back(l);
    if (pinned_[0] == 0) break;
    record.edges += pinned_[1];
    delegates_active = static_cast<uint32_t>(pinned_[2]);
  }
  stream_.mark(1);
  stream_.sync();
  record.seconds = stream_.seconds(0, 1);
  return record;
}

RankResult RankCc::result() const {
  RankPart<uint64_t> part;
  std::vector<uint32_t> normal(host_.num_normals()), delegate(host_.num_delegates());
  if (!normal.empty()) TG_CUDA(cudaMemcpy(normal.data(), label_.data(), normal.size() * 4, cudaMemcpyDeviceToHost));
  if (!delegate.empty())
    TG_CUDA(cudaMemcpy(delegate.data(), delegate_label_.data(), delegate.size() * 4, cudaMemcpyDeviceToHost));
  part.normal.assign(normal.begin(), normal.end());
  part.delegate.assign(delegate.begin(), delegate.end());
  return part;
}

}  // namespace tg::dist::gpu
