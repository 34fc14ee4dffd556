// The hybrid engine (Garaph [Ma et al., USENIX ATC 2017]): an accelerator
// engine (the GPU engine, over any resident placement) and the CPU threads
// run the same vertex program at once. A gather_apply is cut in pages of
// the in-CSR (split_model.h): the accelerator gathers pages [0, k) from its
// own placement of the edges while the CPU threads gather pages [k, P) from
// the host graph (or, with --host-mem, from its file through the paged CPU
// engine); each side applies its own vertices, and the vertex data
// the operator points to is then exchanged: the accelerator's share down,
// the CPU's share up. Every other step (edge_map, vertex_map, ...) runs on
// the accelerator alone, so traversals (BFS, SSSP, CC), whose pushes write
// any vertex, run exactly as on the GPU engine and are never slower than it
// by more than the engine's bookkeeping.
//
// The split relies on what a gather_apply promises (engines/engine.h):
// apply(v, total) writes vertex v's data only, and gather only reads; so
// the two sides write disjoint ranges and every value either side reads was
// written before the step began.
//
// The algorithm sees the accelerator's arrays (data(a) is a device pointer);
// the CPU side runs a relocated copy of the operator over host mirrors
// (mirror_map.h). A mirror is brought up to date lazily: only before a
// split gather whose operator points to it, and only if a step on the
// accelerator may have written it since (one whose operator points to it).
//
// The accelerator type provides, besides the Engine contract:
//   gather_apply_range(op, begin, end)   its share of a gather
//   copy(dst, src, bytes, direction)     one of the exchange's copies
//   finish_copies()                      waits for them
//   finish_copies(direction)             waits for those of one direction
//   host_buffer(bytes)                   a mirror's memory (pinned on a GPU)
//   enter_thread()                       makes a worker thread able to drive it
// and optionally owns(address): true for the accelerator's own memory, so
// an operator pointing to memory the engine did not make is refused rather
// than read by the CPU side.
#pragma once

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/env_switch.h"
#include "core/error.h"
#include "engines/cpu/cpu_engine.h"
#include "engines/engine.h"
#include "engines/hybrid/buffer_pool.h"
#include "engines/hybrid/forest_steps.h"
#include "engines/hybrid/hybrid_options.h"
#include "engines/hybrid/mirror_map.h"
#include "engines/hybrid/split_model.h"
#include "engines/hybrid/split_step.h"
#include "graph/graph.h"

namespace tg::hybrid {

enum class CopyDirection { kToHost, kToAccelerator };

template <typename A>
concept Accelerator = Engine<A> && requires(A& a, void* dst, const void* src) {
  a.copy(dst, src, size_t{1}, CopyDirection::kToHost);
  a.finish_copies();
  a.finish_copies(CopyDirection::kToHost);
  { a.host_buffer(size_t{1}) } -> std::same_as<std::shared_ptr<void>>;
  a.enter_thread();
};

// Cpu: the CPU side, the in-memory CPU engine (its own, over `graph`), or
// one the caller makes and keeps (the paged engine of --host-mem, which
// gathers over a range of vertices too, but splits no forest step: those run
// on the accelerator alone).
template <typename Acc, typename Cpu = CpuEngine<typename Acc::vertex_t>>
class HybridEngine {
 public:
  using vertex_t = typename Acc::vertex_t;
  using V = vertex_t;
  using Frontier = typename Acc::Frontier;
  static constexpr bool kPrefersFewSteps = PrefersFewSteps<Acc>;
  static constexpr bool kCpuInMemory = std::is_same_v<Cpu, CpuEngine<V>>;

  // A vertex array: the accelerator's, with its host mirror registered in
  // the engine's MirrorMap for as long as the array lives.
  template <typename T>
  class array_t {
   public:
    array_t() = default;
    array_t(array_t&& o) noexcept { *this = std::move(o); }
    array_t& operator=(array_t&& o) noexcept {
      if (this != &o) {
        release();
        primary = std::move(o.primary);
        engine_ = std::exchange(o.engine_, nullptr);
        id_ = std::exchange(o.id_, -1);
      }
      return *this;
    }
    ~array_t() { release(); }

    typename Acc::template array_t<T> primary;

   private:
    friend class HybridEngine;
    void release() {
      if (engine_ != nullptr && id_ >= 0) {
        try {
          engine_->settle();  // a download into its mirror may be in flight
        } catch (...) {       // a failed copy's error was the run's to report (this runs in destructors)
        }
        engine_->map_.remove(id_);
      }
      engine_ = nullptr;
      id_ = -1;
    }
    HybridEngine* engine_ = nullptr;
    int id_ = -1;
  };

  // `acc` runs over its placement of `graph`'s edges; the CPU side reads
  // `graph` itself. Both outlive the engine.
  HybridEngine(Acc& acc, const Graph<V>& graph, HybridOptions options = {})
    requires kCpuInMemory
      : HybridEngine(acc, graph, std::nullopt, options) {}
  // With the caller's CPU side over `graph` (it outlives the engine).
  HybridEngine(Acc& acc, const Graph<V>& graph, Cpu& cpu, HybridOptions options = {})
      : HybridEngine(acc, graph, &cpu, options) {}
  HybridEngine(const HybridEngine&) = delete;
  HybridEngine& operator=(const HybridEngine&) = delete;
  ~HybridEngine() {
    try {
      settle();
    } catch (...) {  // a failed copy's error was the run's to report
    }
  }

 private:
  HybridEngine(Acc& acc, const Graph<V>& graph, std::optional<Cpu*> given, HybridOptions options)
      : acc_(acc),
        graph_(graph),
        own_cpu_(make_own_cpu(graph, given.has_value())),
        cpu_(given ? **given : *own_cpu_),
        n_(graph.num_vertices),
        options_(options) {
    threads_ = options.cpu_threads > 0 ? options.cpu_threads : std::max(1, omp_get_max_threads() - 1);
    // The operators' out-offsets: the accelerator's copy stands for the host graph's.
    map_.add(acc_.out_offsets(), const_cast<eid_t*>(graph_.out.offsets.data()), n_ + 1, sizeof(eid_t), false);
    stats_.pages = 0;
    stats_.cpu_threads = threads_;
  }
  static std::optional<Cpu> make_own_cpu(const Graph<V>& graph, bool given) {
    if constexpr (kCpuInMemory)
      if (!given) return std::optional<Cpu>(std::in_place, graph);
    return std::nullopt;
  }

 public:
  uint64_t num_vertices() const { return n_; }
  uint64_t num_edges() const { return acc_.num_edges(); }
  bool symmetric() const { return acc_.symmetric(); }
  bool can_pull() const { return acc_.can_pull(); }
  const eid_t* out_offsets() const { return acc_.out_offsets(); }
  RunStats& stats() {
    RunStats& s = acc_.stats();
    s.hybrid = stats_;
    if constexpr (!kCpuInMemory) s.paging = cpu_.stats().paging;  // what the CPU side read from the file
    return s;
  }
  const HybridStats& hybrid_stats() const { return stats_; }
  // Mirrors' memory from (and back to) `pool`, which outlives the engine:
  // the runs of a batch share it (buffer_pool.h).
  void use_buffer_pool(BufferPool* pool) { pool_ = pool; }
  // The split models from (and left in) `models`, which outlives the
  // engine: a batch's runs of one algorithm share them (split_model.h).
  void keep_split_models(SplitModels* models) { models_ = models; }

  // ---- vertex arrays ----
  template <typename T>
  array_t<T> make_array(T init) {
    array_t<T> a;
    a.primary = acc_.template make_array<T>(init);
    a.engine_ = this;
    a.id_ = map_.add(acc_.data(a.primary), nullptr, n_, sizeof(T), true);
    return a;
  }
  template <typename T>
  T get(const array_t<T>& a, V v) const { return acc_.get(a.primary, v); }
  template <typename T>
  std::vector<T> get_many(const array_t<T>& a, std::span<const V> at) { return acc_.get_many(a.primary, at); }
  template <typename T>
  void set(array_t<T>& a, V v, T x) {
    settle();
    acc_.set(a.primary, v, x);
    map_.at(a.id_).host_fresh = false;
  }
  template <typename T>
  T* data(array_t<T>& a) { return acc_.data(a.primary); }
  // A checkpoint's bytes of the accelerator's arrays (engines/engine.h,
  // CopiesArrays). What is written there leaves its mirror stale (a resumed
  // run restores arrays it has just made, whose mirrors are stale already).
  void copy_to_host(void* host, const void* primary, size_t bytes) {
    acc_.copy(host, primary, bytes, CopyDirection::kToHost);
    acc_.finish_copies();
  }
  void copy_from_host(void* primary, const void* host, size_t bytes) {
    settle();
    acc_.copy(primary, host, bytes, CopyDirection::kToAccelerator);
    acc_.finish_copies();
    if (const int id = map_.find(reinterpret_cast<uintptr_t>(primary)); id >= 0) map_.at(id).host_fresh = false;
  }
  template <typename Out = void, typename T>
  auto to_host(const array_t<T>& a) {
    if constexpr (std::is_void_v<Out>) return acc_.to_host(a.primary);
    else return acc_.template to_host<Out>(a.primary);
  }

  // ---- frontiers and steps: the accelerator's ----
  Frontier single(V v) { return acc_.single(v); }
  Frontier all() { return acc_.all(); }
  uint64_t size(const Frontier& f) const { return acc_.size(f); }
  template <typename Pred>
  Frontier filter(const Frontier& f, Pred pred) { return acc_.filter(f, pred); }
  Frontier merge(const Frontier& a, const Frontier& b) { return acc_.merge(a, b); }
  template <typename F>
  void vertex_map(const Frontier& f, F fn) {
    settle();
    wrote(written_by(fn, map_.used_by(fn)));
    acc_.vertex_map(f, fn);
  }
  template <typename F>
  double vertex_sum(F fn) {
    settle();
    // A sum may write as it goes (pagerank's SpreadPending), unless its
    // written() hint says what: PageRank's convergence sum only reads, and
    // taking it for a write cost the next split gather a refresh of the
    // contributions (2.5 ms on kron:25) and once the split itself.
    wrote(written_by(fn, map_.used_by(fn)));
    return acc_.vertex_sum(fn);
  }
  template <typename F>
  double min_over(const Frontier& f, F fn) { return acc_.min_over(f, fn); }
  template <typename Op>
  Frontier edge_map(const Frontier& f, const Op& op, EdgeMapOptions options = {}) {
    settle();
    if constexpr (HasForest<Op> && kCpuInMemory)
      if (forest_splittable(f, op, options)) {
        forest_step(op);
        return Frontier{};
      }
    wrote(map_.used_by(op));
    stats_.gpu_only_steps++;
    return acc_.edge_map(f, op, options);
  }

  template <typename G>
    requires GatherOperator<G, V>
  double gather_apply(const G& op) {
    // (can_pull() is the accelerator's pull steps: a streamed placement has
    // none, yet gathers.)
    if (!graph_.has_in_edges()) return acc_.gather_apply(op);  // the accelerator's error
    SplitModel& model = split_model(kGather);
    const uint64_t k = model.choose(options_.cpu_share);
    const std::vector<int> used = map_.used_by(op);
    const std::vector<int> written = written_by(op, used);
    // The last split gather's download may still be in flight: the GPU
    // reads what it copies, so only a step writing that array waits here;
    // the CPU side waits before it reads the mirror (below).
    if (writes_downloading(written)) settle();
    if (k == model.pages()) {
      wrote(used);
      stats_.gpu_only_steps++;
      double r = 0;
      const double alone_s = timed_seconds([&] { r = acc_.gather_apply_range(op, 0, n_); });
      stats_.gpu_busy_s += alone_s;
      model.observe_alone_step(alone_s);
      if (trace_)
        std::fprintf(stderr, "tg-hybrid gather GPU alone %.3f ms (predicted %.3f)\n", alone_s * 1e3,
                     model.predicted_s(model.pages()) * 1e3);
      stats_.pages_gpu += model.pages();
      stats_.edges_gpu += in_edges(0, n_);
      stats_.last_cpu_share = 0;
      return r;
    }
    // The CPU side's preparation: its stale mirrors brought up to date (and
    // made, the first time: pinned host memory, 17 ms for PageRank's two
    // arrays on kron:25 on the H200) and the operator relocated to them. It
    // is not the exchange the model weighs (it follows GPU steps only), and
    // it runs on the CPU side before its first page, under the GPU's share:
    // the GPU's gather only reads the arrays it copies down, except the one
    // the gather writes, whose GPU range the exchange copies down again.
    double refresh_s = 0;
    bool refreshed = false;
    std::optional<G> on_host;
    auto prepare = [&] {
      if (on_host) return;
      refresh_s = timed_seconds([&] { refreshed = refresh_mirrors(used); });
      refuse_foreign_pointers(op);
      on_host.emplace(map_.relocate(op));
    };
    double gpu_r = 0, cpu_r = 0;
    const auto step_start = std::chrono::steady_clock::now();
    std::optional<double> wait_s;  // the CPU's wait for the last exchange's copy down, if one was in flight
    if (!downloading_.empty()) wait_s = 0.0;
    bool waited = false;
    const Split split = run_split(
        model, k, fixed_cut(model), [&] { acc_.enter_thread(); },
        [&](uint64_t b, uint64_t e) { gpu_r += acc_.gather_apply_range(op, b, e); },
        [&](uint64_t b, uint64_t e) {
          if (wait_s && !std::exchange(waited, true)) wait_s = timed_seconds([&] { settle(); });
          prepare();
          cpu_r += cpu_.gather_apply_range(*on_host, b, e, threads_);
          // Up at once, under what is left of the GPU's share. (In four
          // pieces, each sent as done, the exchange's serial part fell from
          // 0.02-0.18 to 0.02-0.04 ms on kron:25, within the H200's noise.)
          upload(written, b, e);
        });
    settle();   // a CPU side that took no page
    prepare();  // the same: the exchange needs the mirrors
    Split cpu_work = split;  // the CPU's time without its preparation
    cpu_work.cpu_s = std::max(0.0, split.cpu_s - refresh_s);
    const uint64_t cut = model.vertex_at(split.met);
    const double exchange_s = timed_seconds([&] { exchange(written, cut); });
    const double step_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - step_start).count();
    // A step that refreshed mirrors (the probe, a run's first split, the
    // first after steps on the GPU alone) is no measure of a split: the
    // model weighs that cost as the switch's.
    if (!refreshed) model.observe_split_step(split.met, step_s);
    if (trace_)
      std::fprintf(stderr,
                   "tg-hybrid gather cut %llu of %llu pages (chose %llu, predicted %.3f ms, alone %.3f): step %.3f ms, "
                   "GPU %.3f ms, CPU %.3f ms (waited %.3f), exchange %.3f ms, refresh %.3f ms\n",
                   static_cast<unsigned long long>(split.met), static_cast<unsigned long long>(model.pages()),
                   static_cast<unsigned long long>(k), model.predicted_s(k) * 1e3, model.predicted_s(model.pages()) * 1e3,
                   step_s * 1e3, split.gpu_s * 1e3, split.cpu_s * 1e3, wait_s.value_or(0) * 1e3, exchange_s * 1e3,
                   refresh_s * 1e3);
    model.observe(split.met, split.gpu_s, cpu_work.cpu_s, exchange_s, wait_s);
    stats_.gathers++;
    account(model, cpu_work, in_edges(0, cut), in_edges(cut, n_), exchange_s + refresh_s, wait_s.value_or(0));
    return gpu_r + cpu_r;
  }

 private:
  static constexpr SplitModels::Kind kGather = SplitModels::kGather, kForestPush = SplitModels::kForestPush;

  // The model of a kind of split step: made by its first, or kept from the
  // batch's earlier runs and started again for this one.
  SplitModel& split_model(SplitModels::Kind kind) {
    std::optional<SplitModel>& model = models_->of[kind];
    if (!model) {
      const uint64_t pages = options_.pages > 0 ? options_.pages : default_pages(n_);
      const double vertex_bytes = 4.0 * static_cast<double>(n_);  // a guess: one 4-byte array written
      const eid_t* offsets = kind == kForestPush ? graph_.out.offsets.data() : graph_.in_edges().offsets.data();
      model.emplace(offsets, n_, pages, options_.cpu_rate_per_thread * threads_, vertex_bytes / options_.exchange_rate);
    } else if (!started_[kind]) {
      model->start_run();
    }
    started_[kind] = true;
    stats_.pages = model->pages();
    return *model;
  }

  // The cut is the model's, one call a side, with a fixed CPU share or once
  // both sides are measured; pages are handed out as each side frees up
  // before (split_step.h).
  bool fixed_cut(const SplitModel& model) const { return options_.cpu_share.has_value() || model.measured(); }

  // cpu_wait_s: the CPU side's wait for the last exchange's copy down, idle
  // time within its cpu_s.
  void account(const SplitModel& model, const Split& split, uint64_t edges_gpu, uint64_t edges_cpu, double exchange_s,
               double cpu_wait_s = 0) {
    stats_.pages_gpu += split.met;
    stats_.pages_cpu += model.pages() - split.met;
    stats_.edges_gpu += edges_gpu;
    stats_.edges_cpu += edges_cpu;
    stats_.gpu_busy_s += split.gpu_s;
    stats_.cpu_busy_s += split.cpu_s - cpu_wait_s;
    stats_.gpu_idle_s += std::max(0.0, split.cpu_s - split.gpu_s);
    stats_.cpu_idle_s += std::max(0.0, split.gpu_s - split.cpu_s) + cpu_wait_s;
    stats_.exchange_s += exchange_s;
    stats_.last_cpu_share = 1 - model.work_before(split.met) / std::max(1.0, model.total_work());
    acc_.stats().edges_traversed += edges_cpu;
  }

  template <typename Op>
  void refuse_foreign_pointers(const Op& op) {
    if constexpr (requires { acc_.owns(uintptr_t{0}); })
      if (map_.points_outside(op, [&](uintptr_t w) { return acc_.owns(w); }))
        throw Error("hybrid engine: the step's operator points to accelerator memory that is not a vertex array "
                    "of this engine, which the CPU side cannot read");
  }

  // ---- split steps of forest operators (engines/engine.h, HasForest) ----

  // A push from every vertex with no output whose operator writes only its
  // forest, where a CPU share is fixed (--cpu-share). The model does not
  // split them: CC makes one such step a run, so nothing measured would
  // correct a wrong first cut, and on the H100 machine the split step was
  // 1.12x faster than the GPU's over subgraph on kron:25 but 1.29x slower on
  // urand:25 (docs/PERF.md). Pulls are never split: a pull stops reading a
  // list once its target is done (CC's sample reads two edges a vertex), so
  // its work is not the pages' edges that a model weighs, and it is too
  // little to repay the forest's trip both ways.
  template <typename Op>
  bool forest_splittable(const Frontier& f, const Op& op, const EdgeMapOptions& options) {
    if (options.output || options.direction != Direction::kPush || acc_.size(f) != n_ || n_ == 0) return false;
    if (!options_.cpu_share || *options_.cpu_share <= 0) return false;
    const int forest = map_.find(reinterpret_cast<uintptr_t>(op.forest()));
    if (forest < 0 || map_.at(forest).elem_bytes != sizeof(V)) return false;
    for (int id : map_.used_by(op))
      if (id != forest && map_.at(id).synced) return false;
    return true;
  }

  template <typename Op>
  void forest_step(const Op& op) {
    settle();
    SplitModel& model = split_model(kForestPush);
    const uint64_t k = model.choose(options_.cpu_share);
    const std::vector<int> used = map_.used_by(op);
    if (k == model.pages()) {
      wrote(used);
      stats_.gpu_only_steps++;
      stats_.gpu_busy_s +=
          timed_seconds([&] { acc_.edge_map(acc_.all(), op, EdgeMapOptions{Direction::kPush, false}); });
      return;
    }
    const double refresh_s = timed_seconds([&] { refresh_mirrors(used); });
    refuse_foreign_pointers(op);
    const Op on_host = map_.relocate(op);
    const Split split = run_split(
        model, k, fixed_cut(model), [&] { acc_.enter_thread(); },
        [&](uint64_t b, uint64_t e) {
          acc_.edge_map(acc_.filter(acc_.all(), VertexRange<V>{static_cast<V>(b), static_cast<V>(e)}), op,
                        EdgeMapOptions{Direction::kPush, false});
        },
        [&](uint64_t b, uint64_t e) { cpu_.push_range(on_host, b, e, threads_); });
    const uint64_t cut = model.vertex_at(split.met);
    const double exchange_s = timed_seconds([&] { join_forests(op, used); });
    model.observe(split.met, split.gpu_s, split.cpu_s, exchange_s);
    stats_.forest_steps++;
    const eid_t* o = graph_.out.offsets.data();
    account(model, split, o[cut], o[n_] - o[cut], exchange_s + refresh_s);
  }

  // After a split forest step: the CPU's forest joined into the
  // accelerator's (every vertex linked to its parent there). The mirror is
  // then stale.
  template <typename Op>
  void join_forests(const Op& op, const std::vector<int>& used) {
    Mirror& f = map_.at(map_.find(reinterpret_cast<uintptr_t>(op.forest())));
    auto other = acc_.template make_array<V>(V{0});
    acc_.copy(acc_.data(other), reinterpret_cast<const void*>(f.host), f.bytes, CopyDirection::kToAccelerator);
    stats_.exchange_bytes += f.bytes;
    acc_.finish_copies();
    acc_.vertex_map(acc_.all(), JoinForest<V>{reinterpret_cast<V*>(f.primary), acc_.data(other)});
    wrote(used);
  }

  uint64_t in_edges(uint64_t begin, uint64_t end) const {
    const eid_t* o = graph_.in_edges().offsets.data();
    return o[end] - o[begin];
  }

  // The arrays a split gather (or a vertex function) may have changed: those
  // its written() hint names (engines/engine.h), else all it points to.
  template <typename G>
  std::vector<int> written_by(const G& op, const std::vector<int>& used) const {
    if constexpr (HasWritten<G>) {
      std::vector<int> ids;
      for (const void* p : op.written()) {
        const int id = map_.find(reinterpret_cast<uintptr_t>(p));
        if (id >= 0 && std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
      }
      return ids;
    } else {
      return used;
    }
  }

  // The accelerator may have written these arrays: their mirrors are stale.
  void wrote(const std::vector<int>& ids) {
    for (int id : ids) map_.at(id).host_fresh = !map_.at(id).synced;
  }

  // True where it copied any.
  bool refresh_mirrors(const std::vector<int>& ids) {
    bool any = false;
    for (int id : ids) {
      Mirror& m = map_.at(id);
      if (!m.synced || m.host_fresh) continue;
      settle();  // the copy below overwrites what a download may still be writing
      if (m.host == 0) {  // pinned on a GPU, so the exchange runs at the link's rate
        m.buffer = pool_ ? pool_->take(m.bytes, [&] { return acc_.host_buffer(m.bytes); }) : acc_.host_buffer(m.bytes);
        m.host = reinterpret_cast<uintptr_t>(m.buffer.get());
      }
      acc_.copy(reinterpret_cast<void*>(m.host), reinterpret_cast<const void*>(m.primary), m.bytes,
                CopyDirection::kToHost);
      stats_.refresh_bytes += m.bytes;
      m.host_fresh = true;
      any = true;
    }
    if (any) acc_.finish_copies();
    return any;
  }

  // Vertices [begin, end) of the arrays a split gather writes, computed by
  // the CPU side, to the accelerator; waited for by the exchange.
  void upload(const std::vector<int>& ids, uint64_t begin, uint64_t end) {
    for (int id : ids) {
      const Mirror& m = map_.at(id);
      if (!m.synced || end <= begin) continue;
      const uint64_t at = begin * m.elem_bytes;
      acc_.copy(reinterpret_cast<void*>(m.primary + at), reinterpret_cast<const void*>(m.host + at),
                (end - begin) * m.elem_bytes, CopyDirection::kToAccelerator);
    }
  }

  // After a split gather: each side's vertices to the other. The CPU
  // side's went up as it finished them (upload()), and are waited for here
  // (the accelerator's next step may read any vertex); the copy down is
  // left in flight, to overlap the next gather on the GPU, and waited for
  // by settle() before the CPU side reads the mirror, before any step that
  // may write the array, and before the array goes. The CPU side of the
  // next split gather starts later by the wait, and the model measures it
  // so (its time includes the wait).
  void exchange(const std::vector<int>& ids, uint64_t cut) {
    for (int id : ids) {
      Mirror& m = map_.at(id);
      if (!m.synced) continue;
      const uint64_t split = cut * m.elem_bytes;
      if (split > 0) {
        acc_.copy(reinterpret_cast<void*>(m.host), reinterpret_cast<const void*>(m.primary), split,
                  CopyDirection::kToHost);
        downloading_.push_back(id);
      }
      stats_.exchange_bytes += m.bytes;
    }
    acc_.finish_copies(CopyDirection::kToAccelerator);
  }

 public:
  // Waits for the downloads of the last exchange, if any are in flight.
  void settle() {
    if (downloading_.empty()) return;
    acc_.finish_copies(CopyDirection::kToHost);
    downloading_.clear();
  }

 private:
  bool writes_downloading(const std::vector<int>& ids) const {
    for (int id : ids)
      if (std::find(downloading_.begin(), downloading_.end(), id) != downloading_.end()) return true;
    return false;
  }

  Acc& acc_;
  const Graph<V>& graph_;
  std::optional<Cpu> own_cpu_;  // the in-memory CPU engine, where the caller gave none
  Cpu& cpu_;
  uint64_t n_;
  HybridOptions options_;
  // TG_HYBRID_TRACE=1: a line a gather on stderr (the cut, each side's time,
  // the exchange, the model's rates and predictions), to show why it cut there.
  bool trace_ = env_switch("TG_HYBRID_TRACE");
  int threads_ = 1;
  MirrorMap map_;
  BufferPool* pool_ = nullptr;
  SplitModels own_models_;
  SplitModels* models_ = &own_models_;
  bool started_[SplitModels::kKinds] = {};  // this run's model of the kind is in use
  std::vector<int> downloading_;  // mirrors whose download from the last exchange may be in flight
  HybridStats stats_;
};

}  // namespace tg::hybrid
