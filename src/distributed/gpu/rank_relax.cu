#include "distributed/gpu/rank_relax.h"

#include <algorithm>
#include <limits>
#include <string>

#include "distributed/gpu/push_kernels.cuh"

namespace tg::dist::gpu {

namespace {

using tg::gpu::DeviceArray;
using tg::gpu::kBlock;

template <typename T>
constexpr ncclDataType_t nccl_type() {
  return std::is_same_v<T, double> ? ncclFloat64 : ncclUint32;
}

template <typename Rule>
struct Round {
  using T = typename Rule::value_t;
  RankView g;
  const T* value;  // local normals, as the round began
  T* next;
  const T* delegate_value;
  T* delegate_candidate;
  const uint8_t* active;
  const uint8_t* delegate_active;
  T* remote;  // the owners' segments (null with one rank)
  uint64_t segment_slots;
  // A sparse round (OwnerSegments::exchange_pairs): values for other ranks
  // queued as (slot, value) pairs instead of lowered into the segments.
  bool sparse = false;
  typename OwnerSegments<T>::Pair* pairs = nullptr;
  uint32_t* pair_count = nullptr;
  uint64_t pair_capacity = 0;
};

// A normal vertex's edges: nn to a normal destination here or elsewhere, nd
// to a delegate.
template <typename Rule>
struct PushNn {
  Round<Rule> r;
  __device__ bool active(uint32_t u) const { return r.active[u]; }
  __device__ void operator()(uint32_t u, uint64_t v, eid_t e) const {
    const RankOf at = rank_of(r.g, v);
    const auto x = Rule::along(r.value[u], r.g.nn.weights, e);
    if (at.owner == static_cast<uint32_t>(r.g.rank)) {
      Rule::lower(&r.next[r.g.local_of_slot[at.slot]], x);
    } else if (r.sparse) {
      // No more than pair_capacity: the round's edges, summed over the
      // ranks, bound every queue (run() chose the sparse form so).
      const uint32_t i = atomicAdd(&r.pair_count[at.owner], 1u);
      r.pairs[at.owner * r.pair_capacity + i] = {static_cast<uint32_t>(at.slot), x};
    } else {
      Rule::lower(&r.remote[at.owner * r.segment_slots + at.slot], x);
    }
  }
};
template <typename Rule>
struct PushNd {
  Round<Rule> r;
  __device__ bool active(uint32_t u) const { return r.active[u]; }
  __device__ void operator()(uint32_t u, uint32_t k, eid_t e) const {
    Rule::lower(&r.delegate_candidate[k], Rule::along(r.value[u], r.g.nd.weights, e));
  }
};
// A delegate's edges stored here: dn to a local normal, dd to a delegate.
template <typename Rule>
struct PushDn {
  Round<Rule> r;
  __device__ bool active(uint32_t k) const { return r.delegate_active[k]; }
  __device__ void operator()(uint32_t k, uint32_t l, eid_t e) const {
    Rule::lower(&r.next[l], Rule::along(r.delegate_value[k], r.g.dn.weights, e));
  }
};
template <typename Rule>
struct PushDd {
  Round<Rule> r;
  __device__ bool active(uint32_t k) const { return r.delegate_active[k]; }
  __device__ void operator()(uint32_t k, uint32_t j, eid_t e) const {
    Rule::lower(&r.delegate_candidate[j], Rule::along(r.delegate_value[k], r.g.dd.weights, e));
  }
};

template <typename T>
__global__ void fill(T* values, uint64_t count, T x) {
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < count; i += uint64_t{gridDim.x} * blockDim.x)
    values[i] = x;
}

// The pairs other ranks sent here, lowered into this rank's next values.
template <typename Rule>
__global__ void apply_pairs(RankView g, const typename OwnerSegments<typename Rule::value_t>::Pair* pairs, uint64_t count,
                            typename Rule::value_t* next) {
  for (uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; i < count; i += uint64_t{gridDim.x} * blockDim.x)
    Rule::lower(&next[g.local_of_slot[pairs[i].slot]], pairs[i].value);
}

// The rows that push next round, queued as they become active; past its
// capacity a queue only counts them (and the round pushes by chunks of every
// row instead).
struct ActiveQueue {
  uint32_t* rows;
  uint32_t capacity;
  uint32_t* count;
  __device__ void add(uint32_t u) const {
    const uint32_t i = queue_slot(cooperative_groups::coalesced_threads(), count);
    if (i < capacity) rows[i] = u;
  }
};

// A seeded component (depth >= 0 in the seeding BFS, where there is one)
// starts at its label and never pushes: no edge leaves it.
struct Seed {
  const int32_t* normal_depth = nullptr;  // null: no seeding
  const int32_t* delegate_depth = nullptr;
  uint64_t label = 0;
};

// Start values by global id (this rank's normal vertices are slot * P +
// rank); a vertex starts active where its value is not none. *edges gains
// the edges the active rows will push in the first round.
template <typename Rule>
__global__ void start_normals(RankView g, uint64_t slots, uint64_t source, Seed seed, typename Rule::value_t* value,
                              uint8_t* active, ActiveQueue queue, unsigned long long* edges) {
  unsigned long long pushed = 0;
  for (uint64_t s = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; s < slots; s += uint64_t{gridDim.x} * blockDim.x) {
    const uint32_t l = g.local_of_slot[s];
    if (l == kNoLocalId) continue;
    if (seed.normal_depth != nullptr && seed.normal_depth[l] >= 0) {
      value[l] = static_cast<typename Rule::value_t>(seed.label);
      active[l] = 0;
      continue;
    }
    value[l] = Rule::start(s * g.num_ranks + g.rank, source);
    active[l] = value[l] < Rule::none();
    if (active[l]) {
      pushed += normal_edges_here(g, l);
      queue.add(l);
    }
  }
  block_add(pushed, edges);
}

template <typename Rule>
__global__ void start_delegates(RankView g, const uint64_t* global, uint64_t source, Seed seed,
                                typename Rule::value_t* value, uint8_t* active, ActiveQueue queue,
                                unsigned long long* edges) {
  unsigned long long pushed = 0;
  for (uint64_t k = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; k < g.num_delegates; k += uint64_t{gridDim.x} * blockDim.x) {
    if (seed.delegate_depth != nullptr && seed.delegate_depth[k] >= 0) {
      value[k] = static_cast<typename Rule::value_t>(seed.label);
      active[k] = 0;
      continue;
    }
    value[k] = Rule::start(global[k], source);
    active[k] = value[k] < Rule::none();
    if (active[k]) {
      pushed += delegate_edges_here(g, k);
      queue.add(static_cast<uint32_t>(k));
    }
  }
  block_add(pushed, edges);
}

// The smallest global id the seeding BFS reached here, into *least (which
// starts at the largest value).
__global__ void least_reached(RankView g, uint64_t slots, const uint64_t* delegate_global, Seed seed,
                              unsigned long long* least, unsigned long long* edges) {
  unsigned long long mine = ~0ull, stored = 0;
  for (uint64_t s = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; s < slots; s += uint64_t{gridDim.x} * blockDim.x) {
    const uint32_t l = g.local_of_slot[s];
    if (l == kNoLocalId || seed.normal_depth[l] < 0) continue;
    mine = min(mine, static_cast<unsigned long long>(s * g.num_ranks + g.rank));
    stored += normal_edges_here(g, l);
  }
  for (uint64_t k = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; k < g.num_delegates; k += uint64_t{gridDim.x} * blockDim.x)
    if (seed.delegate_depth[k] >= 0) {
      mine = min(mine, static_cast<unsigned long long>(delegate_global[k]));
      stored += delegate_edges_here(g, k);
    }
  if (mine != ~0ull) atomicMin(least, mine);
  block_add(stored, edges);
}

// The round's end on this rank: each normal vertex takes the smaller of what
// reached it here and what its segment brought, each delegate the reduced
// candidate; those whose value fell push next round. counters: [0] values
// fallen, summed over ranks next (the delegates' on rank 0 only: every rank
// settles them alike), [1] edges they will push from here, [2] delegates
// whose value fell (the same on every rank).
template <typename Rule>
__global__ void settle_normals(RankView g, uint64_t slots, typename Rule::value_t* value,
                               const typename Rule::value_t* next, const typename Rule::value_t* received,
                               uint8_t* active, ActiveQueue queue, unsigned long long* counters) {
  unsigned long long fell = 0, edges = 0;
  for (uint64_t s = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; s < slots; s += uint64_t{gridDim.x} * blockDim.x) {
    const uint32_t l = g.local_of_slot[s];
    if (l == kNoLocalId) continue;
    auto x = next[l];
    if (received != nullptr && received[s] < x) x = received[s];
    const bool lower = x < value[l];
    active[l] = lower;
    if (lower) {
      value[l] = x;
      ++fell;
      edges += normal_edges_here(g, l);
      queue.add(l);
    }
  }
  block_add(fell, &counters[0]);
  block_add(edges, &counters[1]);
}

template <typename Rule>
__global__ void settle_delegates(RankView g, typename Rule::value_t* value, const typename Rule::value_t* candidate,
                                 uint8_t* active, ActiveQueue queue, unsigned long long* counters) {
  unsigned long long fell = 0, edges = 0;
  for (uint64_t k = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x; k < g.num_delegates; k += uint64_t{gridDim.x} * blockDim.x) {
    const bool lower = candidate[k] < value[k];
    active[k] = lower;
    if (lower) {
      value[k] = candidate[k];
      ++fell;
      edges += delegate_edges_here(g, k);
      queue.add(static_cast<uint32_t>(k));
    }
  }
  block_add(g.rank == 0 ? fell : 0ull, &counters[0]);
  block_add(edges, &counters[1]);
  block_add(fell, &counters[2]);
}

uint64_t my_slots(const RankGraph& g) { return DegreeSeparation::slots_on_rank(g.num_vertices, g.num_ranks, g.rank); }

// The delegate with the most edges stored on this rank (rank 0's choice is
// broadcast: kron's hubs are every rank's hubs). Serial: once a placement.
uint32_t local_hub(const RankGraph& g) {
  uint32_t best = 0;
  eid_t most = 0;
  for (uint32_t k = 0; k < g.num_delegates(); ++k) {
    const eid_t edges = delegate_edges_here(g, k);
    if (edges > most) {
      most = edges;
      best = k;
    }
  }
  return best;
}

template <typename Rule>
const RankGraph& checked(const RankGraph& g, PartMemory where) {
  if (std::is_same_v<typename Rule::value_t, uint32_t> && g.num_vertices >= std::numeric_limits<uint32_t>::max())
    throw Error(std::string(Rule::kName) + " on several GPUs labels vertices with 32-bit ids: " +
                std::to_string(g.num_vertices) + " vertices are too many");
  check_fits(Rule::kName, g, where);
  return g;
}

template <typename T>
void fill_async(T* values, uint64_t count, T x, int sms, cudaStream_t s) {
  if (count == 0) return;
  fill<<<tg::gpu::grid_for(count, kBlock, sms), kBlock, 0, s>>>(values, count, x);
  TG_CUDA_CHECK_LAUNCH();
}

}  // namespace

template <typename Rule>
RankRelax<Rule>::RankRelax(const RankGraph& graph, ncclComm_t comm, PartMemory where)
    : host_(checked<Rule>(graph, where)),
      comm_(comm),
      stream_(6),
      graph_(std::make_shared<const DeviceRankGraph>(graph, Rule::kWeighted, where)),
      remote_(graph) {
  if constexpr (!Rule::kFromSource && !Rule::kWeighted)
    if (graph.num_delegates() > 0) seed_ = std::make_unique<RankBfs>(graph, comm, true, graph_);
  const uint64_t n = graph.num_normals(), d = graph.num_delegates();
  value_ = DeviceArray<value_t>::allocate(n);
  next_value_ = DeviceArray<value_t>::allocate(n);
  active_ = DeviceArray<uint8_t>::allocate(n);
  delegate_value_ = DeviceArray<value_t>::allocate(d);
  delegate_candidate_ = DeviceArray<value_t>::allocate(d);
  delegate_active_ = DeviceArray<uint8_t>::allocate(d);
  delegate_global_ = DeviceArray<uint64_t>::allocate(d);
  counters_ = DeviceArray<unsigned long long>::allocate(3);
  normal_queue_ = DeviceArray<uint32_t>::allocate(active_queue_capacity(n));
  delegate_queue_ = DeviceArray<uint32_t>::allocate(active_queue_capacity(d));
  queue_scan_ = DeviceArray<eid_t>::allocate(std::max(normal_queue_.size(), delegate_queue_.size()));
  queued_ = DeviceArray<uint32_t>::allocate(2);
  if (d > 0) TG_CUDA(cudaMemcpy(delegate_global_.data(), graph.delegate_global.data(), d * 8, cudaMemcpyHostToDevice));
  TG_CUDA(cudaMallocHost(&pinned_, 4 * sizeof(unsigned long long)));
  TG_CUDA(cudaMallocHost(&pinned_queued_, 2 * sizeof(uint32_t)));
}

template <typename Rule>
RankRelax<Rule>::~RankRelax() {
  cudaFreeHost(pinned_);
  cudaFreeHost(pinned_queued_);
}

template <typename Rule>
void RankRelax<Rule>::warm_up() {
  if (seed_) {
    seed_->warm_up();
    choose_hub();
  }
  if (host_.num_ranks == 1) return;
  fill_async(remote_.send(), remote_.segment_slots() * host_.num_ranks, Rule::none(), stream_.sms(), stream_.stream());
  remote_.reduce(ncclMin, comm_, stream_.stream());
  remote_.warm_up_pairs(comm_, stream_.stream());
  TG_NCCL(ncclAllReduce(counters_.data(), counters_.data(), 3, ncclUint64, ncclSum, comm_, stream_.stream()));
  stream_.sync();
}

// The hub: rank 0's delegate with the most edges stored there, broadcast.
// Once, at the warm-up: the scan of every delegate's offsets on the host
// (23 M at kron:28) is no part of a run.
template <typename Rule>
void RankRelax<Rule>::choose_hub() {
  const cudaStream_t s = stream_.stream();
  pinned_[0] = host_.rank == 0 ? local_hub(host_) : 0;
  TG_CUDA(cudaMemcpyAsync(counters_.data(), pinned_, sizeof(unsigned long long), cudaMemcpyHostToDevice, s));
  if (host_.num_ranks > 1) TG_NCCL(ncclBroadcast(counters_.data(), counters_.data(), 1, ncclUint64, 0, comm_, s));
  TG_CUDA(cudaMemcpyAsync(pinned_, counters_.data(), sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
  stream_.sync();
  hub_ = static_cast<uint32_t>(pinned_[0]);
}

// The seeding BFS from the hub, then the least global id it reached, over
// every rank: the label of the hub's component. Its levels go into the
// record first.
template <typename Rule>
uint64_t RankRelax<Rule>::seed_component(const RunRequest& request, RankRunRecord& record) {
  const cudaStream_t s = stream_.stream();
  const RankGraph& g = host_;
  // The BFS issues its collectives on its own stream: this stream's (the
  // barrier) finish first, so that every rank's operations on the one
  // communicator run in the order issued.
  stream_.sync();
  if (hub_ == kNoLocalId) choose_hub();  // a run without the warm-up
  RunRequest from_hub = request;
  from_hub.sources = {g.delegate_global[hub_]};
  const RankRunRecord bfs = seed_->run(from_hub);
  record.levels.insert(record.levels.end(), bfs.levels.begin(), bfs.levels.end());
  Seed seed{seed_->normal_depth(), seed_->delegate_depth(), 0};
  pinned_[0] = ~0ull;
  pinned_[1] = 0;
  TG_CUDA(cudaMemcpyAsync(counters_.data(), pinned_, 2 * sizeof(unsigned long long), cudaMemcpyHostToDevice, s));
  const uint64_t slots = my_slots(g);
  least_reached<<<tg::gpu::grid_for(std::max<uint64_t>(slots, g.num_delegates()), kBlock, stream_.sms()), kBlock, 0, s>>>(
      graph_->view(), slots, delegate_global_.data(), seed, counters_.data(), counters_.data() + 1);
  TG_CUDA_CHECK_LAUNCH();
  if (g.num_ranks > 1) TG_NCCL(ncclAllReduce(counters_.data(), counters_.data(), 1, ncclUint64, ncclMin, comm_, s));
  TG_CUDA(cudaMemcpyAsync(pinned_, counters_.data(), 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
  stream_.sync();
  record.edges += pinned_[1];  // the seeding BFS's edges stored on this rank (summed over ranks by the caller)
  return pinned_[0];
}

template <typename Rule>
RankRunRecord RankRelax<Rule>::run(const RunRequest& request) {
  const RankGraph& g = host_;
  const uint64_t n = g.num_normals(), d = g.num_delegates(), slots = my_slots(g), p = g.num_ranks;
  const uint64_t source = request.source();
  if (Rule::kFromSource && source >= g.num_vertices)
    throw Error(std::string(Rule::kName) + " source " + std::to_string(source) + " is not a vertex");
  const cudaStream_t s = stream_.stream();
  const int sms = stream_.sms();
  const RankView view = graph_->view();
  const unsigned slot_grid = tg::gpu::grid_for(slots, kBlock, sms), delegate_grid = tg::gpu::grid_for(d, kBlock, sms);

  // Every rank starts together: a reduction of nothing is the barrier.
  if (p > 1) TG_NCCL(ncclAllReduce(counters_.data(), counters_.data(), 1, ncclUint64, ncclSum, comm_, s));
  stream_.mark(0);
  RankRunRecord record;
  Seed seed;
  if (seed_) {
    seed.label = seed_component(request, record);
    seed.normal_depth = seed_->normal_depth();
    seed.delegate_depth = seed_->delegate_depth();
  }
  const uint64_t normal_capacity = normal_queue_.size(), delegate_capacity = delegate_queue_.size();
  const ActiveQueue normal_queue{normal_queue_.data(), static_cast<uint32_t>(normal_capacity), queued_.data()};
  const ActiveQueue delegate_queue{delegate_queue_.data(), static_cast<uint32_t>(delegate_capacity), queued_.data() + 1};
  TG_CUDA(cudaMemsetAsync(counters_.data(), 0, 3 * sizeof(unsigned long long), s));
  TG_CUDA(cudaMemsetAsync(queued_.data(), 0, 2 * sizeof(uint32_t), s));
  start_normals<Rule><<<slot_grid, kBlock, 0, s>>>(view, slots, source, seed, value_.data(), active_.data(),
                                                   normal_queue, counters_.data() + 1);
  TG_CUDA_CHECK_LAUNCH();
  if (d > 0) {
    start_delegates<Rule><<<delegate_grid, kBlock, 0, s>>>(view, delegate_global_.data(), source, seed,
                                                           delegate_value_.data(), delegate_active_.data(),
                                                           delegate_queue, counters_.data() + 1);
    TG_CUDA_CHECK_LAUNCH();
  }
  // The edges the round will push, summed over the ranks: a round whose
  // pushes cannot overflow the pair queues sends pairs.
  uint64_t round_edges = ~uint64_t{0};
  if (p > 1) {
    TG_NCCL(ncclAllReduce(counters_.data() + 1, counters_.data() + 1, 1, ncclUint64, ncclSum, comm_, s));
    TG_CUDA(cudaMemcpyAsync(pinned_ + 3, counters_.data() + 1, sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
  }
  TG_CUDA(cudaMemcpyAsync(pinned_queued_, queued_.data(), 2 * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
  stream_.sync();
  if (p > 1) round_edges = pinned_[3];

  // The edges pushed: every edge in round 0 where every vertex starts active
  // (CC), then those of the rows whose value fell (a source's own first
  // edges are not counted). A seeded CC counts the seeding BFS's edges (the
  // lists of the vertices it reached) instead of round 0; its round 0 pushes
  // from the vertices outside the hub's component only, and is not counted.
  uint32_t delegates_active = 0;
  if (!Rule::kFromSource && !seed_) {
    record.edges = g.nn.num_edges() + g.nd.num_edges() + g.dn.num_edges() + g.dd.num_edges();
    delegates_active = static_cast<uint32_t>(d);
  }
  for (;;) {
    const bool sparse = p > 1 && round_edges <= remote_.pair_capacity();
    stream_.mark(1);
    if (n > 0) TG_CUDA(cudaMemcpyAsync(next_value_.data(), value_.data(), n * sizeof(value_t), cudaMemcpyDeviceToDevice, s));
    fill_async(delegate_candidate_.data(), d, Rule::none(), sms, s);
    if (sparse) remote_.clear_pairs(s);
    else if (remote_.active()) fill_async(remote_.send(), remote_.segment_slots() * p, Rule::none(), sms, s);
    Round<Rule> r{view, value_.data(), next_value_.data(), delegate_value_.data(), delegate_candidate_.data(),
                  active_.data(), delegate_active_.data(), remote_.send(), remote_.segment_slots()};
    r.sparse = sparse;
    r.pairs = remote_.pairs();
    r.pair_count = remote_.pair_count();
    r.pair_capacity = remote_.pair_capacity();
    // The rows that fell last round (normals over nn and nd, delegates over
    // dn and dd): from their queue where it holds them all, else by the
    // chunks of every row (op.active picks them).
    const auto push = [&](uint32_t queued, uint64_t capacity, const uint32_t* queue, auto a, auto b, uint32_t rows,
                          auto op_a, auto op_b) {
      if (queued <= capacity) {
        launch_push_queued(queue, queued, a, b, op_a, op_b, queue_scan_.data(), pool_, sms, s);
        return;
      }
      launch_push_rows(a, rows, op_a, sms, s);
      launch_push_rows(b, rows, op_b, sms, s);
    };
    push(pinned_queued_[0], normal_capacity, normal_queue_.data(), view.nn, view.nd, view.num_normals, PushNn<Rule>{r},
         PushNd<Rule>{r});
    push(pinned_queued_[1], delegate_capacity, delegate_queue_.data(), view.dn, view.dd, view.num_delegates,
         PushDn<Rule>{r}, PushDd<Rule>{r});
    stream_.mark(2);
    uint64_t bytes_sent = 0, received = 0;
    if (sparse) {
      received = remote_.exchange_pairs(comm_, s, &bytes_sent);
    } else {
      remote_.reduce(ncclMin, comm_, s);
      bytes_sent = remote_.bytes_sent();
    }
    if (p > 1 && d > 0)
      TG_NCCL(ncclAllReduce(delegate_candidate_.data(), delegate_candidate_.data(), d, nccl_type<value_t>(), ncclMin,
                            comm_, s));
    stream_.mark(3);
    if (received > 0) {
      apply_pairs<Rule><<<tg::gpu::grid_for(received, kBlock, sms), kBlock, 0, s>>>(view, remote_.received_pairs(),
                                                                                   received, next_value_.data());
      TG_CUDA_CHECK_LAUNCH();
    }
    TG_CUDA(cudaMemsetAsync(counters_.data(), 0, 3 * sizeof(unsigned long long), s));
    TG_CUDA(cudaMemsetAsync(queued_.data(), 0, 2 * sizeof(uint32_t), s));  // the queues were read above
    settle_normals<Rule><<<slot_grid, kBlock, 0, s>>>(view, slots, value_.data(), next_value_.data(),
                                                      remote_.active() && !sparse ? remote_.received() : nullptr,
                                                      active_.data(), normal_queue, counters_.data());
    TG_CUDA_CHECK_LAUNCH();
    if (d > 0) {
      settle_delegates<Rule><<<delegate_grid, kBlock, 0, s>>>(view, delegate_value_.data(), delegate_candidate_.data(),
                                                              delegate_active_.data(), delegate_queue, counters_.data());
      TG_CUDA_CHECK_LAUNCH();
    }
    TG_CUDA(cudaMemcpyAsync(pinned_ + 1, counters_.data() + 1, 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
    TG_CUDA(cudaMemcpyAsync(pinned_queued_, queued_.data(), 2 * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
    stream_.mark(4);
    // The values fallen and the edges the next round pushes, over the ranks
    // (this rank's own edges were read back above, for the record).
    if (p > 1) TG_NCCL(ncclAllReduce(counters_.data(), counters_.data(), 2, ncclUint64, ncclSum, comm_, s));
    TG_CUDA(cudaMemcpyAsync(pinned_, counters_.data(), sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
    TG_CUDA(cudaMemcpyAsync(pinned_ + 3, counters_.data() + 1, sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
    stream_.mark(5);
    stream_.sync();

    LevelRecord l;
    l.delegate_frontier = delegates_active;
    l.compute_s = stream_.seconds(1, 2) + stream_.seconds(3, 4);
    l.communication_s = stream_.seconds(2, 3) + stream_.seconds(4, 5);
    l.bytes_sent = p > 1 ? bytes_sent + d * sizeof(value_t) + 16 : 0;
    record.levels.push_back(l);
    if (pinned_[0] == 0) break;
    record.edges += pinned_[1];
    delegates_active = static_cast<uint32_t>(pinned_[2]);
    round_edges = pinned_[3];
  }
  stream_.mark(1);
  stream_.sync();
  record.seconds = stream_.seconds(0, 1);
  return record;
}

template <typename Rule>
RankResult RankRelax<Rule>::result() const {
  return part_to_host<typename Rule::result_t>(value_.data(), host_.num_normals(), delegate_value_.data(),
                                               host_.num_delegates());
}

template class RankRelax<CcRule>;
template class RankRelax<SsspRule>;

}  // namespace tg::dist::gpu
