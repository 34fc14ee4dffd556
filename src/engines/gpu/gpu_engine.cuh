// The GPU engine: runs any algorithm of src/algorithms/ (see engines/engine.h
// for the contract) with vertex data and frontiers in GPU memory and the edge
// array wherever the placement put it (device_graph.h). It owns frontiers,
// direction choice and accounting; the traversal kernels of each placement
// live in placement_*.cu behind push_step / pull_step / gather_step.
//
// Frontiers are a vertex queue (sparse), a bitmap (dense, what a pull step
// produces) or "every vertex". edge_map pushes from a queue and pulls into a
// bitmap, choosing as the CPU engine does (Ligra's rule: pull when the
// frontier's vertices plus out-edges exceed |E|/20) when the caller leaves the
// direction open and in-edges exist: Beamer's direction-optimizing BFS.
// A push step's output is a set: a per-vertex bit is set with atomicOr and
// only the thread that set it appends the vertex. Large outputs skip the
// queue and are read back from the bitmap in vertex order (sorted frontiers
// keep zero-copy reads in address order, see docs/GPU.md).
#pragma once

#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <vector>

#include "algorithms/algorithm.h"
#include "core/error.h"
#include "engines/engine.h"
#include "engines/gpu/device_graph.h"
#include "engines/gpu/edge_step.h"
#include "engines/gpu/subgraph/partition_streamer.cuh"
#include "engines/gpu/subgraph/subcsr_builder.cuh"
#include "engines/gpu/subgraph/transfer_choice.h"

namespace tg::gpu {

namespace engine_kernels {

template <typename T>
__global__ void fill(T* p, uint64_t n, T x) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    p[i] = x;
}

template <typename V, typename F>
__global__ void map_all(uint64_t n, F f) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    f(static_cast<V>(i));
}

template <typename V, typename F>
__global__ void map_list(const V* list, uint64_t n, F f) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    f(list[i]);
}

template <typename V>
__global__ void set_bits(const V* list, uint64_t n, uint32_t* bits) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    V v = list[i];
    atomicOr(&bits[v >> 5], 1u << (v & 31));
  }
}

// Zeroes the words holding the listed vertices (every set bit belongs to one).
template <typename V>
__global__ void clear_bits(const V* list, uint64_t n, uint32_t* bits) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    bits[list[i] >> 5] = 0;
}

// Appends the listed vertices whose bit was not yet set (test-and-set).
template <typename V>
__global__ void append_new(const V* list, uint64_t n, uint32_t* bits, V* out, unsigned long long* count) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    V v = list[i];
    uint32_t m = 1u << (v & 31);
    if (!(atomicOr(&bits[v >> 5], m) & m)) out[atomicAdd(count, 1ull)] = v;
  }
}

// Test-and-set of the listed vertices in `bits`; counts (and, with `out`,
// appends) those not yet set. Merges an async unit's output into the step's.
template <typename V>
__global__ void merge_new(const V* list, uint64_t n, uint32_t* bits, V* out, unsigned long long* count) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    V v = list[i];
    uint32_t m = 1u << (v & 31);
    if (!(atomicOr(&bits[v >> 5], m) & m)) {
      unsigned long long at = atomicAdd(count, 1ull);
      if (out != nullptr) out[at] = v;
    }
  }
}

// The listed vertices whose lists lie in the loaded unit (async inner frontier).
template <typename V>
__global__ void select_members(const V* list, uint64_t n, subgraph::UnitMembers members, V* out,
                               unsigned long long* count) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    V v = list[i];
    if (members(v)) out[atomicAdd(count, 1ull)] = v;
  }
}

// Applies every vertex's gathered total (streamed in-edge partitions leave
// partial sums; see GatherArgs::partial) and sums apply's results.
template <typename V, typename Op>
__global__ void apply_partials(uint64_t n, Op op, const typename Op::acc_t* partial, double* residual) {
  double r = 0;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    r += op.apply(static_cast<V>(i), partial[i]);
  for (int o = 16; o > 0; o >>= 1) r += __shfl_xor_sync(0xffffffffu, r, o);
  if ((threadIdx.x & 31) == 0 && r != 0) atomicAdd(residual, r);
}

// An operator's begin(u) (engines/engine.h) as a vertex_map functor.
template <typename V, typename Op>
struct BeginOf {
  Op op;
  __device__ void operator()(V v) const { op.begin(v); }
};

template <typename V>
struct InBits {
  const uint32_t* bits;
  __host__ __device__ bool operator()(V v) const { return (bits[v >> 5] >> (v & 31)) & 1u; }
};

// pred(v) for members of a bitmap (or of every vertex when bits is null).
template <typename V, typename Pred>
struct MemberAnd {
  const uint32_t* bits;
  Pred pred;
  __host__ __device__ bool operator()(V v) const {
    if (bits != nullptr && !((bits[v >> 5] >> (v & 31)) & 1u)) return false;
    return pred(v);
  }
};

template <typename V, typename F>
struct AsDouble {
  F f;
  __host__ __device__ double operator()(V v) const { return static_cast<double>(f(v)); }
};

template <typename V>
struct OutDegree {
  const eid_t* offsets;
  const uint32_t* bits;  // null: every vertex counts
  __host__ __device__ unsigned long long operator()(V v) const {
    if (bits != nullptr && !((bits[v >> 5] >> (v & 31)) & 1u)) return 0;
    return offsets[v + 1] - offsets[v];
  }
};

struct Always {
  template <typename V>
  __host__ __device__ bool operator()(V) const { return true; }
};

struct Sum {
  template <typename T>
  __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
struct Min {
  __host__ __device__ double operator()(double a, double b) const { return b < a ? b : a; }
};

}  // namespace engine_kernels

template <typename V>
class GpuEngine {
 public:
  using vertex_t = V;
  template <typename T>
  using array_t = DeviceArray<T>;

  class Frontier {
   public:
    enum class Kind { kSparse, kDense, kAll };
    Kind kind = Kind::kSparse;
    uint64_t count = 0;
    std::shared_ptr<void> queue;  // kSparse: V[count]
    std::shared_ptr<void> bits;   // kDense: one bit per vertex, padding bits zero
    const V* list() const { return static_cast<const V*>(queue.get()); }
    const uint32_t* words() const { return static_cast<const uint32_t*>(bits.get()); }
  };

  explicit GpuEngine(const DeviceGraph<V>& graph) : g_(graph), n_(graph.n), words_((graph.n + 31) / 32) {
    counters_ = DeviceArray<StepCounters>::allocate(1);
    scalar_ = DeviceArray<unsigned long long>::allocate(1);
    residual_ = DeviceArray<double>::allocate(1);
    dedupe_ = DeviceArray<uint32_t>::allocate(words_);
    big_ = DeviceArray<V>::allocate(n_);
    if (words_ > 0) TG_CUDA(cudaMemset(dedupe_.data(), 0, words_ * sizeof(uint32_t)));
    stats_.details["link_requests"] = 0;
    TG_CUDA(cudaEventCreate(&results_ready_));
    const char* trace = std::getenv("TG_GPU_TRACE");
    trace_ = trace != nullptr && trace[0] == '1';
  }

  ~GpuEngine() {
    if (results_ready_ != nullptr) cudaEventDestroy(results_ready_);
  }
  GpuEngine(const GpuEngine&) = delete;
  GpuEngine& operator=(const GpuEngine&) = delete;

  uint64_t num_vertices() const { return n_; }
  RunStats& stats() { return stats_; }

  // Placements subgraph / stream (docs/SUBWAY.md): before the run, for the
  // algorithm about to run (its weights decide the buffer entry). Throws a
  // one-line tg::Error for what these placements cannot run.
  void prepare_subway(Algorithm algorithm) {
    if (!g_.subway.enabled) return;
    const char* where = g_.subway.stream ? "stream" : "subgraph";
    sw_ = std::make_unique<Subway>();
    Subway& s = *sw_;
    s.weights = needs_weights(algorithm) && g_.out.host_weights != nullptr;
    const subgraph::EdgeEntry entry{static_cast<uint32_t>(sizeof(V)), s.weights};
    if (g_.out.host_offsets == nullptr && n_ > 0) throw Error(std::string("placement ") + where + ": no host offsets");
    const bool gather = algorithm == Algorithm::kPageRank && !g_.subway.async;
    if (!gather && g_.m > 0 && g_.out.host_neighbors == nullptr)
      throw Error(std::string("placement ") + where + ": the graph's out-edges were not prepared for " +
                  algorithm_name(algorithm));
    // Buffers no larger than the graph needs, whatever the budget.
    auto round64 = [](uint64_t x) { return (x + 63) / 64 * 64 + 64; };
    const uint64_t m = g_.m;
    const bool pt = g_.subway.stream && g_.subway.pt;
    const uint64_t stream_cap = pt ? round64(m) * entry.bytes()
                                   : subgraph::kDefaultStreamSlots * round64((m + 5) / 6) * entry.bytes();
    auto make_streamer = [&](const subgraph::StreamSource<V>& source) {
      return std::make_unique<subgraph::PartitionStreamer<V>>(
          source, subgraph::stream_config(s.budget, entry, pt ? subgraph::StreamMode::kPt : subgraph::StreamMode::kPtOpt,
                                          "--gpu-mem"));
    };
    if (gather) {
      // The gather (pull) form reads every in-list every iteration: both
      // placements stream the in-edges, PT or PT-Opt (subgraph: PT-Opt, since
      // a SubCSR of every vertex is the whole CSR).
      if (!g_.in.placed || (g_.in.host_offsets == nullptr && n_ > 0))
        throw Error(std::string("placement ") + where + ": pagerank needs the graph's in-edges, which were not prepared");
      s.budget = std::min(g_.subway.budget, stream_cap);
      s.gather_streamer =
          make_streamer(subgraph::StreamSource<V>{n_, g_.in.view.offsets, g_.in.host_offsets, g_.in.host_neighbors, nullptr});
    } else {
      s.budget = std::min(g_.subway.budget, g_.subway.stream ? stream_cap : 2 * round64(m) * entry.bytes());
      subgraph::StreamSource<V> ss{n_, g_.out.view.offsets, g_.out.host_offsets, g_.out.host_neighbors,
                                   s.weights ? g_.out.host_weights : nullptr};
      if (g_.subway.stream) {
        s.streamer = make_streamer(ss);
      } else {
        subgraph::SubcsrSource<V> src;
        src.n = n_;
        src.offsets_device = g_.out.view.offsets;
        src.offsets_host = g_.out.host_offsets;
        src.neighbors_host = g_.out.host_neighbors;
        src.weights_host = s.weights ? g_.out.host_weights : nullptr;
        src.neighbors_mapped = g_.out.view.neighbors;
        src.weights_mapped = s.weights ? g_.out.view.weights : nullptr;
        subgraph::SubcsrConfig sc;
        sc.budget_bytes = s.budget;
        sc.slots = 2;
        sc.weights = s.weights;
        s.builder = std::make_unique<subgraph::SubcsrBuilder<V>>(src, sc);
        // Pinned host arrays outside the timed run.
        if (g_.subway.gather != "gpu") s.builder->prepare_cpu_gather();
        else s.builder->prepare_piece_plan();
        // Iterations above the threshold stream through the builder's two slots
        // (PT-Opt skipping, no residents): one budget for both.
        subgraph::StreamConfig cfg;
        cfg.mode = subgraph::StreamMode::kPtOpt;
        cfg.entry = entry;
        cfg.staging_buffers = 2;
        cfg.partition_edges = s.builder->sizing().capacity_edges;
        cfg.resident_edges = 0;
        std::vector<typename subgraph::PartitionStreamer<V>::Borrowed> lent;
        for (uint32_t k = 0; k < 2; ++k) lent.push_back({s.builder->slot_neighbors(k), s.builder->slot_weights(k)});
        s.streamer = std::make_unique<subgraph::PartitionStreamer<V>>(ss, cfg, lent);
        s.params.stream_threshold = g_.subway.stream_threshold;
        s.params.gather = g_.subway.gather == "cpu"   ? subgraph::GatherPreference::kCpu
                          : g_.subway.gather == "gpu" ? subgraph::GatherPreference::kGpu
                                                      : subgraph::GatherPreference::kAuto;
      }
    }
    if (g_.subway.async) {
      s.inner_bits = DeviceArray<uint32_t>::allocate(words_);
      s.active_bits = DeviceArray<uint32_t>::allocate(words_);
      if (words_ > 0) {
        TG_CUDA(cudaMemset(s.inner_bits.data(), 0, words_ * sizeof(uint32_t)));
        TG_CUDA(cudaMemset(s.active_bits.data(), 0, words_ * sizeof(uint32_t)));
      }
      s.inner_queue = DeviceArray<V>::allocate(std::max<uint64_t>(n_, 1));
      s.next_queue = DeviceArray<V>::allocate(std::max<uint64_t>(n_, 1));
      s.counters = DeviceArray<StepCounters>::allocate(1);
    }
    const subgraph::StreamSchedule& schedule = (gather ? s.gather_streamer : s.streamer)->schedule();
    stats_.details["subgraph_budget_bytes"] = s.budget;
    stats_.details["subgraph_buffer_edges"] =
        s.builder ? s.builder->sizing().capacity_edges : schedule.config().partition_edges;
    stats_.details["stream_partitions"] = schedule.partitions().size();
    stats_.details["stream_resident_partitions"] = schedule.resident_count();
    if (g_.subway.stream || gather) stats_.details["stream_mode"] = pt ? "pt" : "pt-opt";
    stats_.details["async"] = g_.subway.async;
  }

  // After the run: the per-iteration records into the details.
  void finish_subway() {
    if (!sw_) return;
    stats_.details["subgraph"] = subgraph::summarize(sw_->records);
  }
  const eid_t* out_offsets() const { return g_.out.view.offsets; }

  // ---- vertex arrays ----
  template <typename T>
  DeviceArray<T> make_array(T init) {
    DeviceArray<T> a = DeviceArray<T>::allocate(n_);
    if (n_ > 0) {
      engine_kernels::fill<<<grid_for(n_, kBlock, g_.sms), kBlock>>>(a.data(), n_, init);
      TG_CUDA_LAUNCH(fill);
    }
    return a;
  }
  template <typename T>
  T get(const DeviceArray<T>& a, V v) const {
    T x;
    TG_CUDA(cudaMemcpy(&x, a.data() + v, sizeof(T), cudaMemcpyDeviceToHost));
    return x;
  }
  template <typename T>
  void set(DeviceArray<T>& a, V v, T x) {
    TG_CUDA(cudaMemcpy(a.data() + v, &x, sizeof(T), cudaMemcpyHostToDevice));
  }
  template <typename T>
  T* data(DeviceArray<T>& a) {
    return a.data();
  }
  // The compute phase ends when the first result is copied back: the copy
  // itself is reported as its own phase ("copy back").
  cudaEvent_t results_ready() const { return results_ready_; }
  bool results_recorded() const { return results_recorded_; }

  template <typename T>
  std::vector<T> to_host(const DeviceArray<T>& a) {
    if (!results_recorded_ && results_ready_ != nullptr) {
      TG_CUDA(cudaEventRecord(results_ready_));
      results_recorded_ = true;
    }
    std::vector<T> out(a.size());
    if (!out.empty()) TG_CUDA(cudaMemcpy(out.data(), a.data(), a.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return out;
  }

  // ---- frontiers ----
  Frontier single(V v) {
    Frontier f;
    f.queue = pool_.get_n<V>(1);
    TG_CUDA(cudaMemcpy(f.queue.get(), &v, sizeof(V), cudaMemcpyHostToDevice));
    f.count = 1;
    return f;
  }
  Frontier all() {
    Frontier f;
    f.kind = Frontier::Kind::kAll;
    f.count = n_;
    return f;
  }
  uint64_t size(const Frontier& f) const { return f.count; }

  template <typename F>
  void vertex_map(const Frontier& f, F fn) {
    if (f.count == 0) return;
    switch (f.kind) {
      case Frontier::Kind::kAll:
        engine_kernels::map_all<V><<<grid_for(n_, kBlock, g_.sms), kBlock>>>(n_, fn);
        break;
      case Frontier::Kind::kSparse:
        engine_kernels::map_list<V><<<grid_for(f.count, kBlock, g_.sms), kBlock>>>(f.list(), f.count, fn);
        break;
      case Frontier::Kind::kDense: {
        Frontier s = to_sparse(f);
        engine_kernels::map_list<V><<<grid_for(s.count, kBlock, g_.sms), kBlock>>>(s.list(), s.count, fn);
        break;
      }
    }
    TG_CUDA_LAUNCH(vertex_map);
  }

  template <typename Pred>
  Frontier filter(const Frontier& f, Pred pred) {
    if (f.count == 0) return Frontier{};
    if (f.kind == Frontier::Kind::kSparse) {
      return select_from(f.list(), f.count, engine_kernels::MemberAnd<V, Pred>{nullptr, pred}, f.count);
    }
    const uint32_t* bits = f.kind == Frontier::Kind::kDense ? f.words() : nullptr;
    return select_from(thrust::counting_iterator<V>(0), n_, engine_kernels::MemberAnd<V, Pred>{bits, pred}, f.count);
  }

  Frontier merge(const Frontier& a, const Frontier& b) {
    if (a.count == 0) return b;
    if (b.count == 0) return a;
    if (a.kind == Frontier::Kind::kAll || b.kind == Frontier::Kind::kAll) return all();
    Frontier sa = to_sparse(a), sb = to_sparse(b);
    Frontier out;
    out.queue = pool_.get_n<V>(sa.count + sb.count);
    V* list = static_cast<V*>(out.queue.get());
    TG_CUDA(cudaMemcpy(list, sa.list(), sa.count * sizeof(V), cudaMemcpyDeviceToDevice));
    engine_kernels::set_bits<<<grid_for(sa.count, kBlock, g_.sms), kBlock>>>(sa.list(), sa.count, dedupe_.data());
    TG_CUDA_LAUNCH(set_bits);
    unsigned long long count = sa.count;
    TG_CUDA(cudaMemcpy(scalar_.data(), &count, sizeof count, cudaMemcpyHostToDevice));
    engine_kernels::append_new<<<grid_for(sb.count, kBlock, g_.sms), kBlock>>>(sb.list(), sb.count, dedupe_.data(),
                                                                                list, scalar_.data());
    TG_CUDA_LAUNCH(append_new);
    TG_CUDA(cudaMemcpy(&count, scalar_.data(), sizeof count, cudaMemcpyDeviceToHost));
    out.count = count;
    clear_dedupe(list, count);
    return out;
  }

  template <typename F>
  double vertex_sum(F fn) {
    if (n_ == 0) return 0;
    double* out = static_cast<double*>(scratch_double());
    run_cub(pool_, [&](void* tmp, size_t& bytes) {
      return cub::DeviceReduce::TransformReduce(tmp, bytes, thrust::counting_iterator<V>(0), out, n_,
                                                engine_kernels::Sum{}, engine_kernels::AsDouble<V, F>{fn}, 0.0);
    });
    double x;
    TG_CUDA(cudaMemcpy(&x, out, sizeof x, cudaMemcpyDeviceToHost));
    return x;
  }

  template <typename F>
  double min_over(const Frontier& f, F fn) {
    if (f.count == 0) return std::numeric_limits<double>::infinity();
    Frontier s = to_sparse(f);
    double* out = static_cast<double*>(scratch_double());
    run_cub(pool_, [&](void* tmp, size_t& bytes) {
      return cub::DeviceReduce::TransformReduce(tmp, bytes, s.list(), out, s.count, engine_kernels::Min{},
                                                engine_kernels::AsDouble<V, F>{fn},
                                                std::numeric_limits<double>::infinity());
    });
    double x;
    TG_CUDA(cudaMemcpy(&x, out, sizeof x, cudaMemcpyDeviceToHost));
    return x;
  }

  // ---- edge traversal ----
  template <typename Op>
  Frontier edge_map(const Frontier& f, const Op& op, EdgeMapOptions options) {
    if (f.count == 0) return Frontier{};
    if (!trace_) return edge_map_(f, op, options);
    // TG_GPU_TRACE=1: one line per step on stderr, to show where the time goes.
    TG_CUDA(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    uint64_t edges0 = stats_.edges_traversed, pulls0 = stats_.pull_steps, bytes0 = stats_.bytes_moved;
    Frontier out = edge_map_(f, op, options);
    TG_CUDA(cudaDeviceSynchronize());
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "tg-gpu step %s in %-9llu -> out %-9llu edges %-11llu link %-11llu %.3f ms\n",
                 stats_.pull_steps > pulls0 ? "pull" : "push", (unsigned long long)f.count,
                 (unsigned long long)out.count, (unsigned long long)(stats_.edges_traversed - edges0),
                 (unsigned long long)(stats_.bytes_moved - bytes0), ms);
    return out;
  }

 private:
  template <typename Op>
  Frontier edge_map_(const Frontier& f, const Op& op, EdgeMapOptions options) {
    if constexpr (HasBegin<Op, V>) vertex_map(f, engine_kernels::BeginOf<V, Op>{op});
    const uint64_t frontier_edges = out_degree_sum(f);
    if (sw_) {
      // subgraph / stream: push only (the in-edges are not in device memory;
      // BFS runs top-down).
      if (options.direction == Direction::kPull)
        throw Error("GPU engine: placements subgraph and stream run push steps only, and a pull step was asked for");
      stats_.push_steps++;
      return subway_push_(f, op, options.output, frontier_edges);
    }
    bool pull = options.direction == Direction::kPull;
    if (pull && !g_.in.placed)
      throw Error("GPU engine: a pull step needs the graph's in-edges, which were not prepared");
    if (options.direction == Direction::kAuto && g_.in.placed)
      pull = f.count + frontier_edges > g_.m / 20;
    if (pull) {
      stats_.pull_steps++;
      return pull_step_(f, op);
    }
    stats_.push_steps++;
    return push_step_(f, op, options.output, frontier_edges);
  }

 public:
  template <typename G>
  double gather_apply(const G& op) {
    if (!g_.in.placed) throw Error("GPU engine: gather_apply needs the graph's in-edges, which were not prepared");
    if (sw_) return subway_gather_(op);
    auto t0 = std::chrono::steady_clock::now();
    GatherArgs<V> a;
    a.csr = g_.in.view;
    a.n = n_;
    a.counters = counters_.data();
    a.residual = residual_.data();
    a.big_queue = big_.data();
    a.uvm_pages = g_.in.uvm_pages;
    a.uvm_weight_page0 = g_.in.uvm_weight_page0;
    a.sms = g_.sms;
    a.pool = &pool_;
    reset_counters();
    TG_CUDA(cudaMemset(residual_.data(), 0, sizeof(double)));
    double residual = 0;
    StepCounters c;
    switch (g_.access) {
      case Access::kDevice: c = gather_step<Access::kDevice>(a, op, &residual); break;
      case Access::kUvm: c = gather_step<Access::kUvm>(a, op, &residual); break;
      case Access::kNaive: c = gather_step<Access::kNaive>(a, op, &residual); break;
      case Access::kMerged: c = gather_step<Access::kMerged>(a, op, &residual); break;
      case Access::kAligned: c = gather_step<Access::kAligned>(a, op, &residual); break;
    }
    account<G>(c);
    if (trace_)
      std::fprintf(stderr, "tg-gpu gather edges %-11llu link %-11llu %.3f ms\n", (unsigned long long)c.edges,
                   (unsigned long long)c.sectors * 32,
                   std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    return residual;
  }

 private:
  void reset_counters() { TG_CUDA(cudaMemset(counters_.data(), 0, sizeof(StepCounters))); }

  void* scratch_double() {
    if (!double_) double_ = pool_.get(sizeof(double));
    return double_.get();
  }

  template <typename Op>
  void account(const StepCounters& c) {
    stats_.edges_traversed += c.edges;
    const uint64_t entry = sizeof(V) + (Op::needs_weights ? sizeof(weight_t) : 0);
    stats_.bytes_needed += c.edges * entry;
    if (g_.access == Access::kNaive || g_.access == Access::kMerged || g_.access == Access::kAligned) {
      stats_.bytes_moved += c.sectors * 32;
      stats_.details["link_requests"] = stats_.details["link_requests"].template get<uint64_t>() + c.requests;
    } else if (g_.access == Access::kUvm) {
      stats_.bytes_moved += c.pages << kUvmPageShift;
    }
  }

  // Selects the items of [in, in + n) that satisfy pred into a new sparse
  // frontier of at most `capacity` vertices.
  template <typename It, typename Pred>
  Frontier select_from(It in, uint64_t n, Pred pred, uint64_t capacity) {
    Frontier out;
    out.queue = pool_.get_n<V>(capacity);
    V* list = static_cast<V*>(out.queue.get());
    unsigned long long* selected = scalar_.data();
    run_cub(pool_, [&](void* tmp, size_t& bytes) {
      return cub::DeviceSelect::If(tmp, bytes, in, list, selected, static_cast<int64_t>(n), pred);
    });
    unsigned long long count = 0;
    TG_CUDA(cudaMemcpy(&count, selected, sizeof count, cudaMemcpyDeviceToHost));
    out.count = count;
    return out;
  }

  Frontier to_sparse(const Frontier& f) {
    if (f.kind == Frontier::Kind::kSparse) return f;
    if (f.count == 0) return Frontier{};
    const uint32_t* bits = f.kind == Frontier::Kind::kDense ? f.words() : nullptr;
    return select_from(thrust::counting_iterator<V>(0), n_,
                       engine_kernels::MemberAnd<V, engine_kernels::Always>{bits, engine_kernels::Always{}}, f.count);
  }

  Frontier to_dense(const Frontier& f) {
    if (f.kind == Frontier::Kind::kDense) return f;
    Frontier d;
    d.kind = Frontier::Kind::kDense;
    d.count = f.count;
    d.bits = pool_.get_n<uint32_t>(words_);
    uint32_t* words = static_cast<uint32_t*>(d.bits.get());
    if (f.kind == Frontier::Kind::kAll) {
      TG_CUDA(cudaMemset(words, 0xff, words_ * sizeof(uint32_t)));
      if (n_ % 32 != 0) {
        uint32_t last = (1u << (n_ % 32)) - 1;
        TG_CUDA(cudaMemcpy(words + words_ - 1, &last, sizeof last, cudaMemcpyHostToDevice));
      }
    } else {
      TG_CUDA(cudaMemset(words, 0, words_ * sizeof(uint32_t)));
      if (f.count > 0) {
        engine_kernels::set_bits<<<grid_for(f.count, kBlock, g_.sms), kBlock>>>(f.list(), f.count, words);
        TG_CUDA_LAUNCH(set_bits);
      }
    }
    return d;
  }

  // Zeroes the dedupe bitmap again after a step that set the bits of `list`.
  void clear_dedupe(const V* list, uint64_t count) {
    if (count == 0) return;
    if (count > words_ / 8) {
      TG_CUDA(cudaMemset(dedupe_.data(), 0, words_ * sizeof(uint32_t)));
    } else {
      engine_kernels::clear_bits<<<grid_for(count, kBlock, g_.sms), kBlock>>>(list, count, dedupe_.data());
      TG_CUDA_LAUNCH(clear_bits);
    }
  }

  uint64_t out_degree_sum(const Frontier& f) {
    if (f.kind == Frontier::Kind::kAll) return g_.m;
    unsigned long long* out = scalar_.data();
    const eid_t* offsets = g_.out.view.offsets;
    if (f.kind == Frontier::Kind::kSparse) {
      run_cub(pool_, [&](void* tmp, size_t& bytes) {
        return cub::DeviceReduce::TransformReduce(tmp, bytes, f.list(), out, f.count, engine_kernels::Sum{},
                                                  engine_kernels::OutDegree<V>{offsets, nullptr}, 0ull);
      });
    } else {
      run_cub(pool_, [&](void* tmp, size_t& bytes) {
        return cub::DeviceReduce::TransformReduce(tmp, bytes, thrust::counting_iterator<V>(0), out, n_,
                                                  engine_kernels::Sum{},
                                                  engine_kernels::OutDegree<V>{offsets, f.words()}, 0ull);
      });
    }
    unsigned long long x = 0;
    TG_CUDA(cudaMemcpy(&x, out, sizeof x, cudaMemcpyDeviceToHost));
    return x;
  }

  template <typename Op>
  Frontier push_step_(const Frontier& f, const Op& op, bool want_output, uint64_t frontier_edges) {
    if (!g_.out.placed) throw Error("GPU engine: a push step needs the graph's out-edges, which were not prepared");
    Frontier src = f.kind == Frontier::Kind::kDense ? to_sparse(f) : f;
    // Small outputs are appended to a queue as they are found; large ones are
    // read back from the bitmap afterwards, in vertex order.
    const bool use_queue = frontier_edges <= n_ / 64;
    PushArgs<V> a;
    a.csr = g_.out.view;
    a.frontier = src.kind == Frontier::Kind::kAll ? nullptr : src.list();
    a.count = src.count;
    a.want_output = want_output;
    a.out_bits = dedupe_.data();
    // The output queue is a pooled buffer that the returned frontier keeps.
    std::shared_ptr<void> queue;
    if (use_queue && want_output) queue = pool_.get_n<V>(n_);
    a.out_queue = use_queue ? static_cast<V*>(queue.get()) : nullptr;
    a.big_queue = big_.data();
    a.counters = counters_.data();
    a.uvm_pages = g_.out.uvm_pages;
    a.uvm_weight_page0 = g_.out.uvm_weight_page0;
    a.sms = g_.sms;
    a.pool = &pool_;
    reset_counters();
    StepCounters c;
    switch (g_.access) {
      case Access::kDevice: c = push_step<Access::kDevice>(a, op); break;
      case Access::kUvm: c = push_step<Access::kUvm>(a, op); break;
      case Access::kNaive: c = push_step<Access::kNaive>(a, op); break;
      case Access::kMerged: c = push_step<Access::kMerged>(a, op); break;
      case Access::kAligned: c = push_step<Access::kAligned>(a, op); break;
    }
    account<Op>(c);
    Frontier out;
    if (!want_output || c.out_count == 0) return out;
    if (use_queue) {
      out.queue = std::move(queue);
      out.count = c.out_count;
      clear_dedupe(out.list(), out.count);
    } else {
      out = select_from(thrust::counting_iterator<V>(0), n_, engine_kernels::InBits<V>{dedupe_.data()}, c.out_count);
      TG_CUDA(cudaMemset(dedupe_.data(), 0, words_ * sizeof(uint32_t)));
    }
    return out;
  }

  // ---- placements subgraph / stream (docs/SUBWAY.md) ----
  struct Subway {
    std::unique_ptr<subgraph::SubcsrBuilder<V>> builder;     // subgraph
    std::unique_ptr<subgraph::PartitionStreamer<V>> streamer;  // stream, or subgraph's fallback
    std::unique_ptr<subgraph::PartitionStreamer<V>> gather_streamer;  // in-edges, for gather_apply
    std::shared_ptr<void> partial;  // gather: an acc_t per vertex
    bool weights = false;
    uint64_t budget = 0;
    subgraph::ChoiceParams params;
    subgraph::TransferMeters meters;
    std::vector<subgraph::IterationRecord> records;
    // --async: a unit's own output set, the next inner frontier, the build's active set
    DeviceArray<uint32_t> inner_bits, active_bits;
    DeviceArray<V> inner_queue, next_queue;
    DeviceArray<StepCounters> counters;
  };

  // One push step over the loaded units (SubCSR pieces or partitions): the
  // unchanged push kernel on device buffers, output the union over units.
  template <typename Op>
  Frontier subway_push_(const Frontier& f, const Op& op, bool want_output, uint64_t frontier_edges) {
    Subway& s = *sw_;
    Frontier src = f.kind == Frontier::Kind::kDense ? to_sparse(f) : f;
    const bool every = src.kind == Frontier::Kind::kAll;
    const bool use_queue = frontier_edges <= n_ / 64;
    const bool async = g_.subway.async && want_output;
    const auto t0 = std::chrono::steady_clock::now();
    PushArgs<V> a;
    a.want_output = want_output;
    a.out_bits = dedupe_.data();
    std::shared_ptr<void> queue;
    if (use_queue && want_output) queue = pool_.get_n<V>(n_);
    a.out_queue = use_queue ? static_cast<V*>(queue.get()) : nullptr;
    a.big_queue = big_.data();
    a.counters = counters_.data();
    a.sms = g_.sms;
    a.pool = &pool_;

    subgraph::IterationRecord rec;
    rec.iteration = s.records.size();
    rec.inner_iterations = 0;
    rec.shape.vertices = n_;
    rec.shape.total_edges = g_.m;
    rec.shape.active_vertices = src.count;
    rec.shape.active_edges = frontier_edges;
    rec.shape.id_bytes = sizeof(V);
    rec.shape.weights = s.weights;
    bool stream_it = true;
    if (s.builder) {
      rec.choice = subgraph::choose_transfer(rec.shape, s.meters.rates(subgraph::TransferRates{}), s.params);
      if (every) {
        rec.choice.transfer = subgraph::Transfer::kStream;
        rec.choice.reason = "every vertex is active";
      }
      stream_it = rec.choice.transfer == subgraph::Transfer::kStream;
    } else {
      rec.choice.transfer = subgraph::Transfer::kStream;
      rec.choice.active_edge_fraction = g_.m ? double(frontier_edges) / double(g_.m) : 0;
      rec.choice.reason = "placement stream";
    }

    uint64_t out_count = 0, edges = 0;
    // Runs the kernel on one loaded unit (and, --async, to local convergence).
    auto run_unit = [&](const CsrView<V>& csr, const V* frontier, uint64_t count, subgraph::UnitMembers members) {
      rec.units++;
      if (!async) {
        a.csr = csr;
        a.frontier = frontier;
        a.count = count;
        StepCounters carry{};
        carry.out_count = out_count;  // queue appends continue; big_count restarts
        TG_CUDA(cudaMemcpy(counters_.data(), &carry, sizeof carry, cudaMemcpyHostToDevice));
        StepCounters c = push_step<Access::kDevice>(a, op);
        edges += c.edges;
        out_count = c.out_count;
        rec.inner_iterations++;
        return;
      }
      // Subway algorithm 4: push within the unit until no member changes.
      // Each push writes the unit's own output set (inner_bits, queue qa);
      // it is merged into the step's output, and its members (qb) are the
      // next inner frontier.
      PushArgs<V> b = a;
      b.csr = csr;
      b.out_bits = s.inner_bits.data();
      b.counters = s.counters.data();
      V* qa = s.inner_queue.data();
      V* qb = s.next_queue.data();
      const V* in = frontier;
      uint64_t in_count = count;
      while (in_count > 0) {
        b.frontier = in;
        b.count = in_count;
        b.out_queue = qa;
        TG_CUDA(cudaMemset(s.counters.data(), 0, sizeof(StepCounters)));
        StepCounters c = push_step<Access::kDevice>(b, op);
        edges += c.edges;
        rec.inner_iterations++;
        const uint64_t produced = c.out_count;
        if (produced == 0) break;
        unsigned long long total = out_count;
        TG_CUDA(cudaMemcpy(scalar_.data(), &total, sizeof total, cudaMemcpyHostToDevice));
        engine_kernels::merge_new<<<grid_for(produced, kBlock, g_.sms), kBlock>>>(qa, produced, dedupe_.data(),
                                                                                  a.out_queue, scalar_.data());
        TG_CUDA_LAUNCH(merge_new);
        TG_CUDA(cudaMemcpy(&total, scalar_.data(), sizeof total, cudaMemcpyDeviceToHost));
        out_count = total;
        unsigned long long next = 0;
        TG_CUDA(cudaMemcpy(scalar_.data(), &next, sizeof next, cudaMemcpyHostToDevice));
        engine_kernels::select_members<<<grid_for(produced, kBlock, g_.sms), kBlock>>>(qa, produced, members, qb,
                                                                                       scalar_.data());
        TG_CUDA_LAUNCH(select_members);
        TG_CUDA(cudaMemcpy(&next, scalar_.data(), sizeof next, cudaMemcpyDeviceToHost));
        engine_kernels::clear_bits<<<grid_for(produced, kBlock, g_.sms), kBlock>>>(qa, produced,
                                                                                   s.inner_bits.data());
        TG_CUDA_LAUNCH(clear_bits);
        in = qb;  // the next push reads qb and writes qa
        in_count = next;
        if constexpr (HasBegin<Op, V>) {
          if (next > 0) {
            engine_kernels::map_list<V><<<grid_for(next, kBlock, g_.sms), kBlock>>>(
                qb, next, engine_kernels::BeginOf<V, Op>{op});
            TG_CUDA_LAUNCH(begin);
          }
        }
      }
    };

    if (stream_it) {
      const V* active = every ? nullptr : s.streamer->sorted(src.list(), src.count);
      const auto& parts = s.streamer->schedule().partitions();
      subgraph::StreamTraffic t = s.streamer->run(active, every ? 0 : src.count, [&](const subgraph::StreamUnit<V>& u) {
        const subgraph::EdgeRange& p = parts[u.partition];
        // A split hub list is pushed in parts, one unit each: re-running it
        // inside one part would push the rest of its list a different value.
        run_unit(u.csr, u.frontier, u.count,
                 p.split ? subgraph::UnitMembers{nullptr, 0, 0} : subgraph::UnitMembers{nullptr, p.first, p.last});
      });
      rec.bytes_copied = t.bytes_to_device;
      rec.copy_s = t.seconds;
      if (t.bytes_to_device > 0) s.meters.link.add(double(t.bytes_to_device), t.seconds);
      add_stream_details(t);
    } else {
      subgraph::SubcsrShape shape = s.builder->build_from_list(src.list(), src.count, false);
      rec.generate_s = shape.generate_s;
      // A graph without edges has no mapped edge array: the CPU way (which copies nothing).
      const subgraph::GatherWay way =
          rec.choice.transfer == subgraph::Transfer::kSubgraphGpuGather && g_.out.view.neighbors != nullptr
              ? subgraph::GatherWay::kGpu
              : subgraph::GatherWay::kCpu;
      if (way == subgraph::GatherWay::kCpu) rec.choice.transfer = subgraph::Transfer::kSubgraphCpuGather;
      if (async && shape.active_vertices > 0) {
        engine_kernels::set_bits<<<grid_for(shape.active_vertices, kBlock, g_.sms), kBlock>>>(
            s.builder->active(), shape.active_vertices, s.active_bits.data());
        TG_CUDA_LAUNCH(set_bits);
      }
      const auto& pieces = s.builder->pieces();
      uint64_t sub_bytes = 0;
      for (uint64_t k = 0; k < pieces.size(); ++k) {
        subgraph::LoadedPiece<V> p = s.builder->load(k, static_cast<uint32_t>(k % 2), way);
        const uint64_t moved = way == subgraph::GatherWay::kGpu ? p.link_bytes : p.bytes_to_device;
        rec.bytes_copied += moved;
        sub_bytes += p.bytes_to_device;
        rec.gather_s += p.gather_s;
        rec.copy_s += p.copy_s;
        stats_.details["subgraph_d2h_bytes"] = stats_.details.value("subgraph_d2h_bytes", uint64_t{0}) + p.bytes_to_host;
        if (way == subgraph::GatherWay::kGpu) s.meters.gpu_gather.add(double(p.bytes_to_device), p.gather_s);
        else s.meters.cpu_gather.add(double(p.bytes_to_device), p.gather_s);
        subgraph::UnitMembers members{s.active_bits.data(), 0, 0};
        if (async && p.count > 0 && !p.unit.split) {  // split lists: see the stream case
          V ends[2];
          TG_CUDA(cudaMemcpy(&ends[0], p.frontier, sizeof(V), cudaMemcpyDeviceToHost));
          TG_CUDA(cudaMemcpy(&ends[1], p.frontier + p.count - 1, sizeof(V), cudaMemcpyDeviceToHost));
          members.lo = ends[0];
          members.hi = static_cast<uint64_t>(ends[1]) + 1;
        }
        if (p.count > 0) run_unit(p.csr, p.frontier, p.count, members);
      }
      if (async && shape.active_vertices > 0) {
        engine_kernels::clear_bits<<<grid_for(shape.active_vertices, kBlock, g_.sms), kBlock>>>(
            s.builder->active(), shape.active_vertices, s.active_bits.data());
        TG_CUDA_LAUNCH(clear_bits);
      }
      stats_.details["subcsr_max_edges"] =
          std::max<uint64_t>(stats_.details.value("subcsr_max_edges", uint64_t{0}), shape.active_edges);
      stats_.details["subcsr_max_pieces"] = std::max<uint64_t>(stats_.details.value("subcsr_max_pieces", uint64_t{0}), shape.pieces);
      stats_.details["subcsr_bytes"] = stats_.details.value("subcsr_bytes", uint64_t{0}) + sub_bytes;
    }
    stats_.bytes_moved += rec.bytes_copied;
    stats_.edges_traversed += edges;
    stats_.bytes_needed += edges * (sizeof(V) + (Op::needs_weights ? sizeof(weight_t) : 0));
    rec.compute_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s.records.push_back(std::move(rec));

    Frontier out;
    if (!want_output || out_count == 0) return out;
    if (use_queue) {
      out.queue = std::move(queue);
      out.count = out_count;
      clear_dedupe(out.list(), out.count);
    } else {
      out = select_from(thrust::counting_iterator<V>(0), n_, engine_kernels::InBits<V>{dedupe_.data()}, out_count);
      TG_CUDA(cudaMemset(dedupe_.data(), 0, words_ * sizeof(uint32_t)));
    }
    return out;
  }

  // Partition-streaming counters, summed over a run's steps (push and gather).
  void add_stream_details(const subgraph::StreamTraffic& t) {
    auto add = [&](const char* key, uint64_t x) { stats_.details[key] = stats_.details.value(key, uint64_t{0}) + x; };
    add("stream_copies", t.copies);
    add("stream_skipped", t.skipped);
    add("stream_resident_hits", t.resident_hits);
  }

  // gather_apply on subgraph / stream: every in-edge partition streamed
  // through the device buffers (PT or PT-Opt), each vertex's sum kept as a
  // partial until all its parts are in, then one apply over every vertex.
  template <typename G>
  double subway_gather_(const G& op) {
    Subway& s = *sw_;
    if (!s.gather_streamer) throw Error("GPU engine: gather_apply on subgraph / stream was not prepared (prepare_subway)");
    using acc_t = typename G::acc_t;
    const auto t0 = std::chrono::steady_clock::now();
    if (!s.partial) s.partial = pool_.get_n<acc_t>(std::max<uint64_t>(n_, 1));
    acc_t* partial = static_cast<acc_t*>(s.partial.get());
    if (n_ > 0) {
      engine_kernels::fill<<<grid_for(n_, kBlock, g_.sms), kBlock>>>(partial, n_, op.zero());
      TG_CUDA_LAUNCH(fill);
    }
    subgraph::IterationRecord rec;
    rec.iteration = s.records.size();
    rec.shape.vertices = rec.shape.active_vertices = n_;
    rec.shape.total_edges = rec.shape.active_edges = g_.m;
    rec.shape.id_bytes = sizeof(V);
    rec.choice.transfer = subgraph::Transfer::kStream;
    rec.choice.active_edge_fraction = 1;
    rec.choice.reason = "gather: every in-list is read";
    const auto& parts = s.gather_streamer->schedule().partitions();
    uint64_t edges = 0;
    subgraph::StreamTraffic t = s.gather_streamer->run(nullptr, 0, [&](const subgraph::StreamUnit<V>& u) {
      const subgraph::EdgeRange& p = parts[u.partition];
      GatherArgs<V> a;
      a.csr = u.csr;
      a.first = u.unit.split ? u.unit.split_vertex : p.first;
      a.n = u.unit.split ? 1 : p.last - p.first;
      a.partial = partial;
      a.counters = counters_.data();
      a.residual = residual_.data();
      a.big_queue = big_.data();
      a.sms = g_.sms;
      a.pool = &pool_;
      reset_counters();
      double unused = 0;
      edges += gather_step<Access::kDevice>(a, op, &unused).edges;
      rec.units++;
    });
    TG_CUDA(cudaMemset(residual_.data(), 0, sizeof(double)));
    if (n_ > 0) {
      engine_kernels::apply_partials<V, G><<<grid_for(n_, kBlock, g_.sms), kBlock>>>(n_, op, partial, residual_.data());
      TG_CUDA_LAUNCH(apply_partials);
    }
    double residual = 0;
    TG_CUDA(cudaMemcpy(&residual, residual_.data(), sizeof residual, cudaMemcpyDeviceToHost));
    rec.inner_iterations = rec.units;  // one gather per loaded partition
    rec.bytes_copied = t.bytes_to_device;
    rec.copy_s = t.seconds;
    rec.compute_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    add_stream_details(t);
    stats_.bytes_moved += t.bytes_to_device;
    stats_.edges_traversed += edges;
    stats_.bytes_needed += edges * (sizeof(V) + (G::needs_weights ? sizeof(weight_t) : 0));
    s.records.push_back(std::move(rec));
    if (trace_)
      std::fprintf(stderr, "tg-gpu gather (streamed) edges %-11llu copied %-11llu %.3f ms\n", (unsigned long long)edges,
                   (unsigned long long)t.bytes_to_device,
                   std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    return residual;
  }

  template <typename Op>
  Frontier pull_step_(const Frontier& f, const Op& op) {
    Frontier in = to_dense(f);
    Frontier out;
    out.kind = Frontier::Kind::kDense;
    out.bits = pool_.get_n<uint32_t>(words_);
    PullArgs<V> a;
    a.csr = g_.in.view;
    a.n = n_;
    a.in_bits = in.words();
    a.out_bits = static_cast<uint32_t*>(out.bits.get());
    a.counters = counters_.data();
    a.uvm_pages = g_.in.uvm_pages;
    a.uvm_weight_page0 = g_.in.uvm_weight_page0;
    a.sms = g_.sms;
    reset_counters();
    StepCounters c;
    switch (g_.access) {
      case Access::kDevice: c = pull_step<Access::kDevice>(a, op); break;
      case Access::kUvm: c = pull_step<Access::kUvm>(a, op); break;
      case Access::kNaive: c = pull_step<Access::kNaive>(a, op); break;
      case Access::kMerged: c = pull_step<Access::kMerged>(a, op); break;
      case Access::kAligned: c = pull_step<Access::kAligned>(a, op); break;
    }
    account<Op>(c);
    out.count = c.out_count;
    if (out.count == 0) return Frontier{};
    return out;
  }

  DeviceGraph<V> g_;
  uint64_t n_;
  uint64_t words_;
  ScratchPool pool_;
  DeviceArray<StepCounters> counters_;
  DeviceArray<unsigned long long> scalar_;
  DeviceArray<double> residual_;
  DeviceArray<uint32_t> dedupe_;  // all zero between steps
  DeviceArray<V> big_;            // long lists deferred to the chunked pass
  std::shared_ptr<void> double_;
  RunStats stats_;
  bool trace_ = false;
  cudaEvent_t results_ready_ = nullptr;
  bool results_recorded_ = false;
  std::unique_ptr<Subway> sw_;  // placements subgraph / stream
};

}  // namespace tg::gpu
