#include "planner/work_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <random>
#include <string>
#include <type_traits>

#include "algorithms/pagerank_precision.h"
#include "engines/gpu/staged_values.h"
#include "graph/packed_lists.h"
#include "graph/relabel.h"

namespace tg::planner {

namespace {

// From a count of vertices by degree, the share of entries held by the k
// vertices of highest degree at k = 1, 2, 4, ... and all of them.
std::vector<std::pair<double, double>> top_shares(const std::vector<uint64_t>& vertices_of_degree, uint64_t vertices) {
  std::vector<std::pair<double, double>> shares;
  double entries = 0;
  for (size_t d = 0; d < vertices_of_degree.size(); ++d) entries += double(d) * double(vertices_of_degree[d]);
  if (entries == 0 || vertices == 0) return shares;
  uint64_t taken = 0, next = 1;
  double held = 0;
  for (size_t d = vertices_of_degree.size(); d-- > 0 && taken < vertices;) {
    uint64_t left = vertices_of_degree[d];
    while (left > 0) {
      const uint64_t step = std::min(left, std::min(next, vertices) - taken);
      taken += step;
      left -= step;
      held += double(step) * double(d);
      if (taken == std::min(next, vertices)) {
        shares.emplace_back(double(taken), held / entries);
        if (taken == vertices) break;
        next *= 2;
      }
    }
  }
  return shares;
}

}  // namespace

double GraphFacts::share_of_top(double k) const {
  const double n = std::max<double>(1, double(vertices));
  if (k >= n) return 1;
  if (k <= 0) return 0;
  if (top_degree_shares.empty()) return k / n;
  // Between powers of two the share grows about linearly with k.
  auto above = std::lower_bound(top_degree_shares.begin(), top_degree_shares.end(), std::make_pair(k, 0.0));
  if (above == top_degree_shares.end()) return 1;
  if (above == top_degree_shares.begin()) return above->second * k / above->first;
  const auto below = std::prev(above);
  return below->second + (above->second - below->second) * (k - below->first) / (above->first - below->first);
}

GraphFacts facts_of(const AnyGraph& any) {
  return std::visit(
      [](const auto& g) {
        GraphFacts f;
        static_cast<GraphSize&>(f) = size_of(g);
        const auto& off = g.out.offsets;
        if (off.size() == g.num_vertices + 1) {
          std::vector<uint64_t> vertices_of_degree;
          for (uint64_t v = 0; v < g.num_vertices; ++v) {
            const uint64_t degree = off[v + 1] - off[v];
            f.vertices_with_edges += degree > 0;
            if (degree >= vertices_of_degree.size()) vertices_of_degree.resize(degree + 1);
            ++vertices_of_degree[degree];
          }
          f.top_degree_shares = top_shares(vertices_of_degree, g.num_vertices);
          f.numbered_by_degree = numbered_by_degree(g.out, g.num_vertices);
        }
        // Every 16th list: within a few percent of the whole on kron and urand.
        using V = typename std::decay_t<decltype(g)>::vertex_t;
        if constexpr (sizeof(V) == sizeof(uint32_t))
          if (g.has_in_edges()) f.packed_in_bytes = 4 * estimate_packed_words(g.in_edges(), g.num_vertices, 16);
        if constexpr (sizeof(V) == sizeof(uint32_t)) {
          f.packed_out_bytes = g.directed ? 4 * estimate_packed_words(g.out, g.num_vertices, 16) : f.packed_in_bytes;
          f.byte_weights = g.weighted() && weights_fit_bytes(g.out);
        }
        return f;
      },
      any);
}

double GraphFacts::packed_out_entry_bytes(bool weights) const {
  if (packed_out_bytes == 0 || edges == 0 || (weights && !byte_weights)) return 0;
  // A byte a weight, and each list's weights rounded up to a word: 1.5 bytes a list on average.
  const double weight_bytes = weights ? double(edges) + 1.5 * double(vertices_with_edges) : 0;
  return (double(packed_out_bytes) + weight_bytes) / double(edges);
}

namespace {

// Levels of a breadth-first search on a small-world graph: log base the mean
// degree of the vertex count, and a few more for the tail.
double bfs_levels(const GraphFacts& g) {
  const double n = std::max<double>(2, double(g.vertices_with_edges));
  const double d = std::max(2.0, double(g.edges) / n);
  return std::ceil(std::log(n) / std::log(d)) + 4;
}

// The degrees as classes of like vertices, from the shares of the k of
// highest degree (k = 1, 2, 4, ...): each band of ranks a class of its
// count and mean degree; vertices without edges left out.
std::vector<DegreeClass> degree_classes(const GraphFacts& g) {
  std::vector<DegreeClass> classes;
  double k0 = 0, share0 = 0;
  for (const auto& [k, share] : g.top_degree_shares) {
    const double count = k - k0, degree = count > 0 ? (share - share0) * double(g.edges) / count : 0;
    if (count > 0 && degree >= 0.5) classes.push_back({count, degree});
    k0 = k;
    share0 = share;
  }
  return classes;
}

// A BFS's levels from `frontier` (vertices by degree class, highest degree
// first; the rest of each class in `unvisited`), as the engines' direction
// policy takes them. Each end of a level's frontier edges meets an edge end
// at random (the configuration model). With `draws`, a level of fewer than
// kDrawnFrontierEdges edges draws each far end's class by its share of the
// entries, a new vertex where it lands on an unvisited one, as one source's
// run goes; larger levels, and all of them without `draws`, take the
// expectation: a vertex of degree d is reached with probability
// 1 - exp(-d x edges / m). Entries and lists read past the first
// `link_heads` of each list are counted apart, leaving out the `whole_lists`
// of highest degree that a cache holds whole.
constexpr double kDrawnFrontierEdges = 1024;

std::vector<BfsLevel> bfs_levels_from(const GraphFacts& g, const std::vector<DegreeClass>& classes,
                                      std::vector<double> frontier, std::vector<double> unvisited, bool over_link,
                                      int link_heads, double whole_lists, std::mt19937_64* draws) {
  const double m = double(g.edges);
  std::vector<double> uncached(classes.size()), end_shares(classes.size());
  double above = 0;
  for (size_t i = 0; i < classes.size(); ++i) {
    uncached[i] = 1 - std::clamp((whole_lists - above) / classes[i].vertices, 0.0, 1.0);
    above += classes[i].vertices;
    end_shares[i] = classes[i].vertices * classes[i].degree;
  }
  std::discrete_distribution<size_t> far_end(end_shares.begin(), end_shares.end());
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<BfsLevel> levels;
  bool pulled = false;
  for (int level = 0; level < 1000; ++level) {
    double vertices = 0, edges = 0;
    for (size_t i = 0; i < classes.size(); ++i) {
      vertices += frontier[i];
      edges += frontier[i] * classes[i].degree;
    }
    if (vertices < 0.5 && level > 0) break;
    StepShape shape;
    shape.frontier_vertices = uint64_t(vertices);
    shape.frontier_edges = uint64_t(edges);
    shape.total_edges = g.edges;
    shape.vertices = g.vertices;
    shape.can_pull = true;
    shape.pulled_last = pulled;
    shape.pull_over_link = over_link;
    shape.link_heads = link_heads;
    shape.degree_classes = &classes;
    // In GPU memory the engine also weighs a pull's probes (every vertex
    // unvisited, each list read up to the cap) against the push's edges.
    if (!over_link) {
      shape.push_edge_cost = kGpuPushEdgeCost;
      if (needs_pull_probes(Direction::kAuto, shape)) {
        const double cap = double(pull_probes_cap(shape));
        double probes = 0;
        for (const DegreeClass& c : classes) probes += c.vertices * std::min(c.degree, cap);
        shape.pull_probes = uint64_t(probes);
      }
    }
    BfsLevel l;
    l.pull = choose_pull(Direction::kAuto, shape);
    l.frontier = vertices;
    // A pull's vertex reads its list until a frontier neighbour: of the share
    // q of edge ends in the frontier, (1 - (1 - q)^d) / q entries in a list
    // in random order; in one sorted hubs first, class by class from the
    // highest degree, each at its own share in the frontier (sorted_probes).
    const double q = std::min(1.0, edges / m);
    const double H = link_heads;
    std::vector<double> in_frontier;
    if (l.pull && g.numbered_by_degree)
      for (size_t j = 0; j < classes.size(); ++j) in_frontier.push_back(frontier[j] / classes[j].vertices);
    for (size_t i = 0; i < classes.size(); ++i) {
      const double d = classes[i].degree;
      if (!l.pull && d > H) {  // a push reads its frontier's lists past the heads
        l.lists_past_heads += frontier[i] * uncached[i];
        l.entries_past_heads += frontier[i] * uncached[i] * (d - H);
      }
      if (l.pull) {
        l.entries += unvisited[i] * (!in_frontier.empty()  ? sorted_probes(d, end_shares, in_frontier, m)
                                     : q > 0               ? std::min(d, (1 - std::pow(1 - q, d)) / q)
                                                           : d);
        l.lists += unvisited[i];
        // Probe k is read where the k - 1 before it missed: past H heads,
        // the list is read on in (1 - q)^H of cases, ((1 - q)^H - (1 - q)^d) / q entries.
        if (d > H) {
          l.lists_past_heads += unvisited[i] * uncached[i] * std::pow(1 - q, H);
          l.entries_past_heads +=
              unvisited[i] * uncached[i] * (q > 0 ? (std::pow(1 - q, H) - std::pow(1 - q, d)) / q : d - H);
        }
      }
    }
    if (draws != nullptr && edges < kDrawnFrontierEdges) {
      std::vector<double> next(classes.size());
      for (long e = std::lround(edges); e > 0; --e) {
        const size_t j = far_end(*draws);
        if (unvisited[j] >= 1 && uniform(*draws) * classes[j].vertices < unvisited[j]) {
          next[j] += 1;
          unvisited[j] -= 1;
        }
      }
      frontier = std::move(next);
    } else {
      for (size_t i = 0; i < classes.size(); ++i) {
        frontier[i] = unvisited[i] * (1 - std::exp(-classes[i].degree * edges / m));
        unvisited[i] -= frontier[i];
      }
    }
    if (!l.pull) {
      l.entries = edges;
      l.lists = vertices;
    }
    levels.push_back(l);
    pulled = l.pull;
  }
  return levels;
}

}  // namespace

// On kron:25 in GPU memory (H100, four sources each) the pulls read 21-52 M
// entries hubs first against 37-105 M in GAP's numbering (docs/PERF.md,
// session 52).
double sorted_probes(double degree, const std::vector<double>& end_shares, const std::vector<double>& in_frontier,
                     double m) {
  double read = 0, missed = 1;  // missed: no frontier neighbour among the entries read so far
  for (size_t j = 0; j < end_shares.size() && missed > 1e-12; ++j) {
    const double entries = degree * end_shares[j] / m, f = std::clamp(in_frontier[j], 0.0, 1.0);
    read += missed * (f > 0 ? (1 - std::pow(1 - f, entries)) / f : entries);
    missed *= std::pow(1 - f, entries);
  }
  return std::min(degree, read);
}

std::vector<BfsLevel> expected_bfs_levels(const GraphFacts& g, bool over_link, int link_heads, double whole_lists) {
  const std::vector<DegreeClass> classes = degree_classes(g);
  if (classes.empty() || g.edges == 0) return {};
  double with_edges = 0;
  for (const DegreeClass& c : classes) with_edges += c.vertices;
  // The source: a vertex with edges at random, as bench draws them, spread over the classes.
  std::vector<double> frontier(classes.size()), unvisited(classes.size());
  for (size_t i = 0; i < classes.size(); ++i) {
    frontier[i] = classes[i].vertices / with_edges;
    unvisited[i] = classes[i].vertices - frontier[i];
  }
  return bfs_levels_from(g, classes, frontier, unvisited, over_link, link_heads, whole_lists, nullptr);
}

std::vector<std::vector<BfsLevel>> drawn_bfs_levels(const GraphFacts& g, bool over_link, int link_heads,
                                                    double whole_lists, int sources) {
  const std::vector<DegreeClass> classes = degree_classes(g);
  std::vector<std::vector<BfsLevel>> runs;
  if (classes.empty() || g.edges == 0) return runs;
  std::vector<double> counts(classes.size());
  for (size_t i = 0; i < classes.size(); ++i) counts[i] = classes[i].vertices;
  std::discrete_distribution<size_t> source_class(counts.begin(), counts.end());
  std::mt19937_64 draws(kBfsDrawSeed);
  for (int s = 0; s < sources; ++s) {
    std::vector<double> frontier(classes.size()), unvisited = counts;
    const size_t i = source_class(draws);
    frontier[i] = 1;
    unvisited[i] -= 1;
    runs.push_back(bfs_levels_from(g, classes, frontier, unvisited, over_link, link_heads, whole_lists, &draws));
  }
  return runs;
}

namespace {

// A direction-optimizing BFS over its expected levels. Pushes read the
// frontier's lists and test-and-set their targets' parents (two accesses an
// entry, the parents' footprint; in GPU memory, where nothing else bounds
// them, an atomic's three: the engine's own price of a pushed edge in probes,
// kGpuPushEdgeCost, and urand:25's traced pushes, 62-70 ps an entry); pulls
// read each unvisited vertex's list in address order until a parent is found,
// each entry's id and a bit of the frontier's bitmap (two accesses a probe).
// A level also takes a fixed time (the launches, the frontier's counts read
// back, the passes that turn a bitmap into a queue), and in GPU memory a
// pull a pass over every vertex (its parent, and an unvisited one's offsets)
// besides: the H100 traced levels of a few vertices at 0.12-0.19 ms pushing
// at scales 24 and 25 alike, 0.11-0.14 pulling at 24 and 0.19-0.25 at 25
// (session 52, kron in both numberings and urand:25; a run's last level
// 0.04), and kron:26 took 2.0-2.2 times kron:25's time. In GPU memory 14
// steps at the profile's 12.4 us and 8 bytes a vertex a pull, fitted on the
// H100's and H200's records at scales 24-26 (every in-memory BFS cell of
// today's engine within 25%: 0.75-1.24); over a link 24 steps, fitted with
// the reads' model there (the H200's traced levels of a few vertices took
// 0.14-0.3 ms, docs/gpu-check/2026-12-02c). On urand:24 Ligra's rule pulls
// at the fourth level (1 M vertices, 0.39 of the entries probed: 180-246 M
// measured), on urand:25 it pushes there and pulls a level later (0.05).
constexpr double kStepsPerBfsLevel = 24;
constexpr double kStepsPerBfsLevelInMemory = 14;
constexpr double kPullPassBytesAVertex = 8;
// CC's sampled form (estimate_work): reads a sample's link, bytes a vertex of
// its passes over every vertex, and its fixed steps.
constexpr double kReadsPerSampleLink = 7.5;
constexpr double kCcPassBytesAVertex = 80;
constexpr double kCcSampledSteps = 40;

Work direction_optimizing_bfs(const std::vector<std::vector<BfsLevel>>& runs, const GraphFacts& g, int link_heads,
                              bool over_link) {
  Work w;
  double pushed = 0, probed = 0, levels = 0, pulls = 0;
  w.entries_past_heads = 0;
  for (const std::vector<BfsLevel>& run : runs) {
    levels += double(run.size());
    for (const BfsLevel& l : run) {
      w.entries += l.entries;
      w.lists += l.lists;
      (l.pull ? probed : pushed) += l.entries;
      pulls += l.pull;
      w.entries_past_heads += l.entries_past_heads;
      w.lists_past_heads += l.lists_past_heads;
    }
  }
  // A run's work: the runs' mean.
  const double count = double(std::max<size_t>(1, runs.size()));
  w.entries /= count;
  w.lists /= count;
  w.entries_past_heads /= count;
  w.lists_past_heads /= count;
  pushed /= count;
  probed /= count;
  w.vertex_reads = (over_link ? 2 : kGpuPushEdgeCost) * pushed;
  w.value_bytes = 4;
  w.frontier_probes = 2 * probed;
  w.probe_entries = probed;
  // The pulls walk the lists in address order; past a cache's heads the few
  // they read on lie apart, each a request of its own, but a short one: the
  // traced runs over zero-copy moved 46-76 bytes a request, entries included
  // (kron:24, kron:25 and urand:24 on the H200, docs/PERF.md "Session 48").
  w.dense = link_heads == 0;
  w.sector_a_list = true;
  w.rounds = levels / count;
  w.steps = (over_link ? kStepsPerBfsLevel : kStepsPerBfsLevelInMemory) * w.rounds;
  if (!over_link) w.vertex_pass_bytes = pulls / count * double(g.vertices) * kPullPassBytesAVertex;
  char t[200];
  std::snprintf(t, sizeof t, "direction-optimizing: %.1f levels expected%s, %.2f of the entries pushed and %.2f probed",
                w.rounds, runs.size() > 1 ? (" (the mean of " + std::to_string(runs.size()) + " drawn sources)").c_str() : "",
                pushed / std::max(1.0, double(g.edges)), probed / std::max(1.0, double(g.edges)));
  w.basis = t;
  return w;
}

// The typical hop distance between two vertices of the configuration model
// with these degrees, ln n / ln nu for nu the mean excess degree E[D^2] /
// E[D] - 1 [Newman, Strogatz and Watts, Phys. Rev. E 2001]: 4.8-5.0 on urand
// at scales 24 and 25 (nu 32), 1.8 on kron (nu 6.5 K and 8.5 K).
double typical_hops(const GraphFacts& g) {
  const double n = std::max<double>(2, double(g.vertices_with_edges));
  double sum = 0, sum_sq = 0;
  for (const DegreeClass& c : degree_classes(g)) {
    sum += c.vertices * c.degree;
    sum_sq += c.vertices * c.degree * c.degree;
  }
  const double nu = sum > 0 ? sum_sq / sum - 1 : double(g.edges) / n;
  return std::log(n) / std::log(std::max(2.0, nu));
}

}  // namespace

Work estimate_work(const RunRequest& request, const GraphFacts& g, bool can_pull, bool over_link, int link_heads,
                   double whole_lists) {
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
    // Hubs first its reads at the cache's rate, as SSSP's (below): the
    // whole-GPU records of kron:24-26 hubs first read 1.05 / 1.21 / 1.31 with
    // the colder ones at their footprint's rate, 0.93 / 0.89 / 0.84 so
    // (session 53; the staged values' share stays free).
    w.reads_at_cache_rate = g.numbered_by_degree;
    if (!o.accumulative && g.numbered_by_degree)
      w.staged_values = double(gpu::kStagedCluster) *
                        gpu::staged_per_block_for(true, true, g.vertices, pagerank_sends_floats(o) ? 4 : 8, -1);
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
    // Over a link, the mean of runs from drawn sources: on kron a run that
    // meets a hub early pulls its big level from millions of vertices, one
    // that does not pulls it from a few thousand or pushes it from the hubs,
    // and these read different lists past the cached heads (the one expected
    // trajectory read 0.6-0.66 of kron:25's measured time on both machines).
    // So in GPU memory: the one expected trajectory put kron:25's pulls at 36 M
    // entries, the drawn ones at 55 M, and the H100's traced runs read 37-105
    // M in GAP's numbering (docs/PERF.md, session 52).
    if (direction_optimizing) {
      const std::vector<std::vector<BfsLevel>> runs =
          drawn_bfs_levels(g, over_link, link_heads, whole_lists, kBfsDrawnSources);
      if (!runs.empty() && !runs.front().empty()) return direction_optimizing_bfs(runs, g, link_heads, over_link);
    }
    const double share = direction_optimizing ? 0.2 : 1.0;
    w.entries = m * share * passes * sources;
    w.lists = n * passes * sources;
    w.vertex_reads = w.entries;
    if (direction_optimizing) w.value_bytes = 1.0 / 8;
    // Rounds by the small-world rule (the streamed placements' passes were
    // fitted to it), each level at the fixed cost of the direction-optimizing one.
    w.rounds = bfs_levels(g) * passes * sources;
    w.steps = kStepsPerBfsLevel * w.rounds;
    w.dense = direction_optimizing;
    w.lists_side_by_side = !direction_optimizing;
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
    // split). A list read by band starts in two arrays (its weights,
    // then its ids inside the band): two list starts a read. The split runs
    // on the resident placements; the streamed ones take the generic loop,
    // and are predicted here as if they split too.
    const bool split = name == "sssp" && o.lists_by_weight;
    const double relaxed = split ? 1.3 : 2.0;
    w.entries = relaxed * m;
    w.lists = relaxed * n * (split ? 2 : 1);
    // Each relaxation reads its target's distance; about half lower it, and
    // those add an atomic minimum and the target's entry into a bucket: two
    // accesses a relaxed entry. In GPU memory on the H100 the generic loop
    // ran at one relaxation per 30 ps on kron and 48 on urand, at both
    // scales 24 and 25 (docs/gpu-check/2026-11-28h-planner), half the rate of
    // one random read each. The atomic lands on the sector the read has just
    // brought in: at the cache's rate (session 53: urand:25 in GPU memory
    // relaxed 1.56-2.07 entries an edge at 48-56 ps, where two reads at its
    // footprint's rate are 63 ps; its cells read 1.23-1.31 on both machines
    // with both accesses at that rate, 1.04-1.09 so, and every SSSP cell of
    // every record set is within 25%, 70 of 72 before).
    w.vertex_reads = 1.5 * relaxed * m;
    w.cache_reads = 0.5 * relaxed * m;
    // Hubs first every relaxation ran at the smallest footprint's rate, the
    // colder targets' too: in GPU memory on the H100 kron:25 hubs first took
    // 17-19 ps a relaxation, the run's whole time (2.0-2.5 relaxations an
    // edge, 37-44 ms from 4 sources; session 53), where two accesses at the
    // profile's 16 MiB rate are 16.4 ps; GAP's numbering took 30-31 ps.
    // Likely why, not measured apart: a hub's list, sorted by id, meets its
    // targets in address order, most of them other hubs, side by side. The
    // three records (kron:24-26 hubs first, the whole GPU) read 1.05 / 1.29 /
    // 1.39 with the colder reads at their footprint's rate, 0.97 / 1.04 /
    // 0.99 so.
    w.reads_at_cache_rate = g.numbered_by_degree;
    w.steps = 4 * bfs_levels(g);
    // Its rounds (the streamed placements copy the active partitions in
    // each) follow the hops of the shortest paths, not BFS's levels: on the
    // H200 stream ran 21 of them on kron at scales 24 and 25 and 45-49 on
    // urand (the runs of tests/planner/data/h200-2026-12-02.json), about
    // 9.5 a typical hop (17-18 and 46-48 predicted); each copied 0.67 (kron)
    // to 0.77 (urand) of the partitions that do not stay resident.
    w.rounds = kSsspRoundsPerHop * typical_hops(g);
    // The subgraph placement runs a picked width at a quarter of it
    // (GpuEngine::bucket_width_scale). Weights 1..255 on the H200, width 32
    // against 128 (docs/gpu-check/2026-12-02x, y): kron:25 relaxed 1.32-1.81
    // entries an edge against 1.94-2.10 (0.79 of them) in 40-43 buckets
    // against 19-23 (1.96 times), urand:25 1.15-1.20 against 1.60-2.09 (0.64)
    // in 67-74 against 45-47 (1.53 times): between the two.
    if (name == "sssp" && (o.delta == 0 || o.delta_narrow > 0)) {
      w.narrow_entries_share = 0.72;
      // Split over light lists at that width its rounds follow BFS's levels
      // rather than the typical hop: on the H200 (session 34's records, two
      // sources each) kron:24 and kron:25 ran 62-64 rounds (21 heavy), urand:24
      // and urand:25 70-82 (10 heavy), where typical hops give 30 and 80 and
      // the expected levels are 7 on all four (a weighted eccentricity, which
      // kron's low-degree fringe lengthens).
      w.narrow_rounds_share =
          kNarrowSsspRoundsPerLevel * double(expected_bfs_levels(g, false).size()) / std::max(1.0, w.rounds);
      // Its light lists, under a quarter of the mean weight (algorithms/
      // sssp.h): an eighth of the entries where weights spread evenly below
      // twice their mean (kron:25 with weights 1..255: 12.6%). Split over
      // them, the heavy rounds read each reached list once: kron:25 moved
      // 5.5-5.65 GB against 7.7-9.1 unsplit, 0.68 of it (docs/PERF.md,
      // session 32), where 1 / (2.0 x 0.72) = 0.69. A given width splits in
      // the engine too, where its light lists fit; the planner, which does
      // not know how the weights spread, plans it unsplit.
      w.light_share = 0.125;
      w.split_entries = m;
    }
    w.streamed_share = 0.7;
    w.basis = split ? "lists ordered by weight: light parts read about twice, heavy parts once, 1.3 entries an edge"
                    : "each list read about twice (delta-stepping's re-relaxations)";
  } else if (name == "cc") {
    // Links meet at the roots, not at the hubs, so cached hubs do not speed
    // them. In GPU memory on the H100 (tests/planner/data/h100-2026-11-28.json,
    // an engine that read most_frequent_label's samples a wait each) the
    // sampled form took 0.49-0.63 ns per vertex with edges (two links and a
    // flattening each: 22 reads at the label array's 34-47 G a second are
    // 0.47-0.65; refitted below), and linking every edge once 0.26-0.46 ns an
    // edge. Where the ids run hubs first the roots are the hubs (a tree's
    // root is its least id), which lie side by side at the front of the
    // labels: the reads then follow the degrees, as a gather's do (kron:24
    // and kron:25 hubs first in GPU memory, 2.0 and 3.0 ms, predicted 2.72
    // and 3.67 of that before, 1.03 and 1.41 since: docs/PLANNER.md).
    w.follows_degrees = g.numbered_by_degree;
    w.steps = 6;
    if (undirected_pull && o.cc_method == CcMethod::kSampled) {
      // Afforest: two sampling rounds read two entries of each list; the
      // final linking reads the lists outside the largest component.
      // The second round's entry lies beside the first: a list is started
      // once. The final linking mostly reads lists of the few vertices outside
      // the largest tree, short ones: with a cache's heads of 2 or more
      // entries nothing crossed the link on kron:25 and urand:25, and its
      // links are left out of the reads (the largest component holds nearly
      // every vertex with edges there).
      w.entries = 2 * n + 0.1 * m;
      w.lists = n + 0.1 * n;
      w.probe_entries = w.entries;
      w.probe_length = 2;
      // Its links join a vertex to a neighbour while the trees are shallow:
      // cheaper than linking every edge (calibrate's rate). Where the ids run
      // hubs first a list's first entries are its least ids, the top hubs,
      // whose labels (and roots) every link then reads: from the SMs' own
      // caches, left out. Besides, every vertex a pass of each step (the
      // labels set, the sample's pull with a sector of each list's head, two
      // flattenings, the final pull), and a fixed part: traced on the H100 on
      // the engine of session 53, hubs first the sample's pull took 0.67 ms
      // beside 39 ps a vertex at scales 24, 25 and 26 (1.35, 1.97, 3.28 ms)
      // and the rest 15-21 ps a vertex on kron and urand in both numberings
      // (docs/PERF.md, session 53). 7.5 reads a link, 80 bytes a vertex and 40
      // steps are fitted on that engine's CC records, a quarter budget and the
      // whole GPU (tests/planner/data/h100-2026-12-06f.json: 19 of 19 within
      // 25%, 0.85-1.22, where ten reads a link and no pass read 9 of 19).
      w.vertex_reads = (2 * (g.numbered_by_degree ? 0 : kReadsPerSampleLink) + 2) * n;
      w.vertex_pass_bytes = kCcPassBytesAVertex * double(g.vertices);
      w.steps = kCcSampledSteps;
      // The sampled entries lie a sector apart, one or two a list, and the
      // links' reads share the caches with them: CC in GPU memory took
      // twice as long on urand:25 as on urand:24 (17.3-18.8 ms against
      // 9.4-10.2 on the H200, sessions 25 and 34), where the labels'
      // footprint alone would make it 1.6 times. Half a sector a list is
      // fitted: it takes the H200's in-memory CC cells from 0.62-0.93 of
      // measured to 0.82-1.03 (tests/planner/data, docs/PLANNER.md) and
      // keeps the H100's records at 57 within 25% (a whole sector: 55).
      w.beside_bytes = w.lists * 16;
      w.basis = "sampled linking: 2 entries of each list, then a tenth of the edges";
    } else if (o.cc_method == CcMethod::kShiloachVishkin) {
      // Hooking every edge (two label reads and an atomic minimum), round
      // after round until no label changes: about 5 rounds.
      w.per = 5;
      w.per_name = "pass";
      w.entries = w.per * m;
      w.lists = w.per * n;
      w.vertex_reads = 3 * w.entries;
      w.basis = "every edge hooked in each of about 5 rounds";
    } else {
      // Where the engine cannot pull (subgraph, stream): every edge linked
      // once, then the trees flattened; the links at the profile's link rate
      // where it has one (planner.cc).
      w.entries = m;
      w.lists = n;
      w.forest_links = m;
      w.basis = "every edge linked once (push only)";
    }
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
