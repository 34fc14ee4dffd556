// The resident edge cache of the zero-copy placements (docs/GPU.md, "The
// resident edge cache"): every algorithm of the registry on zero-copy
// naive, merged and aligned with budgets that cache nothing, the heads only,
// the heads and some whole lists, and everything, against the CPU engine and
// the verifiers; then what the cache holds and how its reads are counted
// apart from the link's. Device allocations are poisoned (gpu_checks.h);
// without a usable GPU every test is skipped.
#include <algorithm>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "engines/edge_cache_plan.h"
#include "engines/gpu_footprint.h"
#include "formats/load_graph.h"
#include "gpu/gpu_checks.h"

namespace tg::test::gpu {
namespace {

const std::vector<Placement> kZeroCopy = {Placement::kZeroCopyNaive, Placement::kZeroCopyMerged,
                                          Placement::kZeroCopyAligned};

// How much of the budget the cache may fill, relative to what the runs read.
enum class Fill { kNothing, kHeads, kSome, kEverything };
const std::vector<Fill> kFills = {Fill::kNothing, Fill::kHeads, Fill::kSome, Fill::kEverything};

const char* fill_name(Fill f) {
  switch (f) {
    case Fill::kNothing: return "nothing";
    case Fill::kHeads: return "heads";
    case Fill::kSome: return "heads and some lists";
    case Fill::kEverything: return "everything";
  }
  return "?";
}

GpuFootprint footprint_of(const AnyGraph& graph, const std::vector<RunRequest>& requests) {
  EdgeReads reads{Need::kNo, Need::kNo, false};
  for (const RunRequest& r : requests) reads = combine(reads, edge_reads(r));
  return std::visit([&](const auto& g) { return gpu_footprint(size_of(g), reads, false); }, graph);
}

// The budget for a fill: 4 entries of heads per vertex (where the runs pull,
// lists instead where they do not), a quarter of the edges more, or all.
uint64_t budget_for(Fill f, const AnyGraph& graph, const std::vector<RunRequest>& requests) {
  const GpuFootprint fp = footprint_of(graph, requests);
  const uint64_t heads = num_vertices(graph) * kMaxCachedHeads * fp.entry_bytes;
  switch (f) {
    case Fill::kNothing: return 1;  // 0 would mean "free memory"
    case Fill::kHeads: return std::max<uint64_t>(1, heads);
    case Fill::kSome: return heads + fp.edge_bytes / 4 + 1;
    case Fill::kEverything: return std::max<uint64_t>(1, fp.edge_bytes);
  }
  return 1;
}

GpuOptions cached(Placement p, uint64_t budget) {
  GpuOptions o;
  o.placement = p;
  o.memory_budget = budget;
  o.edge_cache = EdgeCacheMode::kAuto;
  return o;
}

// What is read from the cache and what over the link add up to what the run
// needed: a cached entry is counted as its bytes, a linked one in whole
// sectors (so at least its bytes).
void expect_counted_apart(const RunStats& st, uint64_t budget, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_TRUE(st.gpu && st.gpu->edge_cache);
  const EdgeCacheStats& c = *st.gpu->edge_cache;
  EXPECT_EQ(c.mode, "auto");
  EXPECT_LE(c.bytes, budget);
  EXPECT_LE(c.bytes, c.budget_bytes);
  EXPECT_LE(st.cache_bytes_read, st.bytes_needed);
  EXPECT_GE(st.cache_bytes_read + st.bytes_moved, st.bytes_needed);
  if (c.bytes == 0) EXPECT_EQ(st.cache_bytes_read, 0u);
  if (c.total_entries > 0 && c.cached_entries == c.total_entries) {
    EXPECT_EQ(st.bytes_moved, 0u);
    EXPECT_EQ(st.link_requests, 0u);
    EXPECT_EQ(st.cache_bytes_read, st.bytes_needed);
  }
}

void check_cached(const AnyGraph& graph, const std::vector<RunRequest>& requests, Placement p, const std::string& what) {
  if (requests.empty()) return;
  for (Fill f : kFills) {
    const uint64_t budget = budget_for(f, graph, requests);
    const std::string run = what + ", " + std::string(name_of(p)) + ", cache " + fill_name(f);
    std::vector<RunOutput> gpu = run_batch_on_gpu(graph, requests, cached(p, budget));
    expect_as_on_cpu(graph, requests, gpu, what);
    for (const RunOutput& out : gpu) expect_counted_apart(out.stats, budget, run);
  }
}

// ---- every algorithm x zero-copy placement, each fill, on shapes that
// matter to the cache: hubs longer than a chunk (out and in), power law,
// many small lists, self loops, no edges at all ----

const std::vector<std::string> kCacheShapes = {"no_edges", "loops_and_duplicates", "pieces", "big_star", "big_star_in",
                                               "tied_layers", "kron_large", "urand_1"};

using Param = std::tuple<Placement, std::string>;
class EdgeCacheMatrix : public ::testing::TestWithParam<Param> {};

TEST_P(EdgeCacheMatrix, MatchesCpuWithEveryFill) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  const auto& [placement, name] = GetParam();
  const AlgorithmInfo& a = algorithm(name);
  uint64_t seed = 1;
  for (const std::string& shape : kCacheShapes)
    for (Orientation o : all_orientations()) {
      if (o == Orientation::kDirectedNoCsc && a.reads({}).in_edges == Need::kYes) continue;
      AnyGraph graph = gpu_graph(shape, a, o, false);
      check_cached(graph, gpu_requests(graph, a, seed++), placement, shape + ", " + orientation_name(o));
    }
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  std::string p(name_of(std::get<0>(info.param)));
  std::replace(p.begin(), p.end(), '-', '_');
  return std::get<1>(info.param) + "_" + p + "_v32";  // the id width, as scripts/gpu-check.sh's tables read names
}

INSTANTIATE_TEST_SUITE_P(ZeroCopy, EdgeCacheMatrix,
                         ::testing::Combine(::testing::ValuesIn(kZeroCopy), ::testing::ValuesIn(algorithm_names())),
                         param_name);

// A Kronecker graph, every algorithm at once (one placement, one cache for
// all: weights cached beside the ids), 32- and 64-bit ids.
TEST(EdgeCache, KroneckerEveryAlgorithmBothWidths) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  for (bool ids64 : {false, true}) {
    LoadOptions lo;
    lo.build.force_64bit_ids = ids64;
    lo.build.in_edges = true;
    lo.build.random_weights = WeightRange{1, 255};
    AnyGraph graph = load_graph("kron:13", lo);
    std::vector<RunRequest> requests;
    for (const AlgorithmInfo* a : all_algorithms())
      for (const RunRequest& r : gpu_requests(graph, *a, 3)) requests.push_back(r);
    for (Placement p : kZeroCopy) check_cached(graph, requests, p, std::string("kron:13") + (ids64 ? " v64" : " v32"));
  }
}

// ---- what the cache holds, and what crosses the link ----

AnyGraph power_law() {
  LoadOptions lo;
  lo.build.in_edges = true;
  return load_graph("kron:12", lo);
}

// From the vertex of most out-edges: BFS pulls from there on kron.
RunRequest bfs_from_hub(const AnyGraph& g) {
  return prepare_request(g, make_request(algorithm("bfs"), {test_sources(g, 0, 1).at(1)}));
}

RunOutput run_one(const AnyGraph& g, const RunRequest& r, Placement p, uint64_t budget, EdgeCacheMode mode) {
  GpuOptions o = cached(p, budget);
  o.edge_cache = mode;
  return run_on_gpu(g, r, o);
}

TEST(EdgeCache, HoldsWhatTheBudgetAllows) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = power_law();
  const std::vector<RunRequest> bfs = {bfs_from_hub(g)};
  auto cache_of = [&](Fill f) {
    return *run_one(g, bfs.front(), Placement::kZeroCopyAligned, budget_for(f, g, bfs), EdgeCacheMode::kAuto)
                .stats.gpu->edge_cache;
  };
  const EdgeCacheStats nothing = cache_of(Fill::kNothing), heads = cache_of(Fill::kHeads), some = cache_of(Fill::kSome),
                       all = cache_of(Fill::kEverything);
  EXPECT_EQ(nothing.bytes, 0u);
  EXPECT_EQ(heads.heads, kMaxCachedHeads);  // kron's in-lists reach 4 entries
  EXPECT_EQ(heads.lists, 0u);
  EXPECT_EQ(some.heads, kMaxCachedHeads);
  EXPECT_GT(some.lists, 0u);
  EXPECT_LT(some.cached_entries, some.total_entries);
  EXPECT_GT(some.cached_entries, heads.cached_entries);
  EXPECT_EQ(all.heads, 0);  // every list cached holds its own head
  EXPECT_EQ(all.cached_entries, all.total_entries);
  const bool directed = std::visit([](const auto& x) { return x.directed; }, g);
  EXPECT_EQ(all.total_entries, (directed ? 2 : 1) * num_edges(g));  // out- and in-edges
  // Off, and placements that are not zero-copy, hold no cache.
  const RunOutput off = run_one(g, bfs.front(), Placement::kZeroCopyAligned, 1 << 30, EdgeCacheMode::kOff);
  EXPECT_EQ(off.stats.gpu->edge_cache->mode, "off");
  EXPECT_EQ(off.stats.gpu->edge_cache->bytes, 0u);
  EXPECT_EQ(off.stats.cache_bytes_read, 0u);
  EXPECT_FALSE(run_one(g, bfs.front(), Placement::kDevice, 0, EdgeCacheMode::kAuto).stats.gpu->edge_cache);
}

// The same work with more cached reads less over the link: PageRank gathers
// every in-list each iteration (and sums them in the same order, so the
// iterations agree); BFS pulls from the heads.
TEST(EdgeCache, LinkBytesDropAsTheCacheGrows) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  AnyGraph g = power_law();
  for (const RunRequest& request : {prepare_request(g, make_request(algorithm("pagerank"))), bfs_from_hub(g)}) {
    const std::vector<RunRequest> r = {request};
    for (Placement p : kZeroCopy) {
      SCOPED_TRACE(request.algorithm->name() + ", " + std::string(name_of(p)));
      const RunStats off = run_one(g, r.front(), p, 1 << 30, EdgeCacheMode::kOff).stats;
      EXPECT_GT(off.bytes_moved, 0u);
      uint64_t last = off.bytes_moved;
      for (Fill f : {Fill::kHeads, Fill::kSome, Fill::kEverything}) {
        const RunStats on = run_one(g, r.front(), p, budget_for(f, g, r), EdgeCacheMode::kAuto).stats;
        SCOPED_TRACE(fill_name(f));
        EXPECT_EQ(on.edges_traversed, off.edges_traversed);
        EXPECT_EQ(on.bytes_needed, off.bytes_needed);
        // Strictly less, until nothing is left to read over the link (BFS
        // from the hub reads only cached lists once the longest are in).
        if (last > 0) EXPECT_LT(on.bytes_moved, last);
        else EXPECT_EQ(on.bytes_moved, 0u);
        EXPECT_GT(on.cache_bytes_read, 0u);
        expect_counted_apart(on, budget_for(f, g, r), fill_name(f));
        last = on.bytes_moved;
      }
      EXPECT_EQ(last, 0u);
    }
  }
}

}  // namespace
}  // namespace tg::test::gpu
