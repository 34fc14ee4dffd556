// Garaph's shards of the in-edges (Ma et al., ATC 2017, section 3.1 and 4.1;
// ../shared/papers/garaph-cpu-gpu-hybrid.txt), for the GPU's gather: a shard
// is a range of destination vertices whose accumulators fit in one block's
// shared memory, each vertex's R adjoining copies of it, with R per shard
// from the shard's mean in-degree (the replication factor that spreads the
// block's atomic sums over more shared-memory addresses). The block reads the
// shard's in-edges in CSC order (a coalesced stream), so an edge's
// destination is its offset in the shard (IdxOff, 16 bits), not a search.
//
// Two departures from the paper, both for load balance on one GPU: a shard
// holds at most `max_edges` in-edges, so that no block is left with a page's
// worth of work while the others wait; and a list longer than that is a
// shard of its own with R = 0, gathered instead by the engine's chunked warp
// pass (a warp per piece of it, combined in order), as every long list is.
//
// Host code, so that the plan is tested without a GPU
// (tests/engines/shard_plan_test.cc); engines/gpu/gather_shards.* builds the
// IdxOff array and runs it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.h"

namespace tg {

// The GPU's limits (engines/gpu/gather_shards.*): a block's accumulators in
// 24 KiB of shared memory, the paper's C_shm / N_block at full occupancy
// (eight blocks of 256 threads share an H100's or H200's 228 KiB), and at
// most 32768 in-edges a shard (128 a thread of a block). PageRank on the H200
// (docs/PERF.md, session 36), ms an iteration at 12 / 24 / 48 KiB: kron:25
// 15.96 / 15.28 / 19.17, urand:24 9.48 / 9.07 / 11.05.
constexpr uint64_t kShardSharedBytes = 24 << 10;
constexpr uint64_t kShardEdges = 32768;

// R = 2^min(round(log2(edges / vertices)), 5), at least 1: the and
// the paper's rule (one copy a warp lane at most).
int shard_replication(uint64_t edges, uint64_t vertices);

struct ShardPlan {
  // Shard i is vertices [starts[i], starts[i + 1]); the shards cover 0 .. n
  // in order.
  std::vector<uint64_t> starts;
  // Its copies a vertex: 1, 2, 4 .. 32; 0 for a lone list longer than
  // max_edges.
  std::vector<uint8_t> replicas;
  std::vector<uint64_t> long_lists;  // the vertices of the R = 0 shards, in order
  uint64_t slots = 0;                // accumulators a block holds: a shard's vertices x R never exceed it
  uint64_t max_edges = 0;
  uint64_t shards() const { return replicas.size(); }
};

// The shards of an in-CSR of n vertices (offsets[0 .. n]), each at most
// `slots` accumulators (vertices x R; at most 65536, the IdxOff's range) and
// `max_edges` in-edges; greedy from vertex 0. `fixed_replication` (a power
// of two up to 32) gives every shard that R instead of its mean degree's
// (for measuring the rule against none, TG_SHARD_REPLICATION). Throws
// tg::Error on slots outside [32, 65536], max_edges of 0 or a fixed R that is
// not one of 1, 2, 4 .. 32.
ShardPlan plan_shards(const eid_t* offsets, uint64_t n, uint64_t slots, uint64_t max_edges, int fixed_replication = 0);

}  // namespace tg
