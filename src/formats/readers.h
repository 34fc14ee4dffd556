// The readers and writers of every supported file format. Text readers return
// an EdgeList (the builder turns it into CSR); binary formats hold CSR
// already and return a Graph. Every error is a tg::Error naming the file, and
// the line or field, and what was expected.
#pragma once

#include <string>

#include "graph/edge_list.h"
#include "graph/graph.h"

namespace tg {

// SNAP-style edge list: "src dst" (weighted: "src dst weight") per line,
// spaces or tabs, '#' and '%' comment lines, 0-based ids; further numeric
// columns are ignored, non-numeric ones are errors. Reads .gz, .zst and .xz
// directly (by magic number), streaming. Parsed in parallel.
// docs/FORMATS.md has the rules of every format.
EdgeList read_edge_list(const std::string& path, bool weighted, bool progress = false);

// Matrix Market coordinate: pattern, integer or real; general or symmetric;
// 1-based. Symmetric files yield an undirected EdgeList.
EdgeList read_matrix_market(const std::string& path, bool progress = false);

// DIMACS shortest-path format: "p sp n m", "a u v w", "c" comments; 1-based.
EdgeList read_dimacs(const std::string& path, bool progress = false);

// GAP's serialized graphs (.sg unweighted, .wsg weighted).
AnyGraph read_gap_graph(const std::string& path, bool weighted);
// Writes one (gap_writer.cc): .wsg with the graph's weights, which must be
// integers in int32's range; .sg without weights. Builds a directed graph's
// in-edges first (GAP's file holds both). At most 2^31 - 1 vertices.
void write_gap_graph(AnyGraph& graph, const std::string& path, bool weighted, bool progress = false);

// tiergraph's own binary format (.tgb): versioned header with magic, sizes,
// id width, flags and a checksum.
//   kRead: read into anonymous memory on 2 MiB pages (by parallel preads,
//          checked as they arrive). The arrays are then ordinary memory:
//          the GPU registers them in place for zero-copy, and the CPU's
//          random reads into them miss the TLB far less than into the page
//          cache's 4 KiB pages of a mapping.
//   kMap:  map the file (the pages stay page cache, which the kernel may
//          evict): for --host-mem, which then reads the edges by itself.
enum class TgbLoad { kRead, kMap };
AnyGraph read_binary_graph(const std::string& path, TgbLoad how = TgbLoad::kRead);
void write_binary_graph(const AnyGraph& graph, const std::string& path, bool progress = false);

}  // namespace tg
