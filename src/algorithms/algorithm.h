// How an algorithm describes itself. Each algorithm header (bfs.h, sssp.h,
// ...) holds, beside its operators and driver, one descriptor struct:
//
//   struct Bfs {
//     using value_t = int32_t;                         // one result per vertex
//     static constexpr AlgorithmTraits traits{...};    // name, sources, weights, unreached, ...
//     static EdgeReads reads(const AlgorithmOptions&); // the edges its chosen form reads
//     template <typename V> using operators = OperatorList<BfsStep<V>>;  // for the GPU build
//     template <typename Engine>
//     static ResultVector<value_t> run(Engine&, const Sources&, const AlgorithmOptions&);
//     static Verification verify(const AnyGraph&, const Sources&, std::span<const value_t>,
//                                const AlgorithmOptions&);        // its *_verifier.cc
//     static std::string describe(const AnyGraph&, std::span<const value_t>);  // summary line
//   };
//
// and registry.h lists the descriptors once. Everything that differs by
// algorithm (command-line choices, result files, verify, bench, reports, the
// test matrices, the GPU kernels' instantiations) is read off the
// descriptors through AlgorithmInfo below; nothing else names an algorithm.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <variant>
#include <span>
#include <vector>

#include "core/named_choice.h"
#include "core/recycled_vector.h"
#include "graph/graph.h"

namespace tg {

class Checkpointer;  // checkpoint/checkpoint.h

// How cc links components (cc.h).
enum class CcMethod {
  kSampled,          // link a sample, then only the edges outside the largest component (after Afforest)
  kShiloachVishkin,  // hook every edge, round after round
};
const std::vector<NamedChoice<CcMethod>>& cc_method_choices();

// The type pagerank's pull form sends its contributions in (pagerank.h).
enum class Contributions {
  kAuto,    // float where the tolerance is 1e-6 or coarser, else double
  kFloat,   // half the bytes of the randomly read array (GAP's scores are float)
  kDouble,  // the exact sums
};
const std::vector<NamedChoice<Contributions>>& contributions_choices();

struct AlgorithmOptions {
  double tolerance = 1e-6;  // PageRank: stop when the L1 change is below this
  int max_iters = 100;      // PageRank
  double damping = 0.85;    // PageRank
  Contributions contributions = Contributions::kAuto;  // PageRank's pull form
  double delta = 0;  // SSSP and SSWP bucket width; 0 picks one from the weights (their prepare)
  // Set with an automatic delta: the narrower width for engines whose steps
  // cost little beside their edges (settle_in_order.h's bucket_width).
  double delta_narrow = 0;
  // Set by sssp's prepare: every finite weight is a whole number, so its
  // distances may run in float where exact (sssp.h).
  bool integer_weights = false;
  // Set by sssp's prepare: every out-list is ordered by weight
  // (graph/weight_order.h), so an engine that walks lists by weight band
  // reads a bucket's light edges apart from its heavy ones (sssp.h).
  bool lists_by_weight = false;
  CcMethod cc_method = CcMethod::kSampled;
  // Run the order-independent (accumulative) form where one differs (ssnsp,
  // pagerank; bfs relaxes reached vertices too); --async sets it.
  bool accumulative = false;
  // BFS: every level top-down (push), never bottom-up, on every engine
  // (--push-only): the plain BFS beside the direction-optimizing default, and
  // no in-edges read or loaded for it.
  bool push_only = false;
  // Where the run saves its state every N iterations and resumes from
  // (checkpoint/checkpoint.h; --checkpoint, --resume); null: no checkpoints.
  // Algorithms whose descriptor has checkpoint_options take it, on engines
  // with host arrays (checkpoint/vertex_state.h).
  const Checkpointer* checkpoint = nullptr;
};

// Internal (0-based) source vertices of one run.
using Sources = std::vector<uint64_t>;

// Per-vertex results, indexed by internal vertex id; which alternative an
// algorithm returns is its descriptor's value_t.
using VertexValues = std::variant<ResultVector<int32_t>, ResultVector<double>, ResultVector<float>, ResultVector<uint64_t>>;

enum class SourceUse {
  kNone,  // every vertex at once (cc, pagerank)
  kOne,   // one source
  kMany,  // one or more sources, results summed (bc)
};

// How the values read and print in result files.
enum class ValueMeaning {
  kNumber,    // as it is (shortest text that reads back exactly)
  kCount,     // a count held in a double: printed as an integer where exact
  kVertexId,  // a vertex id (cc's labels): shifted by the file's id base
};

// How far two correct results of the same run may differ (engines add in
// different orders): exact, within a relative error per vertex, or within
// an L1 distance over all vertices.
struct Agreement {
  double relative = 0;
  double l1 = 0;
};

struct AlgorithmTraits {
  std::string_view name;     // on the command line and in reports
  std::string_view aliases;  // other accepted names, space-separated
  std::string_view summary;  // one line for --help
  SourceUse sources = SourceUse::kOne;
  bool weights = false;  // reads edge weights (which must then be non-negative)
  // The value of a vertex no source reaches; when `unreached_marks_reach`,
  // exactly the unreached vertices hold it (reports count reached vertices).
  double unreached = 0;
  bool unreached_marks_reach = false;
  ValueMeaning meaning = ValueMeaning::kNumber;
  Agreement agreement;
};

// Whether a run needs a part of the graph. In-edges kIfFree: used where they
// cost nothing, that is a symmetric graph's (its out-edges) or a CSC loaded
// already, and never built or placed on a GPU for it; kIfPresent: a
// directed graph's CSC is built (or loaded) and placed for it.
enum class Need { kNo, kIfFree, kIfPresent, kYes };

// The edges a form of an algorithm reads: out-edges (push steps), in-edges
// (pull steps where present, or required by a gather), weights. Engines and
// placements are configured from this, never from the algorithm's name.
// `light_below`, where above 0: the run relaxes each out-list's entries of
// weight under it in rounds of their own (a weight band split, SSSP's light
// edges), so a placement that copies lists may keep those entries apart as
// lists of their own (the subgraph placement's light lists).
// `pushed_heads`, where above 0: on an engine that cannot pull, the run
// pushes each out-list's first `pushed_heads` entries alone (CC's sample on
// a symmetric graph), so a streamed placement may keep them in GPU memory
// (engines/gpu_footprint.h, streamed_heads_cache).
struct EdgeReads {
  Need out_edges = Need::kYes;
  Need in_edges = Need::kNo;
  bool weights = false;
  weight_t light_below = 0;
  int pushed_heads = 0;
};

// What several runs read together (one placement of the graph serves them all).
// Light lists under the widest band serve every narrower one; heads pushed
// alone, the most any run pushes (batch_reads keeps them only where every
// run pushes them).
inline EdgeReads combine(const EdgeReads& a, const EdgeReads& b) {
  auto most = [](Need x, Need y) { return static_cast<int>(x) > static_cast<int>(y) ? x : y; };
  return {most(a.out_edges, b.out_edges), most(a.in_edges, b.in_edges), a.weights || b.weights,
          a.light_below > b.light_below ? a.light_below : b.light_below,
          a.pushed_heads > b.pushed_heads ? a.pushed_heads : b.pushed_heads};
}

// What a batch of runs on one placement reads: every run's reads combined,
// with heads pushed alone only where every run pushes them, since a
// streamed placement's cache of them takes GPU memory from the edge buffers
// that the other runs need (SSSP's light lists on urand:25 would no longer
// fit their share of the budget beside CC's heads).
inline EdgeReads batch_reads(const std::vector<EdgeReads>& runs) {
  EdgeReads all{Need::kNo, Need::kNo, false};
  bool every_run_pushes_heads = !runs.empty();
  for (const EdgeReads& r : runs) {
    all = combine(all, r);
    every_run_pushes_heads = every_run_pushes_heads && r.pushed_heads > 0;
  }
  if (!every_run_pushes_heads) all.pushed_heads = 0;
  return all;
}

// A run's verdict from an algorithm's verifier (see verifier.h).
struct Verification {
  bool ok = false;
  // The first failure found, on one line, naming the vertex or edge (with the
  // file's ids, that is internal id + id_base) and the values involved; on
  // success a short summary such as "checked 34 vertices, 156 edges".
  std::string message;
};

// The GPU build instantiates its kernels for every operator an algorithm
// lists here (edge-map and gather operators alike).
template <typename... Ops>
struct OperatorList {};

enum class ValueType { kInt32, kDouble, kFloat, kUint64 };
const char* value_type_name(ValueType t);  // "int32", "double", ...

// An algorithm as the rest of the program sees it: the traits, and its
// descriptor's functions over type-erased values. Made by registry.cc from
// every descriptor of the registry.
struct AlgorithmInfo {
  AlgorithmTraits traits;
  ValueType value_type = ValueType::kDouble;
  EdgeReads (*reads)(const AlgorithmOptions&) = nullptr;
  // Fills the defaults that depend on the graph (sssp's delta) and checks the
  // options; throws a one-line tg::Error.
  void (*prepare)(const AnyGraph&, AlgorithmOptions&) = nullptr;
  // Never throws on a wrong result: a wrong size or value type is a failure.
  Verification (*verify)(const AnyGraph&, const Sources&, const VertexValues&, const AlgorithmOptions&) = nullptr;
  std::string (*describe)(const AnyGraph&, const VertexValues&) = nullptr;
  // Where the algorithm checkpoints (--checkpoint, --resume): the options
  // that change its result, as text for the checkpoint's key (the sources
  // included); throws a one-line usage error for a form that cannot resume
  // exactly. Null where the algorithm does not checkpoint.
  std::string (*checkpoint_options)(const AlgorithmOptions&, const Sources&) = nullptr;

  std::string name() const { return std::string(traits.name); }
  bool needs_source() const { return traits.sources != SourceUse::kNone; }
  bool needs_weights() const { return traits.weights; }
  // Whether vertex v of a result counts as reached (always true for
  // algorithms without a reach marker).
  bool reached(const VertexValues& values, uint64_t v) const;
};

// The registry, at run time (registry.cc): every algorithm in the order of
// registry.h, and lookup by name or alias (nullptr when unknown).
const std::vector<const AlgorithmInfo*>& all_algorithms();
const AlgorithmInfo* find_algorithm(std::string_view name);
// "bfs, sssp, ..." for messages; names and aliases for CLI11's IsMember.
std::string algorithm_list();
std::vector<std::string> algorithm_names_and_aliases();

constexpr int32_t kUnreached = -1;
constexpr double kInfDistance = std::numeric_limits<double>::infinity();
constexpr float kInfWidth = std::numeric_limits<float>::infinity();

}  // namespace tg
