// The contract between algorithms and engines, as C++20 concepts: an engine
// that breaks it fails to compile, and so does an operator.
//
// An algorithm (src/algorithms/) is a driver loop plus small operator structs;
// it is a template over an Engine and never sees where the edges live. An
// engine (the CPU engine, or the GPU engine over one of its edge sources)
// owns vertex arrays, frontiers, traversal, load balancing and data movement.
//
// Semantics every engine keeps (tests/engines/contract_*: the same suite runs
// on every engine and placement):
//  - A frontier is a set of vertices. single(v), all(), filter, merge and
//    edge_map return sets; size() counts distinct members.
//  - edge_map(f, op, options) applies op over the edges of f's vertices in
//    the direction the policy of direction.h picks: push over out-edges
//    (update_atomic(u, v, w) for each u in f, edge u -> v, where cond(v)) or
//    pull over in-edges (for each v with cond(v), update(u, v, w) for its
//    in-neighbours u in f, one thread per v, stopping once cond(v) is false).
//    It returns the set of v for which an update returned true; with
//    options.output false it returns the empty frontier (updates still run).
//    Direction::kPull where the engine cannot pull is an error (tg::Error),
//    never a silent push.
//  - Before any edge of a step is read, op.begin(u) runs once for every u in
//    the input frontier (only where Op defines begin: HasBegin). An engine
//    reads all of a step's edges of u before it calls begin(u) again (an
//    asynchronous inner iteration counts as a step of its own).
//  - vertex_map(f, fn) calls fn(v) once per member; vertex_sum(fn) sums fn(v)
//    over all vertices; min_over(f, fn) is the minimum over f (inf if empty).
//  - gather_apply(g) folds, for every vertex v, g.gather(u, v, w) over its
//    in-edges with g.sum from g.zero(), in any order and grouping (sum is
//    taken to be associative and commutative, zero its identity), calls
//    g.apply(v, total) once, and returns the sum of apply's results. It needs
//    in-edges (an error without). gather only reads and apply(v, .) writes
//    only v's data, so vertices may be gathered and applied in any split:
//    the hybrid engine (engines/hybrid/) gathers some on the GPU and the rest
//    on the CPU at once.
//  - symmetric() says every edge is stored in both directions (an undirected
//    graph), so the out-edges are also the in-edges.
//  - Arrays are made with a value for every vertex; data(a) is a pointer the
//    operators may use (device memory on the GPU), get/set/to_host reach
//    them from the driver (get_many(a, vertices): the values at a few
//    vertices, in their order, with one wait for all of them where get
//    waits for each); to_host<Out>(a) converts each value to Out, into
//    a ResultVector (core/recycled_vector.h: a std::vector that skips the
//    zero-fill).
//
// An optional operation an engine may bring where its own beats the generic
// form built from the ones above (with the generic form's results; the tests
// run both): settle_in_order(start, key, relax, stop_after) (algorithms/
// settle_in_order.h; the CPU engine has it), which may stop once
// `stop_after` buckets are settled (0: never) and says so in an OrderedStop
// (below), for checkpoints between buckets. split(f, first, second) (below;
// the GPU engine).
#pragma once

#include <concepts>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "core/recycled_vector.h"
#include "core/types.h"
#include "engines/direction.h"
#include "engines/run_stats.h"

namespace tg {

// Where an engine's own ordered loop (settle_in_order above) ended: the
// buckets it settled, and whether it stopped at `stop_after` with buckets
// still waiting, after settling bucket `last_bucket` (a key).
struct OrderedStop {
  uint64_t buckets = 0;
  bool stopped = false;
  double last_bucket = 0;
};

struct EdgeMapOptions {
  Direction direction = Direction::kAuto;
  bool output = true;  // false: the caller needs no output frontier
};

// Ligra's edgeMap functor. update returns true when v joins the output; push
// checks cond(v) before update_atomic too, so where an engine reads edges out
// of order cond must admit every v that an update may still change
// (BfsStep::relax_reached).
template <typename Op, typename V>
concept EdgeOperator = requires(const Op& op, V u, V v, weight_t w) {
  { Op::needs_weights } -> std::convertible_to<bool>;
  { op.cond(v) } -> std::same_as<bool>;
  { op.update(u, v, w) } -> std::same_as<bool>;         // pull: v belongs to the caller
  { op.update_atomic(u, v, w) } -> std::same_as<bool>;  // push: v is shared
};

// The optional begin hook of an edge-map operator (see above); engines call
// it only where it exists, so other operators cost nothing.
template <typename Op, typename V>
concept HasBegin = requires(const Op& op, V v) { op.begin(v); };

// The optional prefetch hooks of an operator or a priority key: prefetch(v)
// asks for the cache line that a push's update of target v (or the key of
// v) will read, prefetch_source(u) the line that a pull's update or a
// gather reads of source u; an engine that knows which vertices come next
// starts their misses early (engines/cpu/lookahead.h). Host only; without
// the hook a call costs nothing (BFS's pull reads a frontier bitmap, not
// the sources' depths, so it has none).
template <typename Op, typename V>
inline void prefetch_state(const Op& op, V v) {
  if constexpr (requires { op.prefetch(v); }) op.prefetch(v);
}
template <typename Op, typename V>
concept PrefetchesSources = requires(const Op& op, V u) { op.prefetch_source(u); };

// The optional claims_once hint of an edge-map operator: true where
// update_atomic returns true for a target at most once per step (BFS's
// compare-and-swap from unreached), so an engine need not remove repeats
// from the output frontier. Without the hint, or where it says false,
// engines remove them.
template <typename Op>
TG_HD bool claims_once(const Op& op) {
  if constexpr (requires { op.claims_once(); }) return op.claims_once();
  else return false;
}

// The optional list_limit hint of an edge-map operator: a step may read only
// the first list_limit() entries of each list (CC's sampling links a vertex's
// first two neighbours). Pulls honour it on every engine; pushes on the GPU's
// first pass (a list a GPU push defers to its chunk pass, longer than a chunk,
// is read whole, as are lists on the CPU engines' pushes). An engine that
// ignores it reads on, so the operator must stay correct when it sees more
// edges (it only costs time); engines that honour it spare the operator a
// per-vertex count of the edges it has seen. Without the hint, no limit.
template <typename Op>
constexpr bool kHasListLimit = requires(const Op& op) { op.list_limit(); };
template <typename Op>
TG_HD eid_t list_limit(const Op& op) {
  if constexpr (kHasListLimit<Op>) return static_cast<eid_t>(op.list_limit());
  else return ~eid_t{0};
}
// Where a step stops reading the list [begin, end) under that limit.
TG_HD eid_t list_end(eid_t begin, eid_t end, eid_t limit) { return end - begin > limit ? begin + limit : end; }

// The optional band() hint of an edge-map operator: it needs only edges of
// weight in [from, below), and relaxing others does no harm (only work), so
// an engine may ignore the hint. Where `ordered`, every out-list is
// ascending by weight (graph/weight_order.h), and an engine that honours
// the hint reads of each list only the entries inside the band (the GPU's
// resident placements: kernels/push.cuh), except that a list (or a piece of
// a long one) it reads in one go anyway is read whole by the band that
// starts at 0 and not at all by the others: for the split of SSSP's light
// and heavy edges (algorithms/settle_in_order.h), where every vertex is
// relaxed by the light band after its last change, this keeps each short
// list to one read.
struct WeightBand {
  weight_t from = 0;
  weight_t below = std::numeric_limits<weight_t>::infinity();
  bool ordered = false;
  TG_HD bool holds(weight_t w) const { return w >= from && w < below; }
  // No upper end: past the band's first entry an ordered list lies in it.
  TG_HD bool open_above() const { return !(below < std::numeric_limits<weight_t>::infinity()); }
};
template <typename Op>
concept HasWeightBand = requires(const Op& op) {
  { op.band() } -> std::convertible_to<WeightBand>;
};
// An engine that reads only a band's entries of ordered lists in its
// edge_map where walks_weight_bands() says so (a runtime answer: the GPU
// engine's streamed placements copy whole lists, and do not).
template <typename E>
concept WalksWeightBands = requires(const E& e) {
  { e.walks_weight_bands() } -> std::convertible_to<bool>;
};
// An engine that may keep each list's entries under a weight apart, as lists
// of their own that a band from 0 up to that weight reads alone (a runtime
// answer, 0 where it does not: the GPU engine's subgraph placement, given
// EdgeReads::light_below). Its lists are not ordered by weight, so the other
// band reads whole lists.
template <typename E>
concept KeepsLightLists = requires(const E& e) {
  { e.light_lists_below() } -> std::convertible_to<weight_t>;
};
// An engine that prefers few steps, but on a source whose steps move each
// re-read list again (a runtime answer: the GPU engine's subgraph
// placement copies every round's active lists), scales a picked wide bucket
// width by bucket_width_scale(): fewer re-relaxations, fewer bytes moved.
template <typename E>
concept ScalesBucketWidth = requires(const E& e) {
  { e.bucket_width_scale() } -> std::convertible_to<double>;
};

// The optional written() hint of a gather operator: the vertex arrays its
// apply writes, as pointers (an array of const void*). An engine that keeps
// vertex data in two places (the hybrid engine) then exchanges only these
// after a split gather; without the hint it exchanges every array the
// operator points to. Arrays the hint leaves out must be only read. A
// function given to vertex_map or vertex_sum may carry it too (an empty one:
// it only reads), so that the other copy stays current.
template <typename G>
concept HasWritten = requires(const G& g) {
  { g.written() };
};

// The optional source_values hint of a gather operator: gather(u, v, w) is
// from_value(source_values()[u], v, w), one value read per source, and the
// values do not change during a gather. An engine may then read some
// sources' values from a copy nearer its threads (the GPU engine holds the
// first ids' values in a cluster's shared memory where the ids run hubs
// first: kernels/gather.cuh, staged_values.h). Without it, gather() reads.
template <typename G, typename V>
concept GathersSourceValues = requires(const G& g, V v, weight_t w) {
  { g.source_values() };
  { g.from_value(g.source_values()[0], v, w) } -> std::same_as<typename G::acc_t>;
};

// The optional sums_by_addition hint of a gather operator (`static constexpr
// bool sums_by_addition = true`): sum(a, b) is a + b on an arithmetic acc_t,
// so a GPU may fold into shared memory with its atomic add instead of a
// compare-and-swap loop over sum() (Garaph's shards, engines/shard_plan.h).
template <typename G>
concept SumsByAddition = requires { requires G::sums_by_addition; };

// The optional forest() hint of an edge-map operator: the parent array of a
// disjoint-set forest (core/forest.h) that its updates change only through
// forest_link, writing no other array. The unions of a step then commute:
// engines may each push part of the step's edges into their own copy of the
// forest, and linking every vertex to its parent in the other copy
// afterwards gives the forest of the whole step (the hybrid engine splits
// CC's push of every edge so). Without the hint an engine runs the step whole.
template <typename Op>
concept HasForest = requires(const Op& op) {
  { *op.forest() };
};

// Garaph's gather/sum/apply, for PageRank-like programs.
template <typename G, typename V>
concept GatherOperator = requires(const G& g, V u, V v, weight_t w, typename G::acc_t a) {
  { G::needs_weights } -> std::convertible_to<bool>;
  { g.zero() } -> std::same_as<typename G::acc_t>;
  { g.gather(u, v, w) } -> std::same_as<typename G::acc_t>;
  { g.sum(a, a) } -> std::same_as<typename G::acc_t>;
  { g.apply(v, a) } -> std::convertible_to<double>;
};

// An engine whose steps cost far more than their edges (the GPU engine: a
// few launches and copies each) declares `static constexpr bool
// kPrefersFewSteps = true`; algorithms with a choice (sssp's bucket width)
// then take fewer, wider steps.
template <typename E>
concept PrefersFewSteps = requires { requires E::kPrefersFewSteps; };

// An engine whose arrays live in host memory (the CPU engine) declares
// `static constexpr bool kHostArrays = true`: a checkpoint reads and restores
// them in place (checkpoint/checkpoint.h).
template <typename E>
concept HostArrays = requires { requires E::kHostArrays; };

// An engine whose arrays live elsewhere (GPU memory) copies a checkpoint's
// bytes across: copy_to_host(host, data(a) + i, bytes) and
// copy_from_host(data(a) + i, host, bytes). Engines with neither refuse
// --checkpoint.
template <typename E>
concept CopiesArrays = requires(E& e, void* to, const void* from, size_t bytes) {
  e.copy_to_host(to, from, bytes);
  e.copy_from_host(to, from, bytes);
};

namespace contract {
// Archetypes: the least an operator provides, to state what an engine takes.
template <typename V>
struct AnyEdgeOp {
  static constexpr bool needs_weights = false;
  bool cond(V) const;
  bool update(V, V, weight_t) const;
  bool update_atomic(V, V, weight_t) const;
};
template <typename V>
struct AnyGatherOp {
  using acc_t = double;
  static constexpr bool needs_weights = false;
  acc_t zero() const;
  acc_t gather(V, V, weight_t) const;
  acc_t sum(acc_t, acc_t) const;
  double apply(V, acc_t) const;
};
template <typename V>
struct AnyVertexFn {
  void operator()(V) const;
};
template <typename V>
struct AnyPredicate {
  bool operator()(V) const;
};
template <typename V>
struct AnyValue {
  double operator()(V) const;
};
}  // namespace contract

template <typename E>
concept Engine = requires(E& e, const E& ce, typename E::vertex_t v, const typename E::Frontier& f,
                          typename E::template array_t<double>& a) {
  typename E::vertex_t;
  typename E::Frontier;
  requires std::default_initializable<typename E::Frontier>;  // the empty frontier
  { e.template make_array<double>(0.0) } -> std::same_as<typename E::template array_t<double>>;
  { e.get(a, v) } -> std::same_as<double>;
  { e.get_many(a, std::span<const typename E::vertex_t>{}) } -> std::same_as<std::vector<double>>;
  e.set(a, v, 1.0);
  { e.data(a) } -> std::same_as<double*>;
  { e.to_host(a) } -> std::same_as<ResultVector<double>>;
  { e.template to_host<float>(a) } -> std::same_as<ResultVector<float>>;

  { e.single(v) } -> std::same_as<typename E::Frontier>;
  { e.all() } -> std::same_as<typename E::Frontier>;
  { ce.size(f) } -> std::same_as<uint64_t>;
  { e.filter(f, contract::AnyPredicate<typename E::vertex_t>{}) } -> std::same_as<typename E::Frontier>;
  { e.merge(f, f) } -> std::same_as<typename E::Frontier>;
  e.vertex_map(f, contract::AnyVertexFn<typename E::vertex_t>{});
  { e.vertex_sum(contract::AnyValue<typename E::vertex_t>{}) } -> std::same_as<double>;
  { e.min_over(f, contract::AnyValue<typename E::vertex_t>{}) } -> std::same_as<double>;

  { e.edge_map(f, contract::AnyEdgeOp<typename E::vertex_t>{}, EdgeMapOptions{}) } -> std::same_as<typename E::Frontier>;
  { e.gather_apply(contract::AnyGatherOp<typename E::vertex_t>{}) } -> std::same_as<double>;
  { ce.can_pull() } -> std::same_as<bool>;

  { ce.out_offsets() } -> std::same_as<const eid_t*>;
  { ce.num_vertices() } -> std::same_as<uint64_t>;
  { ce.num_edges() } -> std::same_as<uint64_t>;   // of the out-CSR
  { ce.symmetric() } -> std::same_as<bool>;       // every edge stored both ways (undirected)
  { e.stats() } -> std::same_as<RunStats&>;
};

// f's members that satisfy `first`, and those that satisfy `second`: the
// two filters, or one pass of the engine's own split(f, first, second) where
// it has one (the GPU engine: one read of each member's key where two
// filters read it twice, and one wait for the counts). The predicates must
// not both hold for a vertex.
template <typename E, typename First, typename Second>
std::pair<typename E::Frontier, typename E::Frontier> split(E& engine, const typename E::Frontier& f, First first,
                                                            Second second) {
  if constexpr (requires { engine.split(f, first, second); }) return engine.split(f, first, second);
  else return {engine.filter(f, first), engine.filter(f, second)};
}

}  // namespace tg
