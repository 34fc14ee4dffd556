// What every reader and generator produces: a list of edges with 64-bit ids,
// before the builder turns it into CSR with the narrowest vertex id type.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/types.h"

namespace tg {

struct EdgeList {
  // |V|: the largest id + 1, unless the format states it (.mtx, .gr, .sg).
  uint64_t num_vertices = 0;
  std::vector<uint64_t> src;
  std::vector<uint64_t> dst;
  std::vector<weight_t> weights;  // empty when the graph is unweighted
  // False when the format says each edge stands for both directions
  // (symmetric Matrix Market); the builder then adds the reverse edges.
  bool directed = true;
  // 1 for formats whose ids start at 1 (.mtx, .gr): results are written with
  // the file's own ids, internal ids are always 0-based.
  int id_base = 0;
  std::string name;  // shown in summaries: file name or generator spec

  uint64_t num_edges() const { return src.size(); }
  bool weighted() const { return !weights.empty(); }
};

// Unweighted edges made on demand, a block at a time, instead of held: the
// builder reads them twice (to count each vertex's edges, then to place
// them), so a graph is built with one copy of itself in memory, not its edge
// list beside it (16 bytes an edge: 69 GB at Kronecker scale 28).
struct EdgeBlocks {
  uint64_t num_vertices = 0;
  uint64_t num_edges = 0;
  uint64_t num_blocks = 0;
  uint64_t block_size = 0;  // edges a block holds at most
  bool directed = true;
  std::string name;
  // Fills src and dst (block_size entries each) with block b's edges, every
  // id below num_vertices, and returns how many; the same edges each time,
  // called from several threads at once.
  std::function<uint64_t(uint64_t block, uint64_t* src, uint64_t* dst)> fill;
};

}  // namespace tg
