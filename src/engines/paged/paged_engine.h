// The CPU engine over a graph whose edges stay in its .tgb file (--host-mem,
// docs/HOST-MEM.md): the offsets are in memory, the neighbours and weights
// are read in pages (page_stream.h) as each step needs them, except a span
// of them kept in memory once read (resident_edges.h).
//
// Everything that reads no edges (arrays, frontiers, vertex_map, filter,
// merge, sums) is the CPU engine's own: this engine holds one over the same
// graph and hands those calls to it, so the in-memory engine's loops are
// untouched. The steps that read edges run window by window (window_plan.h):
// the window's edges are read into a buffer while the previous window is
// processed, and a loop of the CPU engine's form runs over the window's
// vertices with neighbours taken from the buffer:
//  - edge_map push: from every vertex (plan_all) or from the sorted members
//    of a sparse frontier (plan_list: only their lists are read);
//  - edge_map pull and gather_apply: every vertex of the in-CSR (plan_all);
//  - a list longer than a buffer, or across an edge of the resident span,
//    is processed in consecutive windows, each a piece: a pull goes on where
//    cond(v) is still true, a gather carries its running sums from piece to
//    piece.
// A window inside the resident edges is served from them, the others from
// a buffer; the loops are the same.
// The engine brings no settle_in_order: sssp and sswp run the contract's
// generic bucket loop over these edge_maps (the same values, more steps).
//
// Results: as the CPU engine's, exactly (the order of a push changes which
// updates win a race, never the values the contract promises); a gather
// folds each in-list in the in-memory engine's order, two running sums
// alternating along the list, so PageRank's values are bit-identical too.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/array.h"
#include "core/error.h"
#include "core/recycled_vector.h"
#include "engines/cpu/cpu_engine.h"
#include "engines/cpu/parallel.h"
#include "engines/direction.h"
#include "engines/engine.h"
#include "engines/paged/edge_file.h"
#include "engines/paged/page_stream.h"
#include "engines/paged/resident_edges.h"
#include "engines/paged/window_plan.h"
#include "formats/binary_format.h"
#include "graph/graph.h"

namespace tg::paged {

template <typename V>
class PagedCpuEngine {
 public:
  using vertex_t = V;
  template <typename T>
  using array_t = Array<T>;
  using Frontier = typename CpuEngine<V>::Frontier;
  static constexpr bool kHostArrays = true;  // engines/engine.h: checkpoints read them in place

  // `graph`'s offsets are read here; its edge arrays never are (they are
  // `file`'s sections). A buffer holds `window_edges` edges; `resident`
  // keeps a span of the arrays once read (or nothing). `budget`: what the
  // stats report of the budget (host_mem.h).
  PagedCpuEngine(const Graph<V>& graph, const EdgeFile& file, PageBuffers& buffers, ResidentEdges& resident,
                 uint64_t window_edges, PagingStats budget = {})
      : graph_(graph), cpu_(graph), file_(file), buffers_(buffers), resident_(resident), n_(graph.num_vertices),
        capacity_(window_edges), paging_(budget) {
    paging_.paged = true;
    paging_.direct_io = file.direct();
    paging_.buffer_bytes = buffers.total_bytes();
    paging_.window_edges = window_edges;
    paging_.resident_edge_bytes = resident.edge_bytes();
  }

  uint64_t num_vertices() const { return n_; }
  uint64_t num_edges() const { return cpu_.num_edges(); }
  bool symmetric() const { return cpu_.symmetric(); }
  bool can_pull() const { return cpu_.can_pull(); }
  const eid_t* out_offsets() const { return cpu_.out_offsets(); }
  RunStats& stats() {
    RunStats& s = cpu_.stats();
    s.paging = paging_;
    return s;
  }

  // ---- the CPU engine's ----
  template <typename T>
  Array<T> make_array(T init) { return cpu_.make_array(init); }
  template <typename T>
  T get(const Array<T>& a, V v) const { return cpu_.get(a, v); }
  template <typename T>
  std::vector<T> get_many(const Array<T>& a, std::span<const V> at) const { return cpu_.get_many(a, at); }
  template <typename T>
  void set(Array<T>& a, V v, T x) { cpu_.set(a, v, x); }
  template <typename T>
  T* data(Array<T>& a) { return cpu_.data(a); }
  template <typename Out = void, typename T>
  auto to_host(const Array<T>& a) const { return cpu_.template to_host<Out>(a); }
  Frontier single(V v) { return cpu_.single(v); }
  Frontier all() { return cpu_.all(); }
  uint64_t size(const Frontier& f) const { return cpu_.size(f); }
  template <typename F>
  void vertex_map(const Frontier& f, F fn) { cpu_.vertex_map(f, fn); }
  template <typename Pred>
  Frontier filter(const Frontier& f, Pred pred) { return cpu_.filter(f, pred); }
  Frontier merge(const Frontier& a, const Frontier& b) { return cpu_.merge(a, b); }
  template <typename F>
  double vertex_sum(F fn) { return cpu_.vertex_sum(fn); }
  template <typename F>
  double min_over(const Frontier& f, F fn) { return cpu_.min_over(f, fn); }

  // ---- steps that read edges: window by window ----
  template <typename Op>
    requires EdgeOperator<Op, V>
  Frontier edge_map(const Frontier& f, const Op& op, EdgeMapOptions options) {
    if (f.count == 0) return Frontier{};
    if constexpr (HasBegin<Op, V>) cpu_.vertex_map(f, [&op](V u) { op.begin(u); });
    const bool all = f.kind == Frontier::Kind::kAll;
    // The members in id order: windows follow the file.
    Frontier members;
    if (!all) members = sorted_members(f);
    StepShape shape{f.count, 0, num_edges(), n_, can_pull(), pulled_last_};
    if (needs_frontier_edges(options.direction, shape))
      shape.frontier_edges = all ? num_edges() : cpu_.out_degree_sum(members);
    pulled_last_ = choose_pull(options.direction, shape);
    RunStats& s = cpu_.stats();
    if (pulled_last_) {
      s.pull_steps++;
      return pull(all ? nullptr : &members, op, options.output);
    }
    s.push_steps++;
    return push(all ? nullptr : &members, op, options.output);
  }

  template <typename G>
    requires GatherOperator<G, V>
  double gather_apply(const G& op) {
    check_can_gather();
    return gather_windows(every_vertex<G>(true), op, omp_get_max_threads());
  }

  // gather_apply over vertices [begin, end) only, on `threads` threads (the
  // hybrid engine's CPU share, engines/hybrid/): only their lists are read.
  template <typename G>
    requires GatherOperator<G, V>
  double gather_apply_range(const G& op, uint64_t begin, uint64_t end, int threads) {
    check_can_gather();
    const ResidentRange resident = resident_range_of<G>(true);
    RangePlan& r = range_plan_;
    if (!r.made || r.first != begin || r.last != end || r.resident != resident)
      r = {{plan_range(graph_.in_edges().offsets.data(), begin, end, capacity_, resident), resident, true}, begin, end};
    return gather_windows(r.plan, op, threads);
  }

 private:
  void check_can_gather() const {
    if (!can_pull())
      throw Error("this algorithm gathers over in-edges: the directed graph needs its CSC (BuildOptions::in_edges)");
  }

  // A gather over the windows of `plan` (vertices of the in-CSR, in order).
  template <typename G>
  double gather_windows(const WindowPlan& plan, const G& op, int threads) {
    const eid_t* off = graph_.in_edges().offsets.data();
    using Acc = typename G::acc_t;
    // The running sums of a list cut between windows, from piece to piece:
    // the window's first vertex reads them in, its last writes them out.
    Acc in_even = op.zero(), in_odd = op.zero(), out_even = op.zero(), out_odd = op.zero();
    double total = 0;
    uint64_t edges = 0;
    for_each_window<G>(plan, true, [&](const Window& w, const Slot& slot, const V* nbr) {
      double window_total = 0;
      uint64_t window_edges = 0;
#pragma omp parallel for schedule(dynamic, 1024) num_threads(threads) reduction(+ : window_total, window_edges) if (window_work(w) >= kSerialBelow)
      for (uint64_t v = w.first; v < w.last; ++v) {
        const V to = static_cast<V>(v);
        const bool continued = off[v] < w.begin, goes_on = off[v + 1] > w.end;
        Acc even = continued ? in_even : op.zero(), odd = continued ? in_odd : op.zero();
        eid_t e = std::max(off[v], w.begin);
        const eid_t end = std::min(off[v + 1], w.end);
        // As CpuEngine::gather_apply_range: list positions 0, 2, 4... into
        // even, 1, 3, 5... into odd, whichever piece they fall in.
        if (e < end && (e - off[v]) % 2 == 1) {
          odd = op.sum(odd, op.gather(nbr[e - slot.neighbors_first], to, weight_at<G>(slot, e)));
          ++e;
        }
        for (; e + 1 < end; e += 2) {
          even = op.sum(even, op.gather(nbr[e - slot.neighbors_first], to, weight_at<G>(slot, e)));
          odd = op.sum(odd, op.gather(nbr[e + 1 - slot.neighbors_first], to, weight_at<G>(slot, e + 1)));
        }
        if (e < end) even = op.sum(even, op.gather(nbr[e - slot.neighbors_first], to, weight_at<G>(slot, e)));
        window_edges += std::min(off[v + 1], w.end) - std::max(off[v], w.begin);
        if (goes_on) {  // at most one vertex of a window: its last
          out_even = even;
          out_odd = odd;
        } else {
          window_total += op.apply(to, op.sum(even, odd));
        }
      }
      total += window_total;
      edges += window_edges;
      in_even = out_even;
      in_odd = out_odd;
    });
    cpu_.stats().edges_traversed += edges;
    return total;
  }

  // body(window, slot, neighbours) for each window of the plan in order,
  // each read (ahead, on the reader thread) from the out-CSR's sections or
  // the in-CSR's (`in`), with weights where Op reads them, or found in the
  // resident edges.
  template <typename Op, typename Body>
  void for_each_window(const WindowPlan& plan, bool in, Body body) {
    PageStream stream(file_, buffers_, resident_, sections<Op>(in), plan, paging_, id_check());
    for (uint64_t k = 0; k < plan.windows.size(); ++k) {
      const Slot slot = stream.acquire(k);
      body(plan.windows[k], slot, reinterpret_cast<const V*>(slot.neighbors));
      stream.release(k);
    }
  }

  // A window's vertices and edges: below kSerialBelow the calling thread
  // alone processes it.
  static uint64_t window_work(const Window& w) { return (w.last - w.first) + (w.end - w.begin); }

  template <typename Op>
  static weight_t weight_at(const Slot& slot, eid_t e) {
    if constexpr (Op::needs_weights) return reinterpret_cast<const weight_t*>(slot.weights)[e - slot.weights_first];
    return 1.0f;
  }

  // The sections of the out-CSR, or of the in-CSR (the out-CSR's own for an
  // undirected graph); the weights only where the operator reads them.
  template <typename Op>
  StepSections sections(bool in) const {
    const bool csc = in && graph_.directed;
    const int nbr = csc ? formats::kInNeighbors : formats::kOutNeighbors;
    const int w = csc ? formats::kInWeights : formats::kOutWeights;
    return {nbr, Op::needs_weights ? w : -1, static_cast<uint32_t>(sizeof(V))};
  }

  PageStream::IdCheck id_check() const {
    return [this](const char* bytes, uint64_t count) {
      check_ids_read(file_, bytes, static_cast<uint32_t>(sizeof(V)), count, n_);
    };
  }

  // The step's resident edges: its windows end at their edges, not across.
  template <typename Op>
  ResidentRange resident_range_of(bool in) const {
    return resident_range(resident_, sections<Op>(in));
  }

  // Every vertex of the in-CSR (`in`) or the out-CSR: the same plan each
  // step that reads the same sections.
  template <typename Op>
  const WindowPlan& every_vertex(bool in) {
    CachedPlan& c = in ? in_plan_ : out_plan_;
    const ResidentRange resident = resident_range_of<Op>(in);
    if (!c.made || c.resident != resident) {
      c.plan = plan_all((in ? graph_.in_edges() : graph_.out).offsets.data(), n_, capacity_, resident);
      c.resident = resident;
      c.made = true;
      c.cost.reset();
    }
    return c.plan;
  }

  Frontier sorted_members(const Frontier& f) {
    if (f.kind == Frontier::Kind::kSparse) {
      Frontier s = f;
      std::sort(s.list.begin(), s.list.end());
      return s;
    }
    return cpu_.filter(f, [](V) { return true; });  // a bitmap's members come out in id order
  }

  // Top-down over out-edges from `members` (sorted), or from every vertex.
  template <typename Op>
  Frontier push(const Frontier* members, const Op& shared_op, bool want_output) {
    const eid_t* off = graph_.out.offsets.data();
    WindowPlan list_plan;
    if (members != nullptr)
      list_plan = plan_list(off, members->list.data(), members->list.size(), capacity_, resident_range_of<Op>(false));
    const WindowPlan& plan = members != nullptr ? list_plan : every_vertex<Op>(false);
    const V* list = members != nullptr ? members->list.data() : nullptr;
    const bool once = claims_once(shared_op);  // no repeats to remove
    uint8_t* flags = once || !want_output ? nullptr : cpu_.zeroed_flags();
    std::vector<std::vector<V>> found(omp_get_max_threads());
    uint64_t edges = 0;
    for_each_window<Op>(plan, false, [&](const Window& w, const Slot& slot, const V* nbr) {
      uint64_t window_edges = 0;
#pragma omp parallel reduction(+ : window_edges) if (window_work(w) >= kSerialBelow)
      {
        const Op op = shared_op;
        std::vector<V>& mine = found[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 64) nowait
        for (uint64_t i = w.first; i < w.last; ++i) {
          const V u = list != nullptr ? list[i] : static_cast<V>(i);
          const eid_t begin = std::max(off[u], w.begin), end = std::min(off[u + 1], w.end);
          for (eid_t e = begin; e < end; ++e) {
            const V v = nbr[e - slot.neighbors_first];
            if (!op.cond(v)) continue;
            if (op.update_atomic(u, v, weight_at<Op>(slot, e)) && want_output &&
                (once || __atomic_exchange_n(&flags[v], uint8_t{1}, __ATOMIC_RELAXED) == 0))
              mine.push_back(v);
          }
          window_edges += end - begin;
        }
      }
      edges += window_edges;
    });
    cpu_.stats().edges_traversed += edges;
    Frontier out;
    if (!want_output) return out;
    for (const std::vector<V>& part : found) out.list.insert(out.list.end(), part.begin(), part.end());
    if (!once)
      for (V v : out.list) flags[v] = 0;
    out.count = out.list.size();
    return out;
  }

  // Bottom-up over in-edges: every vertex with cond(v) looks for members of
  // the frontier (`members`, or every vertex) among its in-neighbours.
  template <typename Op>
  Frontier pull(const Frontier* members, const Op& shared_op, bool want_output) {
    const eid_t* off = graph_.in_edges().offsets.data();
    const uint64_t words = (n_ + 63) / 64;
    RecycledVector<uint64_t> member_bits;
    if (members != nullptr) {
      member_bits.assign(words, 0);
      for (V u : members->list) member_bits[u / 64] |= uint64_t{1} << (u % 64);
    }
    const uint64_t* member = members != nullptr ? member_bits.data() : nullptr;
    Frontier out;
    out.kind = Frontier::Kind::kDense;
    if (want_output) out.bits.assign(words, 0);
    uint64_t* out_bits = out.bits.data();
    uint64_t edges = 0;
    Frontier pulling;
    WindowPlan pulling_plan;
    const bool few = few_pull(shared_op, off, pulling, pulling_plan);
    const V* list = few ? pulling.list.data() : nullptr;
    for_each_window<Op>(few ? pulling_plan : every_vertex<Op>(true), true, [&](const Window& w, const Slot& slot,
                                                                                 const V* nbr) {
      uint64_t window_edges = 0;
#pragma omp parallel reduction(+ : window_edges) if (window_work(w) >= kSerialBelow)
      {
        const Op op = shared_op;
        const eid_t limit = list_limit(op);
#pragma omp for schedule(dynamic, 256) nowait
        for (uint64_t i = w.first; i < w.last; ++i) {
          const uint64_t v = list != nullptr ? list[i] : i;
          const V to = static_cast<V>(v);
          if (!op.cond(to)) continue;
          const eid_t begin = std::max(off[v], w.begin), end = std::min(list_end(off[v], off[v + 1], limit), w.end);
          if (begin >= end) continue;
          eid_t e = begin;
          for (; e < end; ++e) {
            const V u = nbr[e - slot.neighbors_first];
            if (member != nullptr && !((member[u / 64] >> (u % 64)) & 1)) continue;
            if (op.update(u, to, weight_at<Op>(slot, e)) && want_output)
              __atomic_fetch_or(&out_bits[v / 64], uint64_t{1} << (v % 64), __ATOMIC_RELAXED);
            if (!op.cond(to)) {
              ++e;
              break;
            }
          }
          window_edges += e - begin;
        }
      }
      edges += window_edges;
    });
    cpu_.stats().edges_traversed += edges;
    if (!want_output) return Frontier{};
    uint64_t count = 0;
#pragma omp parallel for schedule(static) reduction(+ : count)
    for (uint64_t i = 0; i < words; ++i) count += __builtin_popcountll(out_bits[i]);
    out.count = count;
    return out;
  }

  // Whether a pull reads only the lists of the vertices it serves (cond
  // true, a list to read; into `out`, sorted, and their plan), not the
  // whole in-edge array: where their lists hold at most half of the edges
  // and their reads cost less (read_cost_bytes). Past a BFS's peak level
  // few vertices are unreached, and after CC's first pass few unlinked:
  // kron:22 from disk, a BFS read 1.01 GB where whole passes read 1.37, CC
  // 0.54 where 0.94 (docs/PERF.md "Pulls over only the lists they serve").
  template <typename Op>
  bool few_pull(const Op& shared_op, const eid_t* off, Frontier& out, WindowPlan& plan) {
    uint64_t edges = 0;
#pragma omp parallel reduction(+ : edges)
    {
      const Op op = shared_op;
#pragma omp for schedule(static)
      for (uint64_t v = 0; v < n_; ++v)
        if (off[v + 1] > off[v] && op.cond(static_cast<V>(v))) edges += off[v + 1] - off[v];
    }
    if (2 * edges > off[n_]) return false;
    // The members of every vertex's frontier come out in id order.
    out = cpu_.filter(cpu_.all(), [&](V v) { return off[v + 1] > off[v] && shared_op.cond(v); });
    const ResidentRange resident = resident_range_of<Op>(true);
    plan = plan_list(off, out.list.data(), out.list.size(), capacity_, resident);
    const uint64_t read_cost = file_.read_cost_bytes();
    every_vertex<Op>(true);
    if (!in_plan_.cost)
      in_plan_.cost = read_cost_bytes(in_plan_.plan, sizeof(V), resident, read_cost);
    if (read_cost_bytes(plan, sizeof(V), resident, read_cost) >= *in_plan_.cost) return false;
    paging_.partial_pulls++;
    return true;
  }

  const Graph<V>& graph_;
  CpuEngine<V> cpu_;
  const EdgeFile& file_;
  PageBuffers& buffers_;
  ResidentEdges& resident_;
  uint64_t n_;
  uint64_t capacity_;
  struct CachedPlan {
    WindowPlan plan;
    ResidentRange resident;  // the resident edges it was made for
    bool made = false;
    std::optional<uint64_t> cost;  // read_cost_bytes, once asked
  };
  CachedPlan in_plan_, out_plan_;  // every vertex
  struct RangePlan : CachedPlan {
    uint64_t first = 0, last = 0;  // the vertices it serves
  };
  RangePlan range_plan_;  // gather_apply_range's last range
  PagingStats paging_;
  bool pulled_last_ = false;  // for the direction policy's hysteresis
};

}  // namespace tg::paged
