#include "planner/work_model.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace tg::planner {

GraphFacts facts_of(const AnyGraph& any) {
  return std::visit(
      [](const auto& g) {
        GraphFacts f;
        static_cast<GraphSize&>(f) = size_of(g);
        const auto& off = g.out.offsets;
        if (off.size() == g.num_vertices + 1) {
          for (uint64_t v = 0; v < g.num_vertices; ++v) f.vertices_with_edges += off[v + 1] > off[v];
        }
        return f;
      },
      any);
}

namespace {

// Levels of a breadth-first search on a small-world graph: log base the mean
// degree of the vertex count, and a few more for the tail.
double bfs_levels(const GraphFacts& g) {
  const double n = std::max<double>(2, double(g.vertices_with_edges));
  const double d = std::max(2.0, double(g.edges) / n);
  return std::ceil(std::log(n) / std::log(d)) + 4;
}

}  // namespace

Work estimate_work(const RunRequest& request, const GraphFacts& g, bool can_pull) {
  const std::string name = request.algorithm->name();
  const AlgorithmOptions& o = request.options;
  const double m = double(g.edges), n = double(std::max<uint64_t>(1, g.vertices_with_edges));
  const bool undirected_pull = can_pull && !g.directed;
  Work w;
  if (name == "pagerank") {
    // Every iteration gathers every in-list once. Iterations: the cap when
    // the tolerance is 0, else the cap or 20 (GAP's count), whichever is less.
    w.per = o.tolerance == 0 ? o.max_iters : std::min(o.max_iters, 20);
    w.per_name = "iteration";
    w.entries = m * w.per;
    w.lists = n * w.per;
    w.vertex_reads = m * w.per;
    w.steps = 2 * w.per;
    w.dense = true;
    w.basis = "every in-edge once per iteration, " + std::to_string(int(w.per)) + " iterations assumed";
  } else if (name == "bfs" || name == "ssnsp" || name == "bc") {
    const double passes = name == "bfs" ? 1.0 : 2.0;  // ssnsp counts paths, bc adds its backward pass
    const double sources = name == "bc" ? std::max<size_t>(1, request.sources.size()) : 1;
    // Direction-optimizing on an undirected graph: the bottom-up levels walk
    // the vertices in address order and stop at the first parent found, so
    // a fifth of the entries were read over zero-copy on kron:25 (0.18-0.22)
    // and urand:25 (0.13-0.16), hubs or not (docs/PERF.md, the cache table's
    // link bytes), and the probes test a bitmap of the frontier.
    const bool direction_optimizing = undirected_pull && name == "bfs";
    const double share = direction_optimizing ? 0.2 : 1.0;
    w.entries = m * share * passes * sources;
    w.lists = n * passes * sources;
    w.vertex_reads = w.entries;
    if (direction_optimizing) w.value_bytes = 1.0 / 8;
    w.steps = bfs_levels(g) * passes * sources;
    w.dense = direction_optimizing;
    if (direction_optimizing) w.probe_entries = w.entries;
    w.basis = direction_optimizing ? "direction-optimizing: a fifth of the entries read, in address order"
                                   : "every reached list read " + std::to_string(int(passes * sources)) + " time(s)";
  } else if (name == "sssp" || name == "sswp") {
    // Delta-stepping re-relaxes. Edges relaxed an edge on kron:25 with
    // weights 1..255 on the H100 (docs/PERF.md, sessions 16 and 17): the
    // generic loop (lists by id, the automatic width) 1.94-2.10; SSSP's split
    // by band (lists ordered by weight) 1.25-1.30 at width 64, where the
    // heavy passes turn final targets away before reading their distances
    // (two thirds of the relaxed entries on kron:16 in the CPU test of the
    // split). Vertex reads: one an edge. An edge's first relaxation reads its
    // target at random; a list relaxed again in the next round finds most of
    // its targets still cached, and atomics are issued only where the read
    // shows the value can fall (core/atomics.h): by id 2.0 relaxations an
    // edge took 69 ms where the split's 1.3 took 58 (the split has twice
    // the steps). A list read by band starts in two arrays (its weights,
    // then its ids inside the band): two list starts a read. The split runs
    // on the resident placements; the streamed ones take the generic loop,
    // and are predicted here as if they split too.
    const bool split = name == "sssp" && o.lists_by_weight;
    const double relaxed = split ? 1.3 : 2.0;
    w.entries = relaxed * m;
    w.lists = relaxed * n * (split ? 2 : 1);
    w.vertex_reads = m;
    w.steps = 4 * bfs_levels(g);
    w.basis = split ? "lists ordered by weight: light parts read about twice, heavy parts once, 1.3 entries an edge"
                    : "each list read about twice (delta-stepping's re-relaxations)";
  } else if (name == "cc") {
    if (undirected_pull && o.cc_method == CcMethod::kSampled) {
      // Afforest: two sampling rounds read two entries of each list; the
      // final linking reads the lists outside the largest component.
      // The second round's entry lies beside the first: a list is started
      // once. The final linking mostly reads lists of the few vertices outside
      // the largest tree, short ones: with a cache's heads of 2 or more
      // entries nothing crossed the link on kron:25 and urand:25.
      w.entries = 2 * n + 0.1 * m;
      w.lists = n + 0.1 * n;
      w.probe_entries = w.entries;
      w.probe_length = 2;
      w.basis = "sampled linking: 2 entries of each list, then a tenth of the edges";
    } else {
      // Linking every edge, iteration after iteration until no label changes:
      // about 5 passes (subgraph and stream on kron:24 and urand:24).
      w.per = 5;
      w.per_name = "pass";
      w.entries = w.per * m;
      w.lists = w.per * n;
      w.basis = "every edge linked in each of about 5 passes (push only)";
    }
    w.vertex_reads = 2 * w.entries;
    w.steps = 6;
    w.dense = true;
  } else {
    w.entries = m;
    w.lists = n;
    w.vertex_reads = m;
    w.steps = bfs_levels(g);
    w.basis = "unknown algorithm: one read of every list";
  }
  return w;
}

}  // namespace tg::planner
