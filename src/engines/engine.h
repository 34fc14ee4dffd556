// The contract between algorithms and engines.
//
// An algorithm (src/algorithms/) is a driver loop plus small operator structs;
// it is a template over an Engine and never sees where the edges live. An
// engine (CPU, or GPU with one of its placements) owns vertex arrays,
// frontiers, traversal, load balancing and data movement. Every engine offers:
//
//   using vertex_t = V;
//   template <class T> using array_t = ...;       // vertex-indexed array
//   array_t<T> make_array<T>(T init);
//   T get(const array_t<T>&, V v);   void set(array_t<T>&, V v, T x);
//   std::vector<T> to_host(const array_t<T>&);
//   T* data(array_t<T>&);                        // pointer operators may use
//   Frontier single(V v);   Frontier all();   uint64_t size(const Frontier&);
//   Frontier edge_map(const Frontier&, Op, EdgeMapOptions);
//   Frontier filter(const Frontier&, Pred);     // keeps v with pred(v); a set
//   Frontier merge(const Frontier&, const Frontier&);  // union
//   void vertex_map(const Frontier&, F);         // f(v) for each v
//   double vertex_sum(F);                        // sum of f(v) over all v
//   double min_over(const Frontier&, F);         // min of f(v) over the frontier
//   double gather_apply(GatherOp);               // pull over in-edges, all v
//   const eid_t* out_offsets();                  // degrees, usable in operators
//   uint64_t num_vertices();   RunStats& stats();
//
// An edge-map operator (Ligra's edgeMap functor):
//   static constexpr bool needs_weights;
//   bool cond(V v);                     // may v still change? (pull stops early)
//   bool update(V u, V v, weight_t w);  // pull: v belongs to the caller
//   bool update_atomic(V u, V v, weight_t w);  // push: v is shared
// It returns true when v joins the output frontier. The output is a set.
// Push checks cond(v) before update_atomic too, so where an engine reads
// edges out of order cond must admit every v that an update may still change
// (BfsStep::relax_reached).
// It may also define (detected by HasBegin below)
//   void begin(V u);                    // once per input frontier vertex
// which engines call for every vertex of the input frontier before any edge
// of that step is read, in either direction. Accumulative operators move a
// vertex's pending delta there into what its edges send this step; so an
// engine must read all of a step's edges of u before it calls begin(u) again
// (an asynchronous inner iteration counts as a step of its own).
//
// A gather operator (Garaph's gather/sum/apply, for PageRank):
//   using acc_t;  acc_t zero();  acc_t gather(V u, V v, weight_t w);
//   acc_t sum(acc_t, acc_t);  double apply(V v, acc_t total);
// gather_apply returns the sum of apply's results (a residual, say).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/types.h"

namespace tg {

enum class Direction { kAuto, kPush, kPull };

// Whether an edge-map operator has the optional begin hook (see above);
// engines call it only then, so other operators cost nothing.
template <class Op, class V>
concept HasBegin = requires(const Op& op, V v) { op.begin(v); };

struct EdgeMapOptions {
  Direction direction = Direction::kAuto;
  bool output = true;  // false: the caller needs no output frontier
};

// What a run measured; every engine fills what applies to it.
struct RunStats {
  std::vector<std::pair<std::string, double>> phases_s;  // e.g. {"compute", 0.12}
  uint64_t iterations = 0;
  uint64_t edges_traversed = 0;  // edges the engine read (both directions)
  uint64_t bytes_moved = 0;      // across the host-GPU link
  uint64_t bytes_needed = 0;     // bytes of the edges the algorithm needed
  uint64_t push_steps = 0;
  uint64_t pull_steps = 0;
  nlohmann::json details = nlohmann::json::object();  // engine-specific extras

  void add_phase(const std::string& name, double seconds) {
    for (auto& p : phases_s)
      if (p.first == name) {
        p.second += seconds;
        return;
      }
    phases_s.emplace_back(name, seconds);
  }
  double phase(const std::string& name) const {
    for (const auto& p : phases_s)
      if (p.first == name) return p.second;
    return 0;
  }
};

}  // namespace tg
