// EdgeList -> CSR in four parallel passes, as GAP's builder does: count
// degrees, prefix-sum them into offsets, scatter the edges to their slots,
// sort each neighbor list. Simplification and the CSC reuse the same passes.
//
// The scatter claims slots under per-bucket locks, so the order inside a list
// before the sort depends on the thread schedule; the sort by (neighbor,
// weight) makes the result identical for any thread count.

#include "graph/builder.h"

#include <omp.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <compare>
#include <cstring>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "core/env_switch.h"
#include "core/error.h"
#include "core/hash.h"
#include "engines/cpu/parallel.h"
#include "graph/bucketed_scatter.h"
#include "graph/huge_pages.h"

namespace tg {

namespace {

// The weight of edge {u, v} depends only on the unordered pair and the seed,
// so both directions of an undirected edge agree, and the result does not
// depend on edge order or thread count. A directed graph's u->v and v->u get
// the same weight too.
weight_t random_weight(uint64_t u, uint64_t v, const WeightRange& range, uint64_t seed) {
  uint64_t a = std::min(u, v), b = std::max(u, v);
  uint64_t h = mix64(mix64(mix64(seed + 0x9e3779b97f4a7c15ULL) ^ a) + b);
  uint64_t span = uint64_t{range.high} - range.low + 1;
  // high half of h * span: uniform over [0, span) without a division
  uint64_t pick = static_cast<uint64_t>((static_cast<unsigned __int128>(h) * span) >> 64);
  return static_cast<weight_t>(range.low + pick);
}

// Fills a CSR with the edges that for_each_edge(emit) reports by calling
// emit(u, v, w) once per stored edge u->v, from inside its own parallel loop.
// It is called twice: once to count, once to place, each through a
// BucketedScatter (no atomic per edge: bucketed_scatter.h). Lists come out
// unsorted. Against an atomic cursor per entry (2026-11-27, development VM,
// 2 threads, `tiergraph generate`, byte-identical files): kron:22 load 14.2-15.2
// -> 7.5-7.7 s, urand:22 14.0 -> 5.4 s; one thread, kron:21 12.0 -> 6.6 s.
template <typename V, typename ForEachEdge>
Csr<V> scatter_csr(uint64_t n, bool weighted, ForEachEdge&& for_each_edge) {
  Array<eid_t> cursor = allocate_huge<eid_t>(n + 1);
  parallel_fill(cursor.data(), n + 1, eid_t{0});
  eid_t* c = cursor.data();
  {
    struct Source {
      uint64_t u;
    };
    auto count = [c](const Source* e, uint32_t k) {
      for (uint32_t i = 0; i < k; ++i) ++c[e[i].u];
    };
    BucketedScatter<Source, decltype(count)> counts(n, count);
    for_each_edge([&counts](uint64_t u, uint64_t, weight_t) { counts.add({u}); });
    counts.flush();
  }

  Csr<V> csr;
  csr.offsets = allocate_huge<eid_t>(n + 1);
  const eid_t m = parallel_exclusive_scan(c, n, csr.offsets.data());
  const eid_t* off = csr.offsets.data();
#pragma omp parallel for schedule(static)
  for (uint64_t v = 0; v < n; ++v) c[v] = off[v];

  csr.neighbors = allocate_huge<V>(m);
  if (weighted) csr.weights = allocate_huge<weight_t>(m);
  V* nbr = csr.neighbors.data();
  weight_t* wts = weighted ? csr.weights.data() : nullptr;
  struct Edge {
    uint64_t u, v;
    weight_t w;
  };
  auto place = [c, nbr, wts](const Edge* e, uint32_t k) {
    for (uint32_t i = 0; i < k; ++i) {
      const eid_t slot = c[e[i].u]++;
      nbr[slot] = static_cast<V>(e[i].v);
      if (wts != nullptr) wts[slot] = e[i].w;
    }
  };
  BucketedScatter<Edge, decltype(place)> places(n, place);
  for_each_edge([&places](uint64_t u, uint64_t v, weight_t w) { places.add({u, v, w}); });
  places.flush();
  return csr;
}

// Drops self loops and repeats from the sorted list of u, in place; returns
// the new length. The first copy of a repeated (u, v) is kept: lists are
// sorted by weight within a neighbor, so it has the smallest weight (the one
// shortest paths would use).
template <typename V>
eid_t dedupe(uint64_t u, V* nbr, weight_t* wts, eid_t d) {
  eid_t k = 0;
  for (eid_t j = 0; j < d; ++j) {
    if (nbr[j] == u || (k > 0 && nbr[k - 1] == nbr[j])) continue;
    nbr[k] = nbr[j];
    if (wts != nullptr) wts[k] = wts[j];
    ++k;
  }
  return k;
}

// Stable LSD radix sort by key(x), 8 bits a pass, as many passes as the
// largest key needs. On kron:20 lists it was 4x faster than std::sort, whose
// comparisons of random ids mispredict half the time.
template <typename T, typename Key>
void radix_sort(T* a, T* tmp, size_t d, Key key) {
  uint64_t largest = 0;
  for (size_t i = 0; i < d; ++i) largest = std::max<uint64_t>(largest, key(a[i]));
  T* from = a;
  T* to = tmp;
  for (int shift = 0; shift < 64 && (largest >> shift) != 0; shift += 8) {
    size_t count[257] = {0};
    for (size_t i = 0; i < d; ++i) ++count[((key(from[i]) >> shift) & 255) + 1];
    for (int b = 0; b < 256; ++b) count[b + 1] += count[b];
    for (size_t i = 0; i < d; ++i) to[count[(key(from[i]) >> shift) & 255]++] = from[i];
    std::swap(from, to);
  }
  if (from != a) std::copy(from, from + d, a);
}

// Below this length std::sort beats the radix sort's 256-bucket passes.
constexpr eid_t kRadixMin = 64;

// Sorts every neighbor list ascending by neighbor, then by weight (IEEE total
// order, so NaN cannot break the sort), carrying weights along. With `kept`,
// also dedupes each list to its front and records the length kept.
template <typename V>
void sort_neighbors(Csr<V>& csr, uint64_t n, eid_t* kept = nullptr) {
  using Pair = std::pair<V, weight_t>;
  const eid_t* off = csr.offsets.data();
  V* nbr = csr.neighbors.data();
  weight_t* wts = csr.weights.empty() ? nullptr : csr.weights.data();
  auto by_weight = [](const Pair& a, const Pair& b) { return std::is_lt(std::strong_order(a.second, b.second)); };
  auto by_both = [&](const Pair& a, const Pair& b) { return a.first != b.first ? a.first < b.first : by_weight(a, b); };
#pragma omp parallel
  {
    std::vector<V> scratch;
    std::vector<Pair> pairs, pair_scratch;
    // dynamic: power-law degrees make static chunks very uneven
#pragma omp for schedule(dynamic, 1024)
    for (uint64_t v = 0; v < n; ++v) {
      V* begin = nbr + off[v];
      V* end = nbr + off[v + 1];
      const eid_t d = off[v + 1] - off[v];
      weight_t* w = wts == nullptr ? nullptr : wts + off[v];
      if (w == nullptr) {
        if (d < kRadixMin) {
          std::sort(begin, end);
        } else if (!std::is_sorted(begin, end)) {
          scratch.resize(d);
          radix_sort(begin, scratch.data(), d, [](V x) { return x; });
        }
      } else {
        pairs.resize(d);
        for (eid_t j = 0; j < d; ++j) pairs[j] = {begin[j], w[j]};
        if (d < kRadixMin) {
          std::sort(pairs.begin(), pairs.end(), by_both);
        } else {
          pair_scratch.resize(d);
          radix_sort(pairs.data(), pair_scratch.data(), d, [](const Pair& x) { return x.first; });
          // repeats of a neighbor are rare and short: order each run by weight
          for (eid_t j = 0; j < d;) {
            eid_t k = j + 1;
            while (k < d && pairs[k].first == pairs[j].first) ++k;
            if (k - j > 1) std::sort(pairs.begin() + j, pairs.begin() + k, by_weight);
            j = k;
          }
        }
        for (eid_t j = 0; j < d; ++j) {
          begin[j] = pairs[j].first;
          w[j] = pairs[j].second;
        }
      }
      if (kept != nullptr) kept[v] = dedupe(v, begin, w, d);
    }
  }
}

// A view of the first `size` elements of `a`, keeping all of it alive; the
// physical pages of the unused tail are given back to the system.
template <typename T>
Array<T> shrink(Array<T>&& a, size_t size) {
  constexpr uintptr_t kPage = 4096;
  uintptr_t tail = (reinterpret_cast<uintptr_t>(a.data() + size) + kPage - 1) / kPage * kPage;
  uintptr_t end = reinterpret_cast<uintptr_t>(a.data() + a.size()) / kPage * kPage;
  if (end > tail && end - tail >= (uintptr_t{1} << 21)) madvise(reinterpret_cast<void*>(tail), end - tail, MADV_DONTNEED);
  T* data = a.data();
  auto holder = std::make_shared<Array<T>>(std::move(a));
  return Array<T>::view(data, size, std::move(holder));
}

// Packs lists deduped by sort_neighbors (kept[u] entries at the front of
// their old slots) into a CSR without gaps, in place: no second edge array,
// so simplifying never doubles peak memory. Each thread first packs its own
// edge-balanced block of vertices towards the block's start, then the blocks
// slide down in order; every move goes to a lower address, and nothing moves
// onto data that has yet to move.
template <typename V>
void compact(Csr<V>& csr, uint64_t n, Array<eid_t>& kept) {
  Array<eid_t> offsets = allocate_huge<eid_t>(n + 1);
  const eid_t m = parallel_exclusive_scan(kept.data(), n, offsets.data());
  if (m == csr.num_edges()) return;
  const eid_t* old_off = csr.offsets.data();
  const eid_t* new_off = offsets.data();
  V* nbr = csr.neighbors.data();
  weight_t* wts = csr.weights.empty() ? nullptr : csr.weights.data();

  const int blocks = omp_get_max_threads();
  std::vector<uint64_t> first(blocks + 1, n);  // first vertex of each block
  for (int b = 0; b < blocks; ++b) {
    eid_t target = csr.num_edges() / blocks * b;
    first[b] = std::lower_bound(old_off, old_off + n, target) - old_off;
  }
#pragma omp parallel for schedule(static, 1) num_threads(blocks)
  for (int b = 0; b < blocks; ++b) {
    eid_t to = old_off[first[b]];
    for (uint64_t u = first[b]; u < first[b + 1]; ++u) {
      std::memmove(nbr + to, nbr + old_off[u], kept[u] * sizeof(V));
      if (wts != nullptr) std::memmove(wts + to, wts + old_off[u], kept[u] * sizeof(weight_t));
      to += kept[u];
    }
  }
  for (int b = 0; b < blocks; ++b) {
    eid_t count = new_off[first[b + 1]] - new_off[first[b]];
    std::memmove(nbr + new_off[first[b]], nbr + old_off[first[b]], count * sizeof(V));
    if (wts != nullptr) std::memmove(wts + new_off[first[b]], wts + old_off[first[b]], count * sizeof(weight_t));
  }
  csr.offsets = std::move(offsets);
  csr.neighbors = shrink(std::move(csr.neighbors), m);
  if (wts != nullptr) csr.weights = shrink(std::move(csr.weights), m);
}

// The CSC: each out-edge u->v becomes an in-edge of v from u.
template <typename V>
Csr<V> transpose(const Csr<V>& out, uint64_t n) {
  const eid_t* off = out.offsets.data();
  const V* nbr = out.neighbors.data();
  const weight_t* wts = out.weights.empty() ? nullptr : out.weights.data();
  Csr<V> in = scatter_csr<V>(n, wts != nullptr, [&](auto emit) {
#pragma omp parallel for schedule(dynamic, 1024)
    for (uint64_t u = 0; u < n; ++u)
      for (eid_t j = off[u]; j < off[u + 1]; ++j) emit(nbr[j], u, wts != nullptr ? wts[j] : weight_t{0});
  });
  sort_neighbors(in, n);
  return in;
}

template <typename V>
void assign_random_weights(Graph<V>& g, const WeightRange& range, uint64_t seed) {
  const uint64_t n = g.num_vertices;
  const eid_t* off = g.out.offsets.data();
  const V* nbr = g.out.neighbors.data();
  g.out.weights = allocate_huge<weight_t>(g.num_edges());
  weight_t* w = g.out.weights.data();
#pragma omp parallel for schedule(dynamic, 1024)
  for (uint64_t u = 0; u < n; ++u)
    for (eid_t j = off[u]; j < off[u + 1]; ++j) w[j] = random_weight(u, nbr[j], range, seed);
}

// The CSR of the edges that for_each_input(visit) reports, visit(u, v, w)
// once per input edge from inside its own parallel loop, twice over (count,
// then place); g holds the graph's description. Undirected: both directions
// of each edge, a self loop once.
template <typename V, typename ForEachInput, typename Release>
Graph<V> build_from(Graph<V> g, bool weighted, const BuildOptions& options, ForEachInput&& for_each_input,
                    Release&& release_input) {
  const uint64_t n = g.num_vertices;
  const bool symmetric = !g.directed;
  g.out = scatter_csr<V>(n, weighted, [&](auto emit) {
    for_each_input([&](uint64_t u, uint64_t v, weight_t w) {
      emit(u, v, w);
      if (symmetric && u != v) emit(v, u, w);  // a self loop is stored once
    });
  });
  release_input();

  if (options.simplify) {
    Array<eid_t> kept = allocate_huge<eid_t>(n);
    sort_neighbors(g.out, n, kept.data());
    compact(g.out, n, kept);
  } else {
    sort_neighbors(g.out, n);
  }
  if (options.random_weights) assign_random_weights(g, *options.random_weights, options.weight_seed);
  if (options.in_edges && g.directed) g.in = transpose(g.out, n);
  return g;
}

template <typename V>
Graph<V> build(EdgeList&& edges, const BuildOptions& options) {
  Graph<V> g;
  g.num_vertices = edges.num_vertices;
  g.directed = edges.directed && !options.undirected;
  g.id_base = edges.id_base;
  g.name = std::move(edges.name);

  // Moved out so that they are freed right after the scatter, not when the
  // caller's EdgeList dies.
  std::vector<uint64_t> src = std::move(edges.src);
  std::vector<uint64_t> dst = std::move(edges.dst);
  std::vector<weight_t> weights = std::move(edges.weights);
  if (options.random_weights) weights = {};  // replaced at the end
  const uint64_t m = src.size();
  const bool weighted = !weights.empty();
  const uint64_t* s = src.data();
  const uint64_t* d = dst.data();
  const weight_t* w = weighted ? weights.data() : nullptr;
  return build_from(
      std::move(g), weighted, options,
      [&](auto visit) {
#pragma omp parallel for schedule(static)
        for (uint64_t e = 0; e < m; ++e) visit(s[e], d[e], w != nullptr ? w[e] : weight_t{0});
      },
      [&] {
        src = {};
        dst = {};
        weights = {};
      });
}

// Edges made on demand: each thread fills a block into its own buffers and
// reports it; nothing of the edge list outlives its block.
template <typename V>
Graph<V> build(const EdgeBlocks& edges, const BuildOptions& options) {
  Graph<V> g;
  g.num_vertices = edges.num_vertices;
  g.directed = edges.directed && !options.undirected;
  g.name = edges.name;
  return build_from(
      std::move(g), false, options,
      [&](auto visit) {
#pragma omp parallel
        {
          std::vector<uint64_t> src(edges.block_size), dst(edges.block_size);
#pragma omp for schedule(dynamic, 4)
          for (uint64_t b = 0; b < edges.num_blocks; ++b) {
            const uint64_t count = edges.fill(b, src.data(), dst.data());
            for (uint64_t i = 0; i < count; ++i) visit(src[i], dst[i], weight_t{0});
          }
        }
      },
      [] {});
}

void validate(const EdgeList& edges) {
  const uint64_t m = edges.src.size();
  const std::string who = edges.name.empty() ? std::string("edge list") : edges.name;
  if (edges.dst.size() != m || (!edges.weights.empty() && edges.weights.size() != m))
    throw Error(who + ": edge list arrays differ in length (src " + std::to_string(m) + ", dst " +
                std::to_string(edges.dst.size()) + ", weights " + std::to_string(edges.weights.size()) + ")");
  // Far beyond any memory: also keeps n + 1 and n * 8 from overflowing.
  if (edges.num_vertices > (uint64_t{1} << 48))
    throw input_error(who, std::to_string(edges.num_vertices) + " vertices is more than tiergraph supports (2^48)");
  const uint64_t n = edges.num_vertices;
  const uint64_t* s = edges.src.data();
  const uint64_t* d = edges.dst.data();
  uint64_t first_bad = m;
#pragma omp parallel for schedule(static) reduction(min : first_bad)
  for (uint64_t e = 0; e < m; ++e)
    if (s[e] >= n || d[e] >= n) first_bad = std::min(first_bad, e);
  if (first_bad != m) {
    const uint64_t base = static_cast<uint64_t>(edges.id_base);
    uint64_t bad = s[first_bad] >= n ? s[first_bad] : d[first_bad];
    throw input_error(who, "edges[" + std::to_string(first_bad) + "] (" + std::to_string(s[first_bad] + base) + " -> " +
                               std::to_string(d[first_bad] + base) + "): vertex id " + std::to_string(bad + base) +
                               " is out of range (the graph has " + std::to_string(n) + " vertices)");
  }
  // The readers refuse NaN (naming the file's line); this catches edge
  // lists made in code, named by their index in the arrays. A NaN would
  // also break the strict weak order of the (neighbor, weight) sort.
  if (!edges.weights.empty()) {
    const weight_t* w = edges.weights.data();
    uint64_t first_nan = m;
#pragma omp parallel for schedule(static) reduction(min : first_nan)
    for (uint64_t e = 0; e < m; ++e)
      if (std::isnan(w[e])) first_nan = std::min(first_nan, e);
    if (first_nan != m) {
      const uint64_t base = static_cast<uint64_t>(edges.id_base);
      throw input_error(who, "edges[" + std::to_string(first_nan) + "] (" + std::to_string(s[first_nan] + base) +
                                 " -> " + std::to_string(d[first_nan] + base) + "): the weight is NaN");
    }
  }
}

}  // namespace

// Refuses, in one line, a graph whose CSR cannot fit in this machine's RAM
// (a stray id of 3e9 in a small file asks for 24 GB of offsets), rather than
// letting the kernel kill the process minutes later. TG_NO_MEMORY_CHECK=1
// skips it where RAM grows on demand (some VMs report a small MemTotal).
static void check_fits_in_memory(uint64_t n, uint64_t m, bool directed, bool weighted, const std::string& name,
                                 const BuildOptions& options) {
  if (env_switch("TG_NO_MEMORY_CHECK")) return;
  const bool wide = options.force_64bit_ids || n >= kVid32Limit;
  const bool both_ways = options.undirected || !directed;
  const double stored = static_cast<double>(m) * (both_ways ? 2 : 1) * (options.in_edges && !both_ways ? 2 : 1);
  const double per_edge = (wide ? 8.0 : 4.0) + (weighted || options.random_weights ? 4.0 : 0.0);
  const double need = stored * per_edge + 2.0 * (static_cast<double>(n) + 1) * sizeof(eid_t);
  const double ram = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  if (ram > 0 && need > ram) {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "%s: the graph needs about %.1f GB (%llu vertices; %llu edges) but this machine "
                  "has %.1f GB of RAM",
                  name.empty() ? "graph" : name.c_str(), need / 1e9, static_cast<unsigned long long>(n),
                  static_cast<unsigned long long>(m), ram / 1e9);
    throw Error(buf, ErrorKind::kOutOfMemory);  // Python's MemoryError; the program's exit 1
  }
}

AnyGraph build_graph(EdgeList&& edges, const BuildOptions& options) {
  validate(edges);
  check_fits_in_memory(edges.num_vertices, edges.num_edges(), edges.directed, edges.weighted(), edges.name, options);
  const uint64_t n = edges.num_vertices;
  const uint64_t m = edges.num_edges();
  const std::string name = edges.name;
  try {
    if (options.force_64bit_ids || n >= kVid32Limit) return build<vid64_t>(std::move(edges), options);
    return build<vid32_t>(std::move(edges), options);
  } catch (const std::bad_alloc&) {
    throw Error((name.empty() ? std::string("graph") : name) + ": out of memory building the graph (" +
                std::to_string(n) + " vertices, " + std::to_string(m) + " edges)");
  }
}

AnyGraph build_graph(const EdgeBlocks& edges, const BuildOptions& options) {
  check_fits_in_memory(edges.num_vertices, edges.num_edges, edges.directed, false, edges.name, options);
  try {
    if (options.force_64bit_ids || edges.num_vertices >= kVid32Limit) return build<vid64_t>(edges, options);
    return build<vid32_t>(edges, options);
  } catch (const std::bad_alloc&) {
    throw Error((edges.name.empty() ? std::string("graph") : edges.name) + ": out of memory building the graph (" +
                std::to_string(edges.num_vertices) + " vertices, " + std::to_string(edges.num_edges) + " edges)");
  }
}

template <typename V>
void ensure_in_edges(Graph<V>& graph) {
  if (!graph.directed || graph.in.built()) return;
  graph.in = transpose(graph.out, graph.num_vertices);
}
template void ensure_in_edges(Graph<vid32_t>&);
template void ensure_in_edges(Graph<vid64_t>&);

template <typename V>
void sort_neighbor_lists(Csr<V>& csr, uint64_t n) {
  sort_neighbors(csr, n);
}
template void sort_neighbor_lists(Csr<vid32_t>&, uint64_t);
template void sort_neighbor_lists(Csr<vid64_t>&, uint64_t);

void ensure_in_edges(AnyGraph& graph) {
  std::visit([](auto& g) { ensure_in_edges(g); }, graph);
}

template <typename V>
DegreeStats degree_stats(const Graph<V>& graph) {
  DegreeStats s;
  const uint64_t n = graph.num_vertices;
  s.num_vertices = n;
  s.num_edges = graph.num_edges();
  if (n == 0) return s;
  const eid_t* off = graph.out.offsets.data();
  const V* nbr = graph.out.neighbors.data();

  // Which vertices have an in-edge, for isolated vertices of directed graphs.
  std::vector<uint8_t> has_in;
  if (graph.directed) {
    has_in.assign(n, 0);
    uint8_t* h = has_in.data();
#pragma omp parallel for schedule(dynamic, 1024)
    for (uint64_t u = 0; u < n; ++u)
      for (eid_t j = off[u]; j < off[u + 1]; ++j) __atomic_store_n(&h[nbr[j]], uint8_t{1}, __ATOMIC_RELAXED);
  }

  std::vector<eid_t> degrees(n);
  uint64_t isolated = 0, zero = 0, max_degree = 0, loops = 0, duplicates = 0;
#pragma omp parallel reduction(+ : isolated, zero, loops, duplicates) reduction(max : max_degree)
  {
    std::vector<V> sorted;
#pragma omp for schedule(dynamic, 1024)
    for (uint64_t u = 0; u < n; ++u) {
      const eid_t d = off[u + 1] - off[u];
      degrees[u] = d;
      max_degree = std::max<uint64_t>(max_degree, d);
      if (d == 0) {
        ++zero;
        if (!graph.directed || has_in[u] == 0) ++isolated;
        continue;
      }
      const V* begin = nbr + off[u];
      const V* end = nbr + off[u + 1];
      // the builder sorts lists; a graph from elsewhere (GAP .sg) may not be
      if (!std::is_sorted(begin, end)) {
        sorted.assign(begin, end);
        std::sort(sorted.begin(), sorted.end());
        begin = sorted.data();
        end = begin + d;
      }
      for (const V* p = begin; p != end; ++p) {
        loops += (*p == u);
        duplicates += (p != begin && *p == p[-1]);
      }
    }
  }
  s.isolated = isolated;
  s.zero_out_degree = zero;
  s.max_out_degree = max_degree;
  s.self_loops = loops;
  s.duplicate_edges = duplicates;
  s.mean_out_degree = static_cast<double>(s.num_edges) / static_cast<double>(n);

  std::vector<uint64_t> histogram(64, 0);
  for (uint64_t u = 0; u < n; ++u)
    if (degrees[u] > 0) ++histogram[63 - __builtin_clzll(degrees[u])];
  int top = 0;
  for (int k = 0; k < 64; ++k)
    if (histogram[k] > 0) top = k + 1;
  histogram.resize(top);
  s.log2_histogram = std::move(histogram);

  auto middle = degrees.begin() + static_cast<std::ptrdiff_t>((n - 1) / 2);
  std::nth_element(degrees.begin(), middle, degrees.end());
  s.median_out_degree = *middle;
  return s;
}
template DegreeStats degree_stats(const Graph<vid32_t>&);
template DegreeStats degree_stats(const Graph<vid64_t>&);

DegreeStats degree_stats(const AnyGraph& graph) {
  return std::visit([](const auto& g) { return degree_stats(g); }, graph);
}

WeightRange parse_weight_range(const std::string& text) {
  auto fail = [&](const std::string& why) {
    return usage_error("--weights '" + text + "': " + why + " (expected LOW:HIGH or LOW..HIGH, e.g. 8:72)");
  };
  std::string low_text, high_text;
  if (size_t p = text.find(".."); p != std::string::npos) {
    low_text = text.substr(0, p);
    high_text = text.substr(p + 2);
  } else if (size_t q = text.find(':'); q != std::string::npos) {
    low_text = text.substr(0, q);
    high_text = text.substr(q + 1);
  } else {
    throw fail("no separator");
  }
  // Weights are 4-byte floats: integers above 2^24 would not be exact.
  constexpr uint64_t kMaxWeight = uint64_t{1} << 24;
  auto number = [&](const std::string& s, const char* which) {
    uint64_t x = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size())
      throw fail(std::string(which) + " must be a non-negative integer");
    if (x > kMaxWeight) throw fail(std::string(which) + " must be at most 16777216 (2^24, exact in a float)");
    return static_cast<uint32_t>(x);
  };
  WeightRange r;
  r.low = number(low_text, "LOW");
  r.high = number(high_text, "HIGH");
  if (r.low > r.high) throw fail("LOW is greater than HIGH");
  return r;
}

template <typename V>
EdgeList to_edge_list(const Graph<V>& graph) {
  EdgeList el;
  el.num_vertices = graph.num_vertices;
  el.directed = graph.directed;
  el.id_base = graph.id_base;
  el.name = graph.name;
  const uint64_t n = graph.num_vertices;
  const eid_t* off = graph.out.offsets.data();
  const V* nbr = graph.out.neighbors.data();
  const bool weighted = graph.weighted();
  const bool once = !graph.directed;  // undirected: emit {u, v} only from u <= v
  auto emitted = [&](uint64_t u, eid_t j) { return !once || u <= nbr[j]; };

  std::vector<eid_t> count(n + 1, 0);
#pragma omp parallel for schedule(dynamic, 1024)
  for (uint64_t u = 0; u < n; ++u) {
    eid_t c = 0;
    for (eid_t j = off[u]; j < off[u + 1]; ++j) c += emitted(u, j);
    count[u] = c;
  }
  std::vector<eid_t> start(n + 1);
  const eid_t m = parallel_exclusive_scan(count.data(), n, start.data());
  count = {};
  resize_huge(el.src, m);
  resize_huge(el.dst, m);
  if (weighted) resize_huge(el.weights, m);
#pragma omp parallel for schedule(dynamic, 1024)
  for (uint64_t u = 0; u < n; ++u) {
    eid_t to = start[u];
    for (eid_t j = off[u]; j < off[u + 1]; ++j) {
      if (!emitted(u, j)) continue;
      el.src[to] = u;
      el.dst[to] = nbr[j];
      if (weighted) el.weights[to] = graph.out.weights[j];
      ++to;
    }
  }
  return el;
}
template EdgeList to_edge_list(const Graph<vid32_t>&);
template EdgeList to_edge_list(const Graph<vid64_t>&);

EdgeList to_edge_list(const AnyGraph& graph) {
  return std::visit([](const auto& g) { return to_edge_list(g); }, graph);
}

}  // namespace tg
