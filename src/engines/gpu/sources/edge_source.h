// Edge sources: where the GPU engine's edges live and how a step reaches
// them, behind one interface. The engine (gpu_engine.cuh) owns frontiers,
// the direction policy, the output set and the accounting of a step; a
// source owns the edges and runs the step's kernels over them:
//
//   ResidentSource (resident_source.cuh): the edge arrays stay where the
//     placement put them (device memory, managed memory, pinned host memory
//     read by zero-copy); a step is one launch of the kernel for that access.
//   StreamedSource (streamed_source.cuh): the edges stay in pinned host
//     memory and each step copies the part it needs into device buffers
//     (Subway's SubCSR pieces, or partitions), then runs the device-memory
//     kernel on each loaded unit; --async iterates within each unit.
//
// A source is configured from the graph's placement and from what the run
// reads (EdgeReads: out-edges, in-edges, weights), never from which
// algorithm runs.
#pragma once

#include <concepts>
#include <cstdint>
#include <memory>

#include "engines/engine.h"
#include "engines/run_stats.h"

namespace tg::gpu {

// A push step as the engine hands it over: the frontier (a sorted or
// unsorted list of distinct vertices, or every vertex) and where the output
// set goes.
template <typename V>
struct PushInput {
  const V* frontier = nullptr;  // device; null: every vertex 0..count-1
  uint64_t count = 0;
  uint64_t frontier_edges = 0;  // the sum of the frontier's out-degrees
  bool want_output = true;
  uint32_t* out_bits = nullptr;  // all zero on entry: the output set, one bit per vertex
  V* out_queue = nullptr;        // n entries, or null: the engine reads the set from out_bits
};

// A pull step: the input frontier as a bitmap; every word of out_bits is written.
template <typename V>
struct PullInput {
  const uint32_t* in_bits = nullptr;
  uint32_t* out_bits = nullptr;
};

// What a step did, for the output frontier and the run's statistics.
struct StepOutcome {
  uint64_t out_count = 0;      // vertices in the output set
  uint64_t edges = 0;          // edge entries read
  uint64_t bytes_moved = 0;    // across the host-GPU link
  uint64_t cache_bytes = 0;    // read from the resident edge cache in GPU memory (zero-copy; streamed: its heads cache)
  uint64_t link_requests = 0;  // zero-copy: distinct 128-byte lines per warp load
};

template <typename S, typename V>
concept EdgeSource = requires(S& s, const S& cs, const PushInput<V>& push, const PullInput<V>& pull, double* residual,
                              RunStats& stats) {
  { cs.can_pull() } -> std::same_as<bool>;    // in-edges present: pull steps and gathers
  { cs.out_offsets() } -> std::same_as<const eid_t*>;  // device memory, n + 1 entries
  { s.push(push, contract::AnyEdgeOp<V>{}) } -> std::same_as<StepOutcome>;
  { s.pull(pull, contract::AnyEdgeOp<V>{}) } -> std::same_as<StepOutcome>;
  // Sums every in-edge into every vertex, applies, and adds apply's results to *residual.
  { s.gather(contract::AnyGatherOp<V>{}, residual) } -> std::same_as<StepOutcome>;
  s.report(stats);  // the source's own statistics, after the run
};

}  // namespace tg::gpu
