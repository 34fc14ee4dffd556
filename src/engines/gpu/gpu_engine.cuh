// The GPU engine: runs any algorithm of src/algorithms/ (the contract is
// engines/engine.h) with vertex data and frontiers in GPU memory and the
// edges behind an edge source (sources/edge_source.h): resident where the
// placement put them, or streamed into device buffers step by step. The
// engine owns vertex arrays, frontiers (frontier.cuh), the direction policy
// (engines/direction.h), the output set of a step and the accounting; the
// source runs the step's kernels over its edges.
#pragma once

#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cub/device/device_reduce.cuh>
#include <limits>
#include <memory>
#include <span>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/env_count.h"
#include "core/env_switch.h"
#include "core/error.h"
#include "engines/direction.h"
#include "engines/engine.h"
#include "engines/gpu/frontier.cuh"
#include "engines/gpu/placed_graph.h"
#include "engines/gpu/sources/resident_source.cuh"
#include "engines/gpu/sources/streamed_source.cuh"
#include "engines/gpu/vertex_kernels.cuh"

namespace tg::gpu {

template <typename V>
class GpuEngine {
 public:
  using vertex_t = V;
  template <typename T>
  using array_t = DeviceArray<T>;
  using Frontier = GpuFrontier<V>;
  // Each step costs launches and copies: wide buckets (engines/engine.h).
  static constexpr bool kPrefersFewSteps = true;

  // The source follows the placement: streamed for subgraph and stream,
  // resident for the others; `reads` says which edges the run reads.
  GpuEngine(const DeviceGraph<V>& graph, const EdgeReads& reads)
      : g_(graph), n_(graph.n), frontiers_(graph.n, graph.sms), source_(make_source(graph, reads, frontiers_)) {
    TG_CUDA(cudaEventCreate(&results_ready_));
    trace_ = env_switch("TG_GPU_TRACE");
    // Pull from |E| / 40 on where the lists are in GPU memory and start with
    // their hubs: a bottom-up step then finds most parents in a list's first
    // entries. kron:25 hubs first on the H100, 64 roots: 2.43-2.44 ms against
    // 2.48-2.58 at Ligra's 20, the slowest roots 3.4-3.9 ms against 3.7-6.8
    // (they pushed 29 M edges from 3450 hubs); urand:25 at 40 took 10.6 ms
    // against 4.9, its pulls reading whole lists (docs/PERF.md, session 20).
    // TG_PULL_DIVISOR=D overrides it, for experiments.
    const bool in_gpu_memory =
        (graph.access == Access::kDevice || graph.access == Access::kUvm) && !graph.streamed.enabled;
    if (in_gpu_memory && graph.numbered_by_degree) pull_divisor_ = 40;
    pull_divisor_ = std::max<uint64_t>(1, env_count("TG_PULL_DIVISOR", pull_divisor_));
    // In GPU memory a pull must also read fewer probes than the push's edges
    // cost (engines/direction.h, pull_pays_in_memory); TG_PUSH_EDGE_COST=0
    // leaves Ligra's rule alone, for experiments.
    if (in_gpu_memory) push_edge_cost_ = kGpuPushEdgeCost;
    push_edge_cost_ = std::max(0.0, env_number("TG_PUSH_EDGE_COST", push_edge_cost_));
    // Over a link a pull is weighed by the degrees' classes (pull_link_bytes).
    in_degree_classes_ = g_.in_degrees.classes();
  }

  ~GpuEngine() {
    if (results_ready_ != nullptr) cudaEventDestroy(results_ready_);
  }
  GpuEngine(const GpuEngine&) = delete;
  GpuEngine& operator=(const GpuEngine&) = delete;

  uint64_t num_vertices() const { return n_; }
  uint64_t num_edges() const { return g_.m; }
  bool symmetric() const { return g_.symmetric; }
  RunStats& stats() { return stats_; }
  const eid_t* out_offsets() const { return g_.out.view.offsets; }
  // Resident placements read a weight band of ordered lists alone
  // (kernels/push.cuh's push_walk_band) but for EMOGI's naive worker, a
  // thread a list; streamed ones copy whole lists (engines/engine.h).
  bool walks_weight_bands() const {
    return std::holds_alternative<ResidentSource<V>>(source_) && g_.access != Access::kNaive;
  }
  // The subgraph placement copies each round's active lists, so a list
  // re-relaxed is a list moved again, and a round costs little more than its
  // bytes once the next piece's gather overlaps the push. kron:25, weights
  // 1..255, a quarter budget, packed lists, the H200 (docs/gpu-check/
  // 2026-12-02x): SSSP at widths 8 / 16 / 32 / 128 (the mean) took 259.7 /
  // 239.2 / 231.9 / 272.4 ms, 1.24-1.79 edges relaxed an edge at 32 against
  // 1.94-2.10 at 128; unpacked, 416.7 ms at 16 and 418.8 at 128. The stream
  // placement copies whole partitions a round, and keeps the mean.
  double bucket_width_scale() const { return g_.streamed.enabled && !g_.streamed.stream ? 0.25 : 1.0; }
  // The subgraph placement's light lists (DeviceGraph::light): a band from 0
  // to at most this weight copies them alone; 0 where none were placed.
  weight_t light_lists_below() const {
    return std::visit(
        [](const auto& s) -> weight_t {
          if constexpr (requires { s.light_lists_below(); }) return s.light_lists_below();
          else return 0;
        },
        source_);
  }
  bool can_pull() const {
    return std::visit([](const auto& s) { return s.can_pull(); }, source_);
  }
  // --host-mem: what the stream placement holds of it, its pinned page
  // buffers and host cache (0 elsewhere).
  uint64_t host_mem_bytes() const {
    return std::visit(
        [](const auto& s) -> uint64_t {
          if constexpr (requires { s.host_mem_bytes(); }) return s.host_mem_bytes();
          else return 0;
        },
        source_);
  }
  // After the run: the source's own statistics into stats().
  void finish() {
    std::visit([&](const auto& s) { s.report(stats_); }, source_);
  }

  // ---- vertex arrays ----
  template <typename T>
  DeviceArray<T> make_array(T init) {
    DeviceArray<T> a = DeviceArray<T>::allocate(n_);
    if (n_ > 0) {
      vertex_kernels::fill<<<grid_for(n_, kBlock, g_.sms), kBlock>>>(a.data(), n_, init);
      TG_CUDA_CHECK_LAUNCH();
    }
    return a;
  }
  template <typename T>
  T get(const DeviceArray<T>& a, V v) const {
    T x;
    TG_CUDA(cudaMemcpy(&x, a.data() + v, sizeof(T), cudaMemcpyDeviceToHost));
    return x;
  }
  // One wait for them all: CC's most_frequent_label took 64 gets, a wait of
  // about 10 us each.
  template <typename T>
  std::vector<T> get_many(const DeviceArray<T>& a, std::span<const V> at) {
    std::vector<T> out(at.size());
    if (at.empty()) return out;
    std::shared_ptr<void> ids = frontiers_.pool().template get_n<V>(at.size());
    std::shared_ptr<void> values = frontiers_.pool().template get_n<T>(at.size());
    TG_CUDA(cudaMemcpy(ids.get(), at.data(), at.size() * sizeof(V), cudaMemcpyHostToDevice));
    vertex_kernels::values_at<<<grid_for(at.size(), kBlock, g_.sms), kBlock>>>(
        a.data(), static_cast<const V*>(ids.get()), at.size(), static_cast<T*>(values.get()));
    TG_CUDA_CHECK_LAUNCH();
    TG_CUDA(cudaMemcpy(out.data(), values.get(), at.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return out;
  }
  template <typename T>
  void set(DeviceArray<T>& a, V v, T x) {
    TG_CUDA(cudaMemcpy(a.data() + v, &x, sizeof(T), cudaMemcpyHostToDevice));
  }
  template <typename T>
  T* data(DeviceArray<T>& a) {
    return a.data();
  }
  // A checkpoint's bytes of the arrays (engines/engine.h, CopiesArrays).
  void copy_to_host(void* host, const void* device, size_t bytes) {
    TG_CUDA(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost));
  }
  void copy_from_host(void* device, const void* host, size_t bytes) {
    TG_CUDA(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
  }
  // The compute phase ends when the first result is copied back: the copy
  // itself is reported as its own phase ("copy back").
  cudaEvent_t results_ready() const { return results_ready_; }
  bool results_recorded() const { return results_recorded_; }

  // The values as Out (the array's own type by default).
  template <typename Out = void, typename T>
  auto to_host(const DeviceArray<T>& a) {
    if (!results_recorded_ && results_ready_ != nullptr) {
      TG_CUDA(cudaEventRecord(results_ready_));
      results_recorded_ = true;
    }
    ResultVector<T> out(a.size());  // uninitialised: the copy writes every value
    if (!out.empty()) TG_CUDA(cudaMemcpy(out.data(), a.data(), a.size() * sizeof(T), cudaMemcpyDeviceToHost));
    if constexpr (std::is_void_v<Out> || std::is_same_v<Out, T>) {
      return out;
    } else {
      return ResultVector<Out>(out.begin(), out.end());
    }
  }

  // ---- frontiers ----
  Frontier single(V v) { return frontiers_.single(v); }
  Frontier all() { return frontiers_.all(); }
  uint64_t size(const Frontier& f) const { return f.count; }
  template <typename Pred>
  Frontier filter(const Frontier& f, Pred pred) {
    return frontiers_.filter(f, pred);
  }
  template <typename First, typename Second>
  std::pair<Frontier, Frontier> split(const Frontier& f, First first, Second second) {
    return frontiers_.split(f, first, second);
  }
  Frontier merge(const Frontier& a, const Frontier& b) { return frontiers_.merge(a, b); }

  template <typename F>
  void vertex_map(const Frontier& f, F fn) {
    if (f.count == 0) return;
    if (!trace_) return vertex_map_(f, fn);
    const double ms = synced_ms([&] { vertex_map_(f, fn); });
    std::fprintf(stderr, "tg-gpu vertex map of %-9llu %.3f ms\n", (unsigned long long)f.count, ms);
  }

  template <typename F>
  double vertex_sum(F fn) {
    if (n_ == 0) return 0;
    return reduce(thrust::counting_iterator<V>(0), n_, vertex_kernels::Sum{}, vertex_kernels::AsDouble<V, F>{fn}, 0.0);
  }

  template <typename F>
  double min_over(const Frontier& f, F fn) {
    if (f.count == 0) return std::numeric_limits<double>::infinity();
    Frontier s = frontiers_.to_sparse(f);
    return reduce(s.list(), s.count, vertex_kernels::Min{}, vertex_kernels::AsDouble<V, F>{fn},
                  std::numeric_limits<double>::infinity());
  }

  // ---- edge traversal ----
  template <typename Op>
    requires EdgeOperator<Op, V>
  Frontier edge_map(const Frontier& f, const Op& op, EdgeMapOptions options) {
    if (f.count == 0) return Frontier{};
    if (!trace_) return edge_map_(f, op, options);
    // TG_GPU_TRACE=1: one line per step on stderr, to show where the time goes.
    uint64_t edges0 = stats_.edges_traversed, pulls0 = stats_.pull_steps, bytes0 = stats_.bytes_moved;
    Frontier out;
    const double ms = synced_ms([&] { out = edge_map_(f, op, options); });
    std::fprintf(stderr, "tg-gpu step %s in %-9llu -> out %-9llu edges %-11llu link %-11llu %.3f ms\n",
                 stats_.pull_steps > pulls0 ? "pull" : "push", (unsigned long long)f.count,
                 (unsigned long long)out.count, (unsigned long long)(stats_.edges_traversed - edges0),
                 (unsigned long long)(stats_.bytes_moved - bytes0), ms);
    return out;
  }

  template <typename G>
    requires GatherOperator<G, V>
  double gather_apply(const G& op) {
    return gather_apply_range(op, 0, n_);
  }

  // gather_apply over vertices [begin, end) only (the hybrid engine's GPU
  // share).
  template <typename G>
    requires GatherOperator<G, V>
  double gather_apply_range(const G& op, uint64_t begin, uint64_t end) {
    auto t0 = std::chrono::steady_clock::now();
    double residual = 0;
    if (begin >= end && n_ > 0) return 0;
    StepOutcome o = std::visit([&](auto& s) { return s.gather(op, &residual, begin, end); }, source_);
    account<G>(o);
    if (trace_)
      std::fprintf(stderr, "tg-gpu gather edges %-11llu link %-11llu %.3f ms\n", (unsigned long long)o.edges,
                   (unsigned long long)o.bytes_moved,
                   std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    return residual;
  }

 private:
  using Source = std::variant<ResidentSource<V>, StreamedSource<V>>;

  // Sources own device memory and are never moved: made in place.
  static Source make_source(const DeviceGraph<V>& g, const EdgeReads& reads, Frontiers<V>& frontiers) {
    if (g.streamed.enabled) return Source(std::in_place_type<StreamedSource<V>>, g, reads, frontiers);
    return Source(std::in_place_type<ResidentSource<V>>, g, frontiers.pool());
  }

  // TG_GPU_TRACE: f() timed between device syncs, in ms.
  template <typename F>
  double synced_ms(F&& f) {
    TG_CUDA(cudaDeviceSynchronize());
    const auto t0 = std::chrono::steady_clock::now();
    f();
    TG_CUDA(cudaDeviceSynchronize());
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

  template <typename F>
  void vertex_map_(const Frontier& f, F fn) {
    if (f.kind == Frontier::Kind::kAll) {
      vertex_kernels::map_all<V><<<grid_for(n_, kBlock, g_.sms), kBlock>>>(n_, fn);
    } else {
      Frontier s = frontiers_.to_sparse(f);
      vertex_kernels::map_list<V><<<grid_for(s.count, kBlock, g_.sms), kBlock>>>(s.list(), s.count, fn);
    }
    TG_CUDA_CHECK_LAUNCH();
  }

  template <typename Op>
  Frontier edge_map_(const Frontier& f, const Op& op, EdgeMapOptions options) {
    // Finished before any edge is read: updates then see every frontier
    // vertex's delta already moved into what it sends.
    if constexpr (HasBegin<Op, V>) vertex_map_(f, vertex_kernels::BeginOf<V, Op>{op});
    const bool over_link = g_.access != Access::kDevice && g_.access != Access::kUvm && !g_.streamed.enabled;
    StepShape shape{f.count, 0, g_.m, n_, can_pull(), pulled_last_, over_link, over_link ? g_.in.view.cache.heads : 0,
                    &in_degree_classes_, pull_divisor_, push_edge_cost_};
    // The frontier's degree sum is a pass over its offsets and a wait for the
    // result: taken where the direction turns on it, for a streamed source
    // (which plans its copies by it), and over a link, where it picks the
    // output queue below (a large output read back from the bitmap in vertex
    // order keeps the next step's reads in address order). With the lists
    // in GPU memory the mean degree serves that choice: SSSP on kron:25
    // (26 steps a source, the H100) 55.0 / 53.8 ms without the pass against
    // 57.5 / 56.3 with it (docs/PERF.md, session 18).
    const bool exact = g_.streamed.enabled || over_link || needs_frontier_edges(options.direction, shape);
    const uint64_t frontier_edges =
        exact ? frontiers_.out_degree_sum(f, g_.out.view.offsets, g_.m)
              : static_cast<uint64_t>(double(f.count) * (n_ > 0 ? double(g_.m) / double(n_) : 0.0));
    shape.frontier_edges = frontier_edges;
    // From the degrees' bands, no pass over the lists: a pass over the
    // offsets here cost kron:25 about 0.1 ms a traversal (the H200).
    if (needs_pull_probes(options.direction, shape)) shape.pull_probes = g_.in_degrees.probes_up_to(pull_probes_cap(shape));
    pulled_last_ = choose_pull(options.direction, shape);
    if (pulled_last_) {
      stats_.pull_steps++;
      Frontier in = frontiers_.to_dense(f);
      Frontier out;
      out.kind = Frontier::Kind::kDense;
      out.bits = frontiers_.pool().template get_n<uint32_t>(frontiers_.words());
      PullInput<V> p{in.words(), static_cast<uint32_t*>(out.bits.get())};
      StepOutcome o = std::visit([&](auto& s) { return s.pull(p, op); }, source_);
      account<Op>(o);
      out.count = o.out_count;
      if (out.count == 0 || !options.output) return Frontier{};
      return out;
    }
    stats_.push_steps++;
    Frontier src = f.kind == Frontier::Kind::kDense ? frontiers_.to_sparse(f) : f;
    // Small outputs are appended to a queue as they are found; large ones are
    // read back from the bitmap afterwards, in vertex order.
    std::shared_ptr<void> queue;
    if (options.output && frontiers_.output_in_queue(frontier_edges)) queue = frontiers_.output_queue();
    PushInput<V> p;
    p.frontier = src.kind == Frontier::Kind::kAll ? nullptr : src.list();
    p.count = src.count;
    p.frontier_edges = frontier_edges;
    p.want_output = options.output;
    p.out_bits = frontiers_.dedupe();
    p.out_queue = static_cast<V*>(queue.get());
    StepOutcome o = std::visit([&](auto& s) { return s.push(p, op); }, source_);
    account<Op>(o);
    if (!options.output) return Frontier{};
    return frontiers_.push_output(std::move(queue), o.out_count);
  }

  template <typename Op>
  void account(const StepOutcome& o) {
    stats_.edges_traversed += o.edges;
    stats_.bytes_needed += o.edges * (sizeof(V) + (Op::needs_weights ? sizeof(weight_t) : 0));
    stats_.bytes_moved += o.bytes_moved;
    stats_.cache_bytes_read += o.cache_bytes;
    stats_.link_requests += o.link_requests;
  }

  template <typename It, typename Reduce, typename Transform>
  double reduce(It in, uint64_t n, Reduce r, Transform t, double init) {
    if (!reduced_) reduced_ = frontiers_.pool().get(sizeof(double));
    double* out = static_cast<double*>(reduced_.get());
    run_cub(frontiers_.pool(), [&](void* tmp, size_t& bytes) {
      return cub::DeviceReduce::TransformReduce(tmp, bytes, in, out, n, r, t, init);
    });
    double x;
    TG_CUDA(cudaMemcpy(&x, out, sizeof x, cudaMemcpyDeviceToHost));
    return x;
  }

  DeviceGraph<V> g_;
  uint64_t n_;
  Frontiers<V> frontiers_;
  Source source_;
  std::shared_ptr<void> reduced_;  // the result of a reduction
  RunStats stats_;
  bool trace_ = false;
  uint64_t pull_divisor_ = 20;  // StepShape::pull_divisor (engines/direction.h)
  double push_edge_cost_ = 0;   // StepShape::push_edge_cost
  std::vector<DegreeClass> in_degree_classes_;  // StepShape::degree_classes
  bool pulled_last_ = false;  // for the direction policy's hysteresis
  cudaEvent_t results_ready_ = nullptr;
  bool results_recorded_ = false;
};

}  // namespace tg::gpu
