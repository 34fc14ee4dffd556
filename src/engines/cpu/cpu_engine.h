// The CPU engine: runs any algorithm of src/algorithms/ with OpenMP threads
// over a graph in host memory (see engines/engine.h for the contract).
//
// Frontiers are sparse (a list) or dense (a bitmap), as in Ligra: edge_map
// pushes from a sparse frontier and pulls into a dense one, choosing by the
// policy of engines/direction.h; it pulls wherever the graph has in-edges.
// Push splits the frontier's edges into equal ranges, so one vertex of degree
// one million is spread over all threads instead of stalling one of them.
// TG_CPU_SPARSE=notify-pull|garaph takes Garaph's notify-pull steps in place
// of pushes (engines/cpu/notify_pull.h; slower than push where measured).
#pragma once

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/array.h"
#include "core/env_count.h"
#include "core/env_switch.h"
#include "core/error.h"
#include "core/host_memory.h"
#include "core/recycled_vector.h"
#include "engines/cpu/cpu_ordered.h"
#include "engines/cpu/lookahead.h"
#include "engines/cpu/notify_pull.h"
#include "engines/cpu/parallel.h"
#include "engines/cpu/segmented_in_edges.h"
#include "engines/direction.h"
#include "engines/engine.h"
#include "graph/graph.h"

namespace tg {

template <typename V>
class CpuEngine {
 public:
  using vertex_t = V;
  template <typename T>
  using array_t = Array<T>;
  static constexpr bool kHostArrays = true;  // engines/engine.h: checkpoints read them in place

  class Frontier {
   public:
    enum class Kind { kSparse, kDense, kAll };
    Kind kind = Kind::kSparse;
    RecycledVector<V> list;         // kSparse
    RecycledVector<uint64_t> bits;  // kDense: one bit per vertex
    uint64_t count = 0;
  };

  explicit CpuEngine(const Graph<V>& graph) : graph_(graph), n_(graph.num_vertices) {
    trace_ = env_switch("TG_CPU_TRACE");
    if (trace_) trace_memory();
    sparse_step_ = sparse_step_from_env();  // the step taken where the policy says push
  }

  uint64_t num_vertices() const { return n_; }
  RunStats& stats() { return stats_; }
  const eid_t* out_offsets() const { return graph_.out.offsets.data(); }
  bool can_pull() const { return graph_.has_in_edges(); }
  uint64_t num_edges() const { return graph_.num_edges(); }
  bool symmetric() const { return !graph_.directed; }

  // ---- vertex arrays ----
  template <typename T>
  Array<T> make_array(T init) {
    return traced("make_array", [&] {
      Array<T> a = Array<T>::allocate_reused(n_);
      parallel_fill(a.data(), n_, init);
      return a;
    });
  }
  template <typename T>
  T get(const Array<T>& a, V v) const { return a[v]; }
  template <typename T>
  std::vector<T> get_many(const Array<T>& a, std::span<const V> at) const {
    std::vector<T> out;
    out.reserve(at.size());
    for (V v : at) out.push_back(a[v]);
    return out;
  }
  template <typename T>
  void set(Array<T>& a, V v, T x) { a[v] = x; }
  template <typename T>
  T* data(Array<T>& a) { return a.data(); }
  // The values as Out (the array's own type by default).
  template <typename Out = void, typename T>
  auto to_host(const Array<T>& a) const {
    using R = std::conditional_t<std::is_void_v<Out>, T, Out>;
    return traced("to_host", [&] { return parallel_to_vector<R>(a.data(), a.size()); });
  }

  // ---- frontiers ----
  Frontier single(V v) {
    Frontier f;
    f.list.push_back(v);
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
    traced("vertex_map", [&] { vertex_map_(f, fn); });
  }

  template <typename Pred>
  Frontier filter(const Frontier& f, Pred pred) {
    return traced("filter", [&] { return filter_(f, pred); });
  }

 private:
  template <typename F>
  void vertex_map_(const Frontier& f, F fn) {
    switch (f.kind) {
      case Frontier::Kind::kAll:
#pragma omp parallel for schedule(static)
        for (uint64_t v = 0; v < n_; ++v) {
          // What fn reads at random of a vertex a few dozen ahead (CC's
          // compress: its parent), asked for now (engines/cpu/lookahead.h).
          if (v + lookahead::kMapped < n_) prefetch_state(fn, static_cast<V>(v + lookahead::kMapped));
          fn(static_cast<V>(v));
        }
        break;
      case Frontier::Kind::kSparse:
#pragma omp parallel for schedule(static) if (f.list.size() >= kSerialBelow)
        for (uint64_t i = 0; i < f.list.size(); ++i) fn(f.list[i]);
        break;
      case Frontier::Kind::kDense:
#pragma omp parallel for schedule(static)
        for (uint64_t w = 0; w < f.bits.size(); ++w)
          for (uint64_t word = f.bits[w]; word != 0; word &= word - 1)
            fn(static_cast<V>(w * 64 + __builtin_ctzll(word)));
        break;
    }
  }

  template <typename Pred>
  Frontier filter_(const Frontier& f, Pred pred) {
    Frontier out;
    if (f.kind == Frontier::Kind::kSparse) {
      out.list = parallel_select(f.list.size(), [&](uint64_t i, RecycledVector<V>& keep) {
        if (pred(f.list[i])) keep.push_back(f.list[i]);
      });
    } else {
      bool all = f.kind == Frontier::Kind::kAll;
      out.list = parallel_select((n_ + 63) / 64, [&](uint64_t w, RecycledVector<V>& keep) {
        uint64_t word = all ? full_word(w) : f.bits[w];
        for (; word != 0; word &= word - 1) {
          V v = static_cast<V>(w * 64 + __builtin_ctzll(word));
          if (pred(v)) keep.push_back(v);
        }
      });
    }
    out.count = out.list.size();
    return out;
  }

  // TG_CPU_TRACE=1: how much of the process's memory is in huge pages when
  // the run starts (the graph's arrays ask for them; where the kernel had
  // none to give, it collapses them later, in the background).
  static void trace_memory() {
    std::FILE* f = std::fopen("/proc/self/smaps_rollup", "r");
    if (f == nullptr) return;
    char line[256];
    unsigned long long anon = 0, huge = 0;
    while (std::fgets(line, sizeof line, f) != nullptr) {
      std::sscanf(line, "Anonymous: %llu kB", &anon);
      std::sscanf(line, "AnonHugePages: %llu kB", &huge);
    }
    std::fclose(f);
    std::fprintf(stderr, "tg-cpu memory anonymous %.1f MiB, in huge pages %.1f MiB\n", anon / 1024.0, huge / 1024.0);
  }

  // TG_CPU_TRACE=1: the time of a whole-array operation, on stderr.
  template <typename F>
  auto traced(const char* what, F body) const {
    if (!trace_) return body();
    const auto t0 = std::chrono::steady_clock::now();
    struct Print {
      const char* what;
      std::chrono::steady_clock::time_point t0;
      ~Print() {
        std::fprintf(stderr, "tg-cpu %s %.3f ms\n", what,
                     std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      }
    } print{what, t0};
    return body();
  }

 public:
  Frontier merge(const Frontier& a, const Frontier& b) {
    if (a.count == 0) return b;
    if (b.count == 0) return a;
    Frontier sa = to_sparse(a), sb = to_sparse(b);
    uint8_t* flags = zeroed_flags();
    for (V v : sa.list) flags[v] = 1;
    for (V v : sb.list)
      if (!flags[v]) {
        flags[v] = 1;
        sa.list.push_back(v);
      }
    for (V v : sa.list) flags[v] = 0;
    sa.count = sa.list.size();
    return sa;
  }

  template <typename F>
  double vertex_sum(F fn) {
    double total = 0;
#pragma omp parallel for schedule(static) reduction(+ : total)
    for (uint64_t v = 0; v < n_; ++v) total += fn(static_cast<V>(v));
    return total;
  }

  template <typename F>
  double min_over(const Frontier& f, F fn) {
    Frontier s = to_sparse(f);
    double best = std::numeric_limits<double>::infinity();
#pragma omp parallel for schedule(static) reduction(min : best) if (s.list.size() >= kSerialBelow)
    for (uint64_t i = 0; i < s.list.size(); ++i) best = std::min(best, static_cast<double>(fn(s.list[i])));
    return best;
  }

  // ---- ordered relaxation (algorithms/settle_in_order.h) ----
  template <typename Key, typename Relax>
    requires EdgeOperator<Relax, V>
  OrderedStop settle_in_order(const Frontier& start, Key key, const Relax& relax, uint64_t stop_after = 0) {
    const Frontier s = to_sparse(start);
    return cpu_settle_in_order(graph_.out, s.list.data(), s.list.size(), key, relax, stats_, stop_after);
  }

  // ---- edge traversal ----
  template <typename Op>
    requires EdgeOperator<Op, V>
  Frontier edge_map(const Frontier& f, const Op& op, EdgeMapOptions options) {
    if (f.count == 0) return Frontier{};
    if (!trace_) return edge_map_(f, op, options);
    // TG_CPU_TRACE=1: one line per step on stderr, to show where the time goes.
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t edges0 = stats_.edges_traversed, pulls0 = stats_.pull_steps, notifies0 = stats_.notify_pull_steps;
    Frontier out = edge_map_(f, op, options);
    std::fprintf(stderr, "tg-cpu step %-6s in %-9llu -> out %-9llu edges %-11llu %.3f ms\n",
                 stats_.pull_steps > pulls0 ? "pull" : stats_.notify_pull_steps > notifies0 ? "notify" : "push",
                 (unsigned long long)f.count,
                 (unsigned long long)out.count, (unsigned long long)(stats_.edges_traversed - edges0),
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    return out;
  }

  template <typename G>
    requires GatherOperator<G, V>
  double gather_apply(const G& op) {
    return gather_apply_range(op, 0, n_);
  }

  // A push from every vertex of [begin, end), with no output frontier (the
  // hybrid engine's CPU share of a split step), on `threads` threads (0:
  // OpenMP's default).
  template <typename Op>
    requires EdgeOperator<Op, V>
  void push_range(const Op& op, uint64_t begin, uint64_t end, int threads = 0) {
    if (begin >= end) return;
    const int team = threads > 0 ? threads : omp_get_max_threads();
    if constexpr (HasBegin<Op, V>) {  // the hook of this range's sources only: the others are another side's
#pragma omp parallel for schedule(static) num_threads(team)
      for (uint64_t u = begin; u < end; ++u) op.begin(static_cast<V>(u));
    }
    stats_.push_steps++;
    push_step(all(), op, false, begin, end, team);
  }

  // The out-degrees of a sparse or dense frontier's members, summed (also
  // for the paged engine's direction choice).
  uint64_t out_degree_sum(const Frontier& f) {
    const eid_t* off = graph_.out.offsets.data();
    uint64_t sum = 0;
    if (f.kind == Frontier::Kind::kSparse) {
#pragma omp parallel for schedule(static) reduction(+ : sum) if (f.list.size() >= kSerialBelow)
      for (uint64_t i = 0; i < f.list.size(); ++i) sum += off[f.list[i] + 1] - off[f.list[i]];
    } else {
#pragma omp parallel for schedule(static) reduction(+ : sum)
      for (uint64_t w = 0; w < f.bits.size(); ++w)
        for (uint64_t word = f.bits[w]; word != 0; word &= word - 1) {
          uint64_t v = w * 64 + __builtin_ctzll(word);
          sum += off[v + 1] - off[v];
        }
    }
    return sum;
  }

  // gather_apply over vertices [begin, end) only (the hybrid engine's CPU
  // share), with `threads` threads (0: OpenMP's default).
  template <typename G>
    requires GatherOperator<G, V>
  double gather_apply_range(const G& op, uint64_t begin, uint64_t end, int threads = 0) {
    // Without this check a directed graph lacking its CSC is read out of bounds.
    if (!can_pull())
      throw Error("this algorithm gathers over in-edges: the directed graph needs its CSC (BuildOptions::in_edges)");
    const Csr<V>& in = graph_.in_edges();
    const int team = threads > 0 ? threads : omp_get_max_threads();
    if constexpr (!G::needs_weights) {
      // The whole graph's gather (not a hybrid share, which would pay a
      // layout of every edge for a few of them) from cache-sized segments.
      if (begin == 0 && end == n_ && segmented()) {
        uint64_t edges = 0;
        const double total =
            traced("gather_apply segmented", [&] { return segments_->gather_apply_range(op, begin, end, team, scratch_, edges); });
        stats_.edges_traversed += edges;
        return total;
      }
    }
    const eid_t* offsets = in.offsets.data();
    const V* neighbors = in.neighbors.data();
    double total = 0;
    uint64_t edges = 0;
    // The in-lists of consecutive vertices lie end to end, so the sources a
    // few dozen edges ahead are known whatever the degrees: their state is
    // asked for early (prefetch_source), where the window of reads the core
    // keeps in flight on its own spans fewer edges.
    const eid_t last_edge = offsets[end];
    constexpr eid_t kAhead = 32;
#pragma omp parallel for schedule(dynamic, 16384) reduction(+ : total, edges) num_threads(team)
    for (uint64_t v = begin; v < end; ++v) {
      // Two running sums, so that each add waits on half the reads: one sum
      // is a chain of dependent adds, slower than the reads it waits on
      // (PageRank on kron:20 and urand:20: 10-20% an iteration).
      typename G::acc_t even = op.zero(), odd = op.zero();
      const V to = static_cast<V>(v);
      eid_t e = offsets[v];
      const eid_t end = offsets[v + 1];
      for (; e + 1 < end; e += 2) {
        if constexpr (PrefetchesSources<G, V>) {
          if (e + kAhead + 1 < last_edge) {
            op.prefetch_source(neighbors[e + kAhead]);
            op.prefetch_source(neighbors[e + kAhead + 1]);
          }
        }
        even = op.sum(even, op.gather(neighbors[e], to, weight_of<G>(in, e)));
        odd = op.sum(odd, op.gather(neighbors[e + 1], to, weight_of<G>(in, e + 1)));
      }
      if (e < end) even = op.sum(even, op.gather(neighbors[e], to, weight_of<G>(in, e)));
      edges += end - offsets[v];
      total += op.apply(to, op.sum(even, odd));
    }
    stats_.edges_traversed += edges;
    return total;
  }

  // Vertices a segment of the gather's sources (engines/cpu/segmented_in_edges.h);
  // 0 never segments (the default, below).
  void set_gather_segment_vertices(uint64_t vertices) {
    segment_vertices_ = vertices;
    segments_.reset();
    segments_tried_ = false;
  }
  // How many segments the gathers read (0: the plain pull; none before the first).
  uint64_t gather_segments() const { return segments_ ? segments_->num_segments() : 0; }

 private:
  // Whether gathers read segments, building them on the first gather: where
  // a width is set, the sources span more than two segments, every list is
  // sorted, and the copy of the in-edges fits in half the available memory.
  bool segmented() {
    if (segments_tried_) return segments_.has_value();
    segments_tried_ = true;
    if (segment_vertices_ == kSegmentDefault) segment_vertices_ = default_segment_vertices();
    if (segment_vertices_ == 0) return false;
    // Each segment is a pass of every gather (a parallel loop and its
    // barrier): a width of 4 on 18 K vertices made 4540 of them, and a
    // PageRank to 1e-8 ran for minutes. Widths that help are millions of
    // vertices, a few dozen segments.
    segment_vertices_ =  // a power of two, as the layout rounds widths down
        std::max(segment_vertices_, std::bit_ceil((n_ + kMaxGatherSegments - 1) / kMaxGatherSegments));
    if (n_ <= 2 * std::bit_floor(segment_vertices_)) return false;  // as the layout rounds
    traced("segment in-edges", [&] {
      uint64_t available = available_memory();
      if (available == 0)  // no /proc/meminfo: the free pages
        available = static_cast<uint64_t>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
      segments_ = SegmentedInEdges<V>::build(graph_.in_edges(), n_, segment_vertices_, available / 2);
    });
    if (trace_ && segments_)
      std::fprintf(stderr, "tg-cpu gather segments %llu of %llu vertices, %.1f MiB\n",
                   static_cast<unsigned long long>(segments_->num_segments()),
                   static_cast<unsigned long long>(segments_->segment_vertices()), segments_->bytes() / 1048576.0);
    else if (trace_)
      std::fprintf(stderr, "tg-cpu gather not segmented (a list out of order, or too little memory free)\n");
    return segments_.has_value();
  }
  // Off unless TG_CPU_GATHER_SEGMENT names a width ("llc": half the
  // last-level cache in 8-byte values). Measured (docs/PERF.md, "The CPU's
  // gather over source segments"): 1.5-1.9x a PageRank iteration on an EPYC
  // VM's 32 MiB L3 at kron:22-23, but 0.9x and worse on the H200 host's Xeon
  // (one 300 MiB L3) at kron:25 and kron:27, where the plain pull's random
  // reads of hubs hit the cache and the partial sums cost as much as the edges.
  static uint64_t default_segment_vertices() {
    const char* env = std::getenv("TG_CPU_GATHER_SEGMENT");
    if (env != nullptr && std::string(env) == "llc") return last_level_cache_bytes() / 16;
    return env_count("TG_CPU_GATHER_SEGMENT");  // a value neither a count nor "llc" is refused in one line
  }

  template <typename Op>
  Frontier edge_map_(const Frontier& f, const Op& op, EdgeMapOptions options) {
    // Finished before any edge is read: updates then see every frontier
    // vertex's delta already moved into what it sends.
    if constexpr (HasBegin<Op, V>) vertex_map(f, [&op](V u) { op.begin(u); });
    StepShape shape{f.count, 0, graph_.num_edges(), n_, can_pull(), pulled_last_};
    // Notify-pull needs the in-edges, and an operator the caller lets pull.
    const bool notifies = sparse_step_ != SparseStep::kPush && options.direction == Direction::kAuto && can_pull();
    const bool garaph_switch = notifies && sparse_step_ == SparseStep::kGaraph;
    // The degree sum is needed only where the policy weighs it.
    if (needs_frontier_edges(options.direction, shape) || garaph_switch)
      shape.frontier_edges = f.kind == Frontier::Kind::kAll ? graph_.num_edges() : out_degree_sum(f);
    if (garaph_switch)
      pulled_last_ = f.kind == Frontier::Kind::kAll || garaph_pulls(shape.frontier_edges, shape.total_edges);
    else
      pulled_last_ = choose_pull(options.direction, shape);
    if (pulled_last_) {
      stats_.pull_steps++;
      if (f.kind == Frontier::Kind::kAll) return pull_step<true>(nullptr, op, options.output);
      const Frontier members = to_dense(f);
      return pull_step<false>(members.bits.data(), op, options.output);
    }
    if (notifies) return notify_pull_step(f, op, options.output);
    stats_.push_steps++;
    return push_step(f, op, options.output);
  }

  // Garaph's notify-pull (engines/cpu/notify_pull.h): the frontier's
  // out-neighbours that the operator still wants are marked by a push of the
  // notification into a bitmap, then the pull step visits only those, each
  // reading its in-neighbours that are frontier members (bitmap `member`).
  template <typename Op>
  Frontier notify_pull_step(const Frontier& f, const Op& op, bool want_output) {
    if (f.kind == Frontier::Kind::kAll) {  // every vertex notified: a pull
      stats_.pull_steps++;
      return pull_step<true>(nullptr, op, want_output);
    }
    stats_.notify_pull_steps++;
    const uint64_t words = (n_ + 63) / 64;
    if (notified_.size() != words) notified_.assign(words, 0);  // zero between steps: the pull clears it
    push_step(f, Notify<Op, V>{op, notified_.data()}, false);
    const uint64_t* member = f.bits.data();
    if (f.kind == Frontier::Kind::kSparse) member = mark_members(f, true);
    Frontier out = pull_step<false>(member, op, want_output, notified_.data());
    if (f.kind == Frontier::Kind::kSparse) mark_members(f, false);
    return out;
  }

  // Sets (or clears again) the bits of a sparse frontier's members in a
  // bitmap kept zero between steps, so a step of a few vertices does not pay
  // for a fresh n-bit map.
  const uint64_t* mark_members(const Frontier& f, bool set) {
    const uint64_t words = (n_ + 63) / 64;
    if (members_.size() != words) members_.assign(words, 0);
    uint64_t* bits = members_.data();
#pragma omp parallel for schedule(static) if (f.list.size() >= kSerialBelow)
    for (uint64_t i = 0; i < f.list.size(); ++i) {
      const uint64_t bit = uint64_t{1} << (f.list[i] % 64);
      if (set)
        __atomic_fetch_or(&bits[f.list[i] / 64], bit, __ATOMIC_RELAXED);
      else
        __atomic_fetch_and(&bits[f.list[i] / 64], ~bit, __ATOMIC_RELAXED);
    }
    return bits;
  }

  template <typename Op>
  static weight_t weight_of(const Csr<V>& csr, eid_t e) {
    if constexpr (Op::needs_weights) return csr.weights[e];
    return 1.0f;
  }

  uint64_t full_word(uint64_t w) const {
    uint64_t remaining = n_ - w * 64;
    return remaining >= 64 ? ~uint64_t{0} : (uint64_t{1} << remaining) - 1;
  }

  // Runs body(i, local) for i in [0, n) on all threads, each appending to its
  // own vector, and concatenates those vectors in thread order.
  template <typename Body>
  RecycledVector<V> parallel_select(uint64_t n, Body body) {
    int threads = omp_get_max_threads();
    std::vector<RecycledVector<V>> parts(threads);
    std::vector<uint64_t> starts(threads + 1, 0);
    RecycledVector<V> out;
    const bool parallel = n >= kSerialBelow;
#pragma omp parallel num_threads(threads) if (parallel)
    {
      int t = omp_get_thread_num();
      RecycledVector<V>& local = parts[t];
#pragma omp for schedule(static) nowait
      for (uint64_t i = 0; i < n; ++i) body(i, local);
    }
    for (int t = 0; t < threads; ++t) starts[t + 1] = starts[t] + parts[t].size();
    out.resize(starts[threads]);
#pragma omp parallel for schedule(static, 1) num_threads(threads) if (parallel)
    for (int t = 0; t < threads; ++t) std::copy(parts[t].begin(), parts[t].end(), out.begin() + starts[t]);
    return out;
  }

  Frontier to_sparse(const Frontier& f) {
    if (f.kind == Frontier::Kind::kSparse) return f;
    return filter(f, [](V) { return true; });
  }

  Frontier to_dense(const Frontier& f) {
    if (f.kind == Frontier::Kind::kDense) return f;
    Frontier d;
    d.kind = Frontier::Kind::kDense;
    d.count = f.count;
    d.bits.assign((n_ + 63) / 64, 0);
    if (f.kind == Frontier::Kind::kAll) {
      for (uint64_t w = 0; w < d.bits.size(); ++w) d.bits[w] = full_word(w);
    } else {
#pragma omp parallel for schedule(static) if (f.list.size() >= kSerialBelow)
      for (uint64_t i = 0; i < f.list.size(); ++i)
        __atomic_fetch_or(&d.bits[f.list[i] / 64], uint64_t{1} << (f.list[i] % 64), __ATOMIC_RELAXED);
    }
    return d;
  }

  // Bottom-up: every vertex that may still change looks for frontier members
  // among its in-neighbours. Chunks of 64 vertices own whole output words.
  // Both steps read the operator through a copy in each thread: its fields
  // (BFS's relax_reached, the arrays' addresses) then stay in registers,
  // where through a shared one every write to a vertex array might change
  // them and each edge reloads them.
  // The frontier is the bitmap `member`, or every vertex (kAllMembers: no
  // bitmap read per edge, as CC's sampling pulls). `only`, where given, is a
  // bitmap of the vertices to pull (notify-pull's notified), each word
  // cleared once read; the others are left as they are.
  template <bool kAllMembers, typename Op>
  Frontier pull_step(const uint64_t* member, const Op& shared_op, bool want_output, uint64_t* only = nullptr) {
    const Csr<V>& in = graph_.in_edges();
    const eid_t* off = in.offsets.data();
    const V* nbr = in.neighbors.data();
    const uint64_t words = (n_ + 63) / 64;
    Frontier out;
    out.kind = Frontier::Kind::kDense;
    if (want_output) out.bits.resize(words);  // every word written below
    uint64_t* out_bits = out.bits.data();
    uint64_t count = 0, edges = 0;
    // Chunks of 16 words (1024 vertices) balance skewed in-degrees, as GAP's
    // bottom-up step does.
#pragma omp parallel reduction(+ : count, edges)
    {
      const Op op = shared_op;
      const eid_t limit = list_limit(op);
      // v's in-neighbours in the frontier, until cond turns false; true
      // where any update changed v.
      auto pull_vertex = [&](uint64_t v) {
        if (!op.cond(static_cast<V>(v))) return false;
        const eid_t b = off[v], e_end = list_end(b, off[v + 1], limit);
        bool changed = false;
        eid_t e = b;
        for (; e < e_end; ++e) {
          if constexpr (PrefetchesSources<Op, V>)
            if (e + lookahead::kEdges < e_end) op.prefetch_source(nbr[e + lookahead::kEdges]);
          const V u = nbr[e];
          if (!kAllMembers && !((member[u / 64] >> (u % 64)) & 1)) continue;
          changed |= op.update(u, static_cast<V>(v), weight_of<Op>(in, e));
          if (!op.cond(static_cast<V>(v))) {
            ++e;
            break;
          }
        }
        edges += e - b;
        return changed;
      };
#pragma omp for schedule(dynamic, 16) nowait
      for (uint64_t w = 0; w < words; ++w) {
        uint64_t word = 0;
        if (only == nullptr) {
          const uint64_t end = std::min<uint64_t>(n_, (w + 1) * 64);
          for (uint64_t v = w * 64; v < end; ++v) {
            if constexpr (PrefetchesSources<Op, V>) prefetch_pull_ahead(op, v, off, nbr, limit);
            if (pull_vertex(v)) word |= uint64_t{1} << (v % 64);
          }
        } else if (only[w] != 0) {
          for (uint64_t todo = only[w]; todo != 0; todo &= todo - 1) {
            const uint64_t v = w * 64 + std::countr_zero(todo);
            if (pull_vertex(v)) word |= uint64_t{1} << (v % 64);
          }
          only[w] = 0;
        }
        if (want_output) {
          out_bits[w] = word;
          count += __builtin_popcountll(word);
        }
      }
    }
    stats_.edges_traversed += edges;
    if (!want_output) return Frontier{};
    out.count = count;
    return out;
  }

  // A pull whose operator reads its sources' state (a CC link's labels):
  // the list of the vertex kVertices ahead of v and the sources' state of
  // the one kLists ahead are asked for now (engines/cpu/lookahead.h), the
  // first `limit` of them at most (CC's sample links two a vertex); only
  // for vertices that will read them (cond: CC's last pull skips most).
  template <typename Op>
  void prefetch_pull_ahead(const Op& op, uint64_t v, const eid_t* off, const V* nbr, eid_t limit) const {
    const uint64_t later = v + lookahead::kVertices, soon = v + lookahead::kLists;
    if (later < n_ && op.cond(static_cast<V>(later))) __builtin_prefetch(nbr + off[later]);
    if (soon >= n_ || !op.cond(static_cast<V>(soon))) return;
    const eid_t b = off[soon];
    const eid_t e_end = list_end(b, off[soon + 1], std::min(limit, lookahead::kEdges));
    for (eid_t e = b; e < e_end; ++e) op.prefetch_source(nbr[e]);
  }

  // Top-down: the frontier's edges are cut into ranges of equal size; a vertex
  // joins the output once: claimed by the operator (claims_once), or guarded
  // by a per-vertex flag (test-and-set).
  // A frontier of every vertex pushes from [first, last) only.
  template <typename Op>
  Frontier push_step(const Frontier& f, const Op& shared_op, bool want_output, uint64_t first = 0,
                     uint64_t last = ~uint64_t{0}, int team = 0) {
    const Csr<V>& out_csr = graph_.out;
    const eid_t* off = out_csr.offsets.data();
    const V* nbr = out_csr.neighbors.data();
    const bool all = f.kind == Frontier::Kind::kAll;
    Frontier converted;
    if (!all && f.kind != Frontier::Kind::kSparse) converted = to_sparse(f);
    const V* list = f.kind == Frontier::Kind::kSparse ? f.list.data() : converted.list.data();
    if (!all) first = 0;
    const uint64_t count = all ? std::min<uint64_t>(last, n_) - first : f.count;
    auto vertex_at = [&](uint64_t i) -> V { return all ? static_cast<V>(first + i) : list[i]; };

    // Position of each frontier vertex's first edge in the frontier's edge
    // space, counted from `origin`.
    RecycledVector<eid_t> local_prefix;
    const eid_t* prefix = off + first;  // for kAll the CSR offsets are that prefix
    const eid_t origin = all ? off[first] : 0;
    if (!all) {
      RecycledVector<eid_t> degrees(count);
#pragma omp parallel for schedule(static) if (count >= kSerialBelow)
      for (uint64_t i = 0; i < count; ++i) degrees[i] = off[vertex_at(i) + 1] - off[vertex_at(i)];
      local_prefix.resize(count + 1);
      parallel_exclusive_scan(degrees.data(), count, local_prefix.data());
      prefix = local_prefix.data();
    }
    const eid_t total_edges = prefix[count] - origin;
    stats_.edges_traversed += total_edges;

    const int threads = team > 0 ? team : omp_get_max_threads();
    const eid_t grain = std::max<eid_t>(2048, total_edges / (uint64_t(threads) * 32) + 1);
    const uint64_t tasks = total_edges / grain + 1;
    // Each vertex joins at most once (claimed, or guarded by its flag), so
    // the output holds at most min(n, edges) vertices: threads copy theirs
    // straight into it in batches, as GAP's queue buffers do, with no pass
    // to join per-thread lists after.
    Frontier out;
    if (want_output) out.list.resize(std::min<uint64_t>(n_, total_edges));
    V* out_list = out.list.data();
    uint64_t out_size = 0;
    const bool once = claims_once(shared_op);  // no repeats to remove, no flags to clear
    uint8_t* flags = once || !want_output ? nullptr : zeroed_flags();
    // A few thousand edges cost less than waking the other threads.
    const bool parallel = total_edges >= kSerialBelow;
#pragma omp parallel num_threads(threads) if (parallel)
    {
      const Op op = shared_op;
      constexpr uint64_t kBatch = 1024;
      V batch[kBatch];
      uint64_t held = 0;
      auto flush = [&] {
        const uint64_t at = __atomic_fetch_add(&out_size, held, __ATOMIC_RELAXED);
        std::copy(batch, batch + held, out_list + at);
        held = 0;
      };
#pragma omp for schedule(dynamic, 1) nowait
      for (uint64_t task = 0; task < tasks; ++task) {
        eid_t lo = task * grain, hi = std::min<eid_t>(total_edges, lo + grain);
        if (lo >= hi) continue;
        // the frontier vertex whose edge range contains lo
        uint64_t i = std::upper_bound(prefix, prefix + count + 1, lo + origin) - prefix - 1;
        for (eid_t pos = lo; pos < hi; ++i) {
          // The lines of the frontier vertices a few places ahead first
          // (engines/cpu/lookahead.h); a frontier of every vertex reads its
          // offsets in order, and the prefetch is cheap.
          if (i + lookahead::kVertices < count) __builtin_prefetch(off + vertex_at(i + lookahead::kVertices));
          if (i + lookahead::kLists < count) {
            const eid_t first = off[vertex_at(i + lookahead::kLists)];
            __builtin_prefetch(nbr + first);
            if constexpr (Op::needs_weights) __builtin_prefetch(out_csr.weights.data() + first);
          }
          V u = vertex_at(i);
          eid_t skip = pos + origin - prefix[i];
          eid_t begin = off[u] + skip;
          eid_t end = std::min<eid_t>(off[u + 1], begin + (hi - pos));
          lookahead::prefetch_list_start(op, nbr, begin, end);
          for (eid_t e = begin; e < end; ++e) {
            if (e + lookahead::kEdges < end) prefetch_state(op, nbr[e + lookahead::kEdges]);
            V v = nbr[e];
            if (!op.cond(v)) continue;
            if (op.update_atomic(u, v, weight_of<Op>(out_csr, e)) && want_output) {
              if (once || __atomic_exchange_n(&flags[v], uint8_t{1}, __ATOMIC_RELAXED) == 0) {
                batch[held++] = v;
                if (held == kBatch) flush();
              }
            }
          }
          pos += end - begin;
        }
      }
      if (held > 0) flush();
    }
    out.list.resize(out_size);
    if (!once) {
#pragma omp parallel for schedule(static) if (out_size >= kSerialBelow)
      for (uint64_t k = 0; k < out_size; ++k) flags[out_list[k]] = 0;
    }
    out.count = out_size;
    return out;
  }

  const Graph<V>& graph_;
  uint64_t n_;
  Array<uint8_t> flags_;

 public:
  // A byte per vertex, all zero between calls (a caller sets some and clears
  // them again: push steps, here and in the paged engine); made on first need
  // (BFS never needs it), in parallel: a serial fill in the constructor cost
  // every run a pass over n bytes on one thread, page faults and all.
  uint8_t* zeroed_flags() {
    if (flags_.empty()) {
      flags_ = Array<uint8_t>::allocate_reused(n_);
      parallel_fill(flags_.data(), n_, uint8_t{0});
    }
    return flags_.data();
  }

 private:
  RunStats stats_;
  bool trace_ = false;
  bool pulled_last_ = false;  // for the direction policy's hysteresis
  SparseStep sparse_step_ = SparseStep::kPush;
  RecycledVector<uint64_t> members_;   // notify-pull's frontier bitmap, zero between steps
  RecycledVector<uint64_t> notified_;  // notify-pull's notified vertices, zero between steps
  static constexpr uint64_t kSegmentDefault = ~uint64_t{0};
  uint64_t segment_vertices_ = kSegmentDefault;
  static constexpr uint64_t kMaxGatherSegments = 256;
  bool segments_tried_ = false;
  std::optional<SegmentedInEdges<V>> segments_;
  Array<unsigned char> scratch_;  // the segmented gather's partial sums
};

}  // namespace tg
