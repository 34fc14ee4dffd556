// Random sources for source-based algorithms, as GAP's benchmark picks them:
// vertices drawn uniformly with a seeded generator, kept when they have
// out-edges (a source without any measures nothing) and were not drawn
// before. bench and `run --sources K` share it, so the same seed gives the
// same sources in both.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/graph.h"

namespace tg {

constexpr uint64_t kDefaultSourceSeed = 27491095;

// Up to `count` distinct sources (fewer if the graph has fewer vertices with
// out-edges; vertex 0 when it has none at all; empty for an empty graph).
std::vector<uint64_t> pick_sources(const AnyGraph& graph, int count, uint64_t seed = kDefaultSourceSeed);

// The source of a run that names none (`run` without --source, the library
// API without sources): vertex 0 when it has out-edges, else the first vertex
// that has, else 0. Throws an input error for a graph without vertices.
uint64_t default_source(const AnyGraph& graph);

}  // namespace tg
