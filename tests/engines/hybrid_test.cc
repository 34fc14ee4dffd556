// The hybrid engine (engines/hybrid/) without a GPU: a CPU engine stands in
// for the accelerator, with arrays of its own, so the mirrors, the
// relocation of operators, the split of gathers in pages and the exchange
// are the real ones; a missed exchange or a stale mirror gives wrong values.
// Every algorithm on every shape and orientation against the reference, with
// the CPU's share fixed at 0, 1 and in between, and chosen by the model; the
// engine contract suite; the mirror map and the split model alone.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "algorithms/registry.h"
#include "checkpoint/checkpoint.h"
#include "checkpoint/vertex_state.h"
#include "engines/cpu/cpu_engine.h"
#include "engines/engine_contract.h"
#include "engines/hybrid/hybrid_engine.h"
#include "engines/hybrid/host_mem_split.h"
#include "engines/paged/paged_side.h"
#include "formats/load_graph.h"
#include "formats/readers.h"
#include "support/algorithm_checks.h"
#include "support/shapes.h"
#include "support/thread_count.h"

namespace tg::test {
namespace {

using hybrid::CopyDirection;
using hybrid::HostMemSplit;
using hybrid::HybridEngine;
using hybrid::MirrorMap;
using hybrid::SplitModel;

// The CPU engine as an accelerator: its arrays are not the mirrors, so
// values cross only through the engine's copies. A copy happens when it is
// waited for, as late as a GPU's may: a value read before the engine waited
// for its copy is stale or poison, and the results are wrong.
template <typename V>
class CpuAccelerator : public CpuEngine<V> {
 public:
  using CpuEngine<V>::CpuEngine;
  void copy(void* dst, const void* src, size_t bytes, CopyDirection d) {
    // Taken now: a source written before the copy is waited for is the
    // engine's race, and shows as a wrong value.
    const auto* from = static_cast<const unsigned char*>(src);
    pending_[d == CopyDirection::kToHost].push_back({dst, std::vector<unsigned char>(from, from + bytes)});
    copies++;
  }
  void finish_copies() {
    finish_copies(CopyDirection::kToHost);
    finish_copies(CopyDirection::kToAccelerator);
  }
  void finish_copies(CopyDirection d) {
    for (auto& [dst, bytes] : pending_[d == CopyDirection::kToHost]) std::memcpy(dst, bytes.data(), bytes.size());
    pending_[d == CopyDirection::kToHost].clear();
  }
  std::shared_ptr<void> host_buffer(size_t bytes) {
    buffers++;
    // Poisoned: a value the CPU side reads before it was copied is garbage.
    void* p = std::malloc(bytes > 0 ? bytes : 1);
    std::memset(p, 0xA5, bytes);
    return std::shared_ptr<void>(p, std::free);
  }
  void enter_thread() {}
  int copies = 0;
  int buffers = 0;  // host_buffer calls

 private:
  std::vector<std::pair<void*, std::vector<unsigned char>>> pending_[2];  // [to the accelerator, to the host]
};
static_assert(hybrid::Accelerator<CpuAccelerator<vid32_t>>);
static_assert(Engine<HybridEngine<CpuAccelerator<vid32_t>>> && Engine<HybridEngine<CpuAccelerator<vid64_t>>>);

// With `pool`, the mirrors' memory comes from it; `buffers` counts the ones made.
RunOutput run_hybrid(const AnyGraph& any, const RunRequest& request, const HybridOptions& options,
                     hybrid::BufferPool* pool = nullptr, int* buffers = nullptr) {
  return std::visit(
      [&](const auto& graph) {
        using V = typename std::decay_t<decltype(graph)>::vertex_t;
        CpuAccelerator<V> acc(graph);
        RunOutput out;
        {
          HybridEngine<CpuAccelerator<V>> engine(acc, graph, options);
          engine.use_buffer_pool(pool);
          out.engine = EngineKind::kHybrid;
          out.values = run_algorithm(engine, *request.algorithm, request.sources, request.options);
          out.stats = engine.stats();
        }
        if (buffers != nullptr) *buffers += acc.buffers;
        return out;
      },
      any);
}

HybridOptions share(std::optional<double> cpu_share) {
  HybridOptions o;
  o.cpu_share = cpu_share;
  o.cpu_threads = 2;
  o.pages = 7;  // small graphs: several pages all the same
  return o;
}

// ---- every algorithm on every shape ----

using Param = std::tuple<std::string, std::string>;  // shape, algorithm

class HybridShapes : public ::testing::TestWithParam<Param> {};

TEST_P(HybridShapes, MatchesReference) {
  const auto& [shape_name, algorithm_name] = GetParam();
  const AlgorithmInfo& a = algorithm(algorithm_name);
  const Shape& shape = find_shape(shape_name);
  ThreadCount threads(2);
  const bool gathers = a.reads({}).in_edges == Need::kYes;
  // Gathers and CC's links are split, so they run at several shares; other
  // steps run on the accelerator alone whatever the share.
  std::vector<std::optional<double>> shares = {std::nullopt};
  if (gathers || algorithm_name == "cc") shares = {0.0, 0.3, 0.5, 1.0, std::nullopt};
  EdgeList edges = a.needs_weights() ? with_weights(shape.edges, WeightKind::kInteger, 5) : shape.edges;
  for (Orientation o : all_orientations()) {
    if (o == Orientation::kDirectedNoCsc && gathers) continue;
    for (bool ids64 : {false, true}) {
      AnyGraph graph = build_variant(edges, o, ids64);
      if (a.needs_source() && num_vertices(graph) == 0) continue;
      std::vector<Sources> runs;
      if (a.needs_source())
        for (uint64_t s : test_sources(graph, 1, 7)) runs.push_back({s});
      else
        runs.push_back({});
      for (const auto& cpu_share : shares)
        for (const Sources& s : runs) {
          EngineRunner runner = [&](const AnyGraph& g, const RunRequest& r) { return run_hybrid(g, r, share(cpu_share)); };
          EXPECT_TRUE(runs_correctly(runner, a, graph, s))
              << shape_name << ", " << orientation_name(o) << (ids64 ? ", 64-bit ids" : "") << ", cpu share "
              << (cpu_share ? std::to_string(*cpu_share) : std::string("model"));
        }
    }
  }
}

// A generated graph with its in-edges (the gathers read them), and a
// PageRank request on it.
AnyGraph with_in_edges(const char* spec) {
  LoadOptions lo;
  lo.build.in_edges = true;
  return load_graph(spec, lo);
}
RunRequest pagerank_on(const AnyGraph& graph) { return prepare_request(graph, make_request(algorithm("pagerank"))); }

// A split PageRank sums each vertex's in-list on one side, in list order, as
// the accelerator alone does, so its results equal the accelerator's alone
// bit for bit: a CPU side that read a contribution before its copy down was
// waited for (the exchange leaves it in flight) would differ.
TEST(HybridEngine, SplitPageRankEqualsTheAcceleratorAloneExactly) {
  ThreadCount threads(2);
  for (const char* name : {"kron:12", "urand:12"}) {
    AnyGraph graph = with_in_edges(name);
    RunRequest r = pagerank_on(graph);
    const RunOutput alone = run_hybrid(graph, r, share(0.0));
    for (std::optional<double> s : {std::optional<double>(0.3), std::optional<double>(0.6), std::optional<double>()}) {
      const RunOutput split = run_hybrid(graph, r, share(s));
      SCOPED_TRACE(std::string(name) + ", cpu share " + (s ? std::to_string(*s) : std::string("model")));
      EXPECT_EQ(split.stats.iterations, alone.stats.iterations);
      EXPECT_TRUE(split.values == alone.values);
      if (s) EXPECT_EQ(split.stats.hybrid->gathers, split.stats.iterations);
    }
  }
}

// A batch's runs share their mirrors' memory (buffer_pool.h): the later runs
// make none, and one that read the last run's leftovers in place of its own
// refresh would differ from the accelerator alone.
TEST(HybridEngine, BatchRunsReuseTheirMirrors) {
  ThreadCount threads(2);
  AnyGraph graph = with_in_edges("kron:12");
  RunRequest r = pagerank_on(graph);
  const RunOutput alone = run_hybrid(graph, r, share(0.0));
  hybrid::BufferPool pool;
  int made = 0;
  for (int run = 0; run < 3; ++run) {
    const RunOutput split = run_hybrid(graph, r, share(0.4), &pool, &made);
    EXPECT_TRUE(split.values == alone.values) << "run " << run;
    EXPECT_EQ(split.stats.iterations, alone.stats.iterations) << "run " << run;
  }
  EXPECT_GT(made, 0);
  EXPECT_EQ(pool.reused(), 2u * static_cast<uint64_t>(made));  // runs 2 and 3 took run 1's
}

INSTANTIATE_TEST_SUITE_P(All, HybridShapes, ::testing::Combine(::testing::ValuesIn(shape_names()),
                                                                ::testing::ValuesIn(algorithm_names())),
                         [](const auto& info) { return std::get<0>(info.param) + "_" + std::get<1>(info.param); });

// ---- --host-mem: the paged CPU engine as the CPU side ----

// The graph stored as a .tgb (in memory where /dev/shm is: no O_DIRECT there)
// and mapped back, as `run --host-mem` loads it; removed after.
struct StoredTgb {
  std::string path;
  AnyGraph graph;
  ~StoredTgb() { std::filesystem::remove(path); }
};

std::unique_ptr<StoredTgb> stored_tgb(const AnyGraph& graph, const std::string& name) {
  std::error_code error;
  const std::string folder = std::filesystem::is_directory("/dev/shm", error) ? "/dev/shm" : ::testing::TempDir();
  auto s = std::make_unique<StoredTgb>();
  s->path = folder + "/tg_hybrid_paged_" + std::to_string(::getpid()) + "_" + name + ".tgb";
  write_binary_graph(graph, s->path, false);
  s->graph = read_binary_graph(s->path, TgbLoad::kMap);
  return s;
}

// The hybrid engine over the stand-in accelerator and the paged engine, its
// buffers of about a fortieth of the edges (hubs read in pieces), the last
// third of the edges resident (the CPU side's share is the last vertices),
// or none (`resident` false: with --host-mem on a GPU, its host cache leaves
// the CPU side only its buffers).
RunOutput run_hybrid_paged(const StoredTgb& s, const RunRequest& request, const HybridOptions& options,
                           bool resident) {
  return std::visit(
      [&](const auto& graph) {
        using V = typename std::decay_t<decltype(graph)>::vertex_t;
        paged::HostMemPlan plan;
        plan.paged = true;
        plan.window_edges = std::max<uint64_t>(5, graph.num_edges() / 40);
        plan.neighbor_buffer_bytes = paged::page_ceil(plan.window_edges * sizeof(V)) + 2 * paged::kPageBytes;
        plan.weight_buffer_bytes = paged::page_ceil(plan.window_edges * sizeof(weight_t)) + 2 * paged::kPageBytes;
        plan.resident_edges = resident ? graph.num_edges() / 3 : 0;
        plan.resident_suffix = true;
        paged::PagedSide<V> side(graph, edge_reads(request), request.algorithm->name(), s.path, plan, {});
        paged::PagedCpuEngine<V> cpu = side.make_engine();
        CpuAccelerator<V> acc(graph);
        HybridEngine<CpuAccelerator<V>, paged::PagedCpuEngine<V>> engine(acc, graph, cpu, options);
        static_assert(Engine<decltype(engine)>);
        RunOutput out;
        out.engine = EngineKind::kHybrid;
        out.values = run_algorithm(engine, *request.algorithm, request.sources, request.options);
        out.stats = engine.stats();
        // The paged side gathered its pages' lists and no others.
        EXPECT_EQ(cpu.stats().edges_traversed, engine.hybrid_stats().edges_cpu);
        return out;
      },
      s.graph);
}

// PageRank's gathers split between the accelerator and the paged CPU side
// (which reads its pages of the in-CSR from the file), and CC, whose forest
// steps the paged side does not split (the accelerator runs them), on the
// shapes with hubs longer than a window, with and without resident edges,
// against the reference.
TEST(HybridPaged, CpuSideReadsTheFile) {
  ThreadCount threads(2);
  for (const char* name : {"pagerank", "cc"}) {
    const AlgorithmInfo& a = algorithm(name);
    for (const std::string shape : {"kron_large", "big_star_in", "random_1", "pieces", "no_edges"})
      for (Orientation o : {Orientation::kDirected, Orientation::kUndirected})
        for (bool ids64 : {false, true}) {
          const auto s = stored_tgb(build_variant(find_shape(shape).edges, o, ids64), shape);
          for (std::optional<double> cpu_share : {std::optional<double>(0.5), std::optional<double>(1.0),
                                                   std::optional<double>()})
            for (bool resident : {true, false}) {
              const std::string what = std::string(name) + ", " + shape + ", " + orientation_name(o) +
                                       (ids64 ? ", 64-bit ids" : "") + ", cpu share " +
                                       (cpu_share ? std::to_string(*cpu_share) : std::string("model")) +
                                       (resident ? ", a third resident" : ", none resident");
              RunOutput last;
              EngineRunner runner = [&](const AnyGraph&, const RunRequest& r) {
                last = run_hybrid_paged(*s, r, share(cpu_share), resident);
                return last;
              };
              EXPECT_TRUE(runs_correctly(runner, a, s->graph, Sources{})) << what;
              ASSERT_TRUE(last.stats.paging) << what;
              EXPECT_TRUE(last.stats.paging->paged) << what;
              // A gather's CPU pages came from the file.
              if (std::string(name) == "pagerank" && cpu_share && *cpu_share > 0 && num_edges(s->graph) > 0)
                EXPECT_GT(last.stats.paging->disk_bytes, 0u) << what;
            }
        }
  }
}

// The budget between the GPU's page buffers and the paged CPU side
// (host_mem_split.h): the CPU side is planned in all the GPU's buffers leave,
// kept while a later run's buffers are no larger and planned again beside
// larger ones or once released; a rest too small for it is refused naming what the GPU took;
// there is no paged side where the edges fit the rest.
TEST(HybridPaged, TheCpuSideIsPlannedInWhatTheGpuBuffersLeave) {
  const auto s = stored_tgb(build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false), "split");
  const auto& graph = std::get<Graph<vid32_t>>(s->graph);
  const EdgeReads reads = edge_reads(prepare_request(s->graph, make_request(algorithm("pagerank"), Sources{})));
  const paged::HostMemPlan whole = paged::plan_host_memory(graph, reads, UINT64_MAX);
  ASSERT_FALSE(whole.paged);
  const uint64_t budget = whole.offset_bytes + whole.edge_bytes / 2, gpu = 3 * paged::kPageBytes;
  HostMemSplit<vid32_t> split(graph, reads, "pagerank", s->path, budget);
  paged::PagedSide<vid32_t>* side = split.beside(gpu);
  ASSERT_NE(side, nullptr);
  EXPECT_TRUE(split.plan().paged);
  EXPECT_TRUE(split.plan().resident_suffix) << "the CPU side's share of a gather is the last vertices";
  EXPECT_EQ(split.plan().budget_bytes, budget - gpu);
  EXPECT_GT(split.plan().resident_edges, 0u);
  EXPECT_EQ(split.beside(gpu / 3), side);
  EXPECT_EQ(split.plan().budget_bytes, budget - gpu) << "kept beside smaller buffers";
  ASSERT_NE(split.beside(2 * gpu), nullptr);
  EXPECT_EQ(split.plan().budget_bytes, budget - 2 * gpu) << "planned again beside larger ones";
  split.release();
  ASSERT_NE(split.beside(gpu), nullptr);
  EXPECT_EQ(split.plan().budget_bytes, budget - gpu) << "released: planned again, beside smaller ones too";
  const uint64_t greedy = budget - whole.offset_bytes;
  try {
    split.beside(greedy);
    ADD_FAILURE() << "the CPU side was planned in the offsets alone";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::kUsage) << what;
    const std::string named = "--engine hybrid: the GPU's page buffers and host cache take " + std::to_string(greedy) +
                              " bytes of --host-mem " + std::to_string(budget);
    EXPECT_NE(what.find(named), std::string::npos) << what;
    EXPECT_NE(what.find("too small for this graph"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  HostMemSplit<vid32_t> roomy(graph, reads, "pagerank", s->path, whole.offset_bytes + whole.edge_bytes + gpu);
  EXPECT_EQ(roomy.beside(gpu), nullptr);
  EXPECT_FALSE(roomy.plan().paged);
}

// What the GPU's host cache leaves the CPU side (largest_buffers_bytes, with
// the offsets): its windows at their largest and, past the buffers' rounding,
// no edges resident; more keeps edges resident and the windows no larger, a
// page less shrinks them. kron:14's in-edges, a window a sixteenth of them.
TEST(HybridPaged, WhatTheGpusCacheLeavesGivesTheLargestWindows) {
  LoadOptions lo;
  lo.build.in_edges = true;
  const AnyGraph any = load_graph("kron:14", lo);
  const auto& graph = std::get<Graph<vid32_t>>(any);
  const EdgeReads reads = edge_reads(prepare_request(any, make_request(algorithm("pagerank"), Sources{})));
  const paged::HostMemPlan whole = paged::plan_host_memory(graph, reads, UINT64_MAX);
  const uint64_t largest = paged::largest_buffers_bytes(graph, reads);
  ASSERT_LT(largest, whole.edge_bytes / 2);
  const paged::HostMemPlan left = paged::plan_host_memory(graph, reads, whole.offset_bytes + largest);
  EXPECT_TRUE(left.paged);
  EXPECT_EQ(left.window_edges, (graph.num_edges() + paged::kWindowsPerArray - 1) / paged::kWindowsPerArray);
  EXPECT_LE(left.resident_edges * sizeof(vid32_t), paged::kBufferDepth * 3 * paged::kPageBytes) << "the rounding's";
  const paged::HostMemPlan more = paged::plan_host_memory(graph, reads, whole.offset_bytes + largest + whole.edge_bytes / 4);
  EXPECT_EQ(more.window_edges, left.window_edges) << "the windows grow no larger";
  EXPECT_GT(more.resident_edges, whole.edge_bytes / 4 / sizeof(vid32_t) / 2);
  EXPECT_LT(paged::plan_host_memory(graph, reads, whole.offset_bytes + largest - 2 * paged::kPageBytes).window_edges,
            left.window_edges);
}

// ---- checkpoints: the accelerator's arrays copied across ----

static_assert(CopiesArrays<HybridEngine<CpuAccelerator<vid32_t>>> && !HostArrays<HybridEngine<CpuAccelerator<vid32_t>>>);

// A run of `name` on the stand-in, half of each split step on the CPU side,
// saving after every iteration into `dir` (and resuming from it).
RunOutput run_checkpointed(const AnyGraph& g, const std::string& name, const Sources& sources, const std::string& dir,
                           bool resume) {
  const AlgorithmInfo& a = algorithm(name);
  RunRequest r = prepare_request(g, make_request(a, sources));
  Checkpointer c(dir, 1, resume, checkpoint_key(g, a.name(), a.checkpoint_options(r.options, r.sources), a.needs_weights()));
  r.options.checkpoint = &c;
  return run_hybrid(g, r, share(0.5));
}

bool same_values(const VertexValues& a, const VertexValues& b) {
  if (a.index() != b.index()) return false;
  return std::visit(
      [&](const auto& x) {
        const auto& y = std::get<std::decay_t<decltype(x)>>(b);
        return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
      },
      a);
}

// Killed (SIGKILL, right after the checkpoint of iteration 1) and resumed on
// the hybrid engine: the state crosses by the engine's copies, the mirrors
// are refreshed after the restore, and the result equals the uninterrupted
// run's, bit for bit, having read fewer edges.
TEST(HybridCheckpoints, KilledAndResumedEqualsUninterrupted) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ThreadCount threads(2);
  LoadOptions lo;
  lo.build.random_weights = WeightRange{1, 9};
  const AnyGraph g = load_graph("kron:10", lo);
  // No pid in the name: the death test's child (threadsafe style) runs this body again in a process of its own.
  const std::string base = ::testing::TempDir() + "/tg_hybrid_ckpt_";
  for (const std::string name : {"pagerank", "bfs", "cc", "sssp", "ssnsp"}) {
    const Sources sources = algorithm(name).needs_source() ? Sources{3} : Sources{};
    const RunOutput full = run_checkpointed(g, name, sources, base + name + "_full", false);
    const std::string dir = base + name;
    std::filesystem::remove_all(dir);
    EXPECT_EXIT(
        {
          setenv("TG_CHECKPOINT_KILL_AFTER", "1", 1);
          run_checkpointed(g, name, sources, dir, false);
          std::exit(0);
        },
        ::testing::KilledBySignal(SIGKILL), "")
        << name;
    const RunOutput resumed = run_checkpointed(g, name, sources, dir, true);
    EXPECT_TRUE(same_values(resumed.values, full.values)) << name;
    EXPECT_LT(resumed.stats.edges_traversed, full.stats.edges_traversed) << name;
  }
}

// ---- the split is real and accounted ----

TEST(HybridEngine, SplitGathersCountEverySidesEdges) {
  ThreadCount threads(2);
  AnyGraph graph = build_variant(find_shape("random_1").edges, Orientation::kUndirected, false);
  RunRequest r = prepare_request(graph, make_request(algorithm("pagerank")));
  RunOutput half = run_hybrid(graph, r, share(0.5));
  ASSERT_TRUE(half.stats.hybrid);
  const HybridStats& h = *half.stats.hybrid;
  EXPECT_EQ(h.gathers, half.stats.iterations);
  EXPECT_GT(h.edges_cpu, 0u);
  EXPECT_GT(h.edges_gpu, 0u);
  EXPECT_EQ(h.edges_cpu + h.edges_gpu, half.stats.iterations * num_edges(graph));
  EXPECT_EQ(h.pages_cpu + h.pages_gpu, h.gathers * h.pages);
  EXPECT_EQ(half.stats.edges_traversed, h.edges_cpu + h.edges_gpu);
  // PageRank's gather names the one array it writes (written(), engines/
  // engine.h): each gather exchanges that array once.
  const uint64_t n = num_vertices(graph);
  ASSERT_GT(h.exchange_bytes, 0u);
  ASSERT_EQ(h.exchange_bytes % (h.gathers * n), 0u);
  const uint64_t value_bytes = h.exchange_bytes / (h.gathers * n);
  EXPECT_TRUE(value_bytes == 4 || value_bytes == 8) << value_bytes;
  // Both arrays' mirrors made once, and never refreshed after: PageRank's
  // convergence sum only reads them (its written() hint is empty).
  EXPECT_EQ(h.refresh_bytes, 2 * n * value_bytes);

  RunOutput alone = run_hybrid(graph, r, share(0.0));
  ASSERT_TRUE(alone.stats.hybrid);
  EXPECT_EQ(alone.stats.hybrid->gathers, 0u);
  EXPECT_EQ(alone.stats.hybrid->edges_cpu, 0u);
  EXPECT_EQ(alone.stats.hybrid->exchange_bytes, 0u);  // nothing crosses when the CPU takes no page
  EXPECT_EQ(alone.stats.hybrid->refresh_bytes, 0u);
}

// CC's push of every edge (its form where the graph cannot pull) is split
// as a forest step (HasForest, engines/engine.h): each side links into its
// own forest and the two are joined, so a missed join leaves components
// apart. Its pulls (the sampled form) stay on the accelerator.
TEST(HybridEngine, SplitsCcPushOfEveryEdgeAsAForestStep) {
  ThreadCount threads(2);
  AnyGraph directed = build_variant(find_shape("random_1").edges, Orientation::kDirectedNoCsc, false);
  RunRequest d = prepare_request(directed, make_request(algorithm("cc")));
  for (std::optional<double> s : {std::optional<double>(0.5), std::optional<double>()}) {
    HybridOptions h = share(s);
    h.pages = 16;
    RunOutput out = run_hybrid(directed, d, h);
    ASSERT_TRUE(out.stats.hybrid);
    const Verification v = d.algorithm->verify(directed, {}, out.values, d.options);
    EXPECT_TRUE(v.ok) << v.message;
    // The model leaves forest steps to the accelerator (hybrid_engine.h).
    if (!s) {
      EXPECT_EQ(out.stats.hybrid->forest_steps, 0u);
      continue;
    }
    EXPECT_EQ(out.stats.hybrid->forest_steps, 1u);
    EXPECT_EQ(out.stats.hybrid->edges_cpu + out.stats.hybrid->edges_gpu, num_edges(directed));
    EXPECT_GT(out.stats.hybrid->edges_cpu, 0u);
    EXPECT_GT(out.stats.hybrid->edges_gpu, 0u);
    EXPECT_EQ(out.stats.hybrid->exchange_bytes, num_vertices(directed) * sizeof(vid32_t));  // the CPU's forest, up
  }
  // The sampled form pulls: on the accelerator alone.
  AnyGraph symmetric = load_graph("kron:12", LoadOptions{});
  RunRequest r = prepare_request(symmetric, make_request(algorithm("cc")));
  RunOutput pulled = run_hybrid(symmetric, r, share(0.5));
  EXPECT_EQ(pulled.stats.hybrid->forest_steps, 0u);
  EXPECT_EQ(pulled.stats.hybrid->edges_cpu, 0u);
  EXPECT_TRUE(r.algorithm->verify(symmetric, {}, pulled.values, r.options).ok);
  // No CPU share: nothing is split.
  RunOutput alone = run_hybrid(directed, d, share(0.0));
  EXPECT_EQ(alone.stats.hybrid->forest_steps, 0u);
  EXPECT_EQ(alone.stats.hybrid->exchange_bytes, 0u);
}

TEST(PageQueue, SidesMeetWithoutOverlapOrGap) {
  hybrid::PageQueue q(10);
  EXPECT_EQ(q.take_front(3), std::make_pair(uint64_t{0}, uint64_t{3}));
  EXPECT_EQ(q.take_back(2), std::make_pair(uint64_t{8}, uint64_t{10}));
  EXPECT_EQ(q.take_front(0), std::make_pair(uint64_t{3}, uint64_t{4}));  // at least one
  EXPECT_EQ(q.take_back(100), std::make_pair(uint64_t{4}, uint64_t{8}));
  EXPECT_EQ(q.left(), 0u);
  EXPECT_EQ(q.take_front(5), std::make_pair(uint64_t{4}, uint64_t{4}));
  EXPECT_EQ(q.take_back(5), std::make_pair(uint64_t{4}, uint64_t{4}));
  EXPECT_EQ(q.met(), 4u);
}

// ---- the contract suite ----

}  // namespace

namespace contract {
namespace {

template <typename V>
struct HybridFactory {
  using vertex_t = V;
  static constexpr bool kAsynchronous = false;
  static std::string name() { return sizeof(V) == 8 ? "v64" : "v32"; }
  using engine_t = HybridEngine<CpuAccelerator<V>>;
  static bool available(std::string*) { return true; }
  class Instance {
   public:
    Instance(const Graph<V>& graph, const EdgeReads&) : threads_(2), acc_(graph), engine_(acc_, graph, share(0.5)) {}
    engine_t& engine() { return engine_; }

   private:
    ThreadCount threads_;
    CpuAccelerator<V> acc_;
    engine_t engine_;
  };
};

using HybridEngines = ::testing::Types<HybridFactory<vid32_t>, HybridFactory<vid64_t>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Hybrid, EngineContract, HybridEngines, FactoryName);

}  // namespace
}  // namespace contract

namespace {

// ---- the mirror map ----

struct Op {
  const float* a;
  double scale;
  uint32_t* b;
  uint64_t count;
};

TEST(MirrorMap, RelocatesPointersIntoMirrorsAndNothingElse) {
  std::vector<float> acc_a(10), host_a(10);
  std::vector<uint32_t> acc_b(4), host_b(4);
  MirrorMap map;
  int ia = map.add(acc_a.data(), host_a.data(), acc_a.size(), sizeof(float), true);
  int ib = map.add(acc_b.data(), host_b.data(), acc_b.size(), sizeof(uint32_t), true);
  Op op{acc_a.data() + 3, 0.85, acc_b.data(), 12345};
  Op moved = map.relocate(op);
  EXPECT_EQ(moved.a, host_a.data() + 3);
  EXPECT_EQ(moved.b, host_b.data());
  EXPECT_EQ(moved.scale, 0.85);
  EXPECT_EQ(moved.count, 12345u);
  EXPECT_EQ(map.used_by(op), (std::vector<int>{ia, ib}));
  std::vector<float> other(3);
  Op stray{other.data(), 1.0, acc_b.data(), 0};
  const uintptr_t lo = reinterpret_cast<uintptr_t>(other.data()), hi = lo + sizeof(float) * other.size();
  EXPECT_TRUE(map.points_outside(stray, [&](uintptr_t w) { return w >= lo && w < hi; }));
  EXPECT_FALSE(map.points_outside(op, [&](uintptr_t w) { return w >= lo && w < hi; }));
  EXPECT_EQ(map.relocate(stray).a, other.data());  // not the map's: left alone

  map.remove(ia);
  EXPECT_EQ(map.relocate(op).a, acc_a.data() + 3);
  EXPECT_EQ(map.used_by(op), (std::vector<int>{ib}));
  EXPECT_EQ(map.add(acc_a.data(), host_a.data(), 10, sizeof(float), true), ia);  // the slot is reused
}

// ---- the split model ----

TEST(SplitModel, PagesCoverTheVerticesInOrderOfWork) {
  // A hub at 0 with 1000 in-edges, then 999 vertices of one.
  std::vector<eid_t> offsets = {0, 1000};
  for (int v = 1; v < 1000; ++v) offsets.push_back(offsets.back() + 1);
  SplitModel m(offsets.data(), 1000, 10, 1e9, 0);
  ASSERT_EQ(m.pages(), 10u);
  EXPECT_EQ(m.vertex_at(0), 0u);
  EXPECT_EQ(m.vertex_at(10), 1000u);
  for (uint64_t k = 0; k < 10; ++k) EXPECT_LE(m.vertex_at(k), m.vertex_at(k + 1));
  EXPECT_EQ(m.total_work(), 1999 + 1000);
  // The hub's page holds about a third of the work by itself.
  EXPECT_EQ(m.vertex_at(1), 1u);
  EXPECT_EQ(m.choose(0.0), 10u);
  EXPECT_EQ(m.choose(1.0), 0u);
}

// Offsets of 1000 vertices with 10 in-edges each: 11 units of work a vertex.
std::vector<eid_t> ten_in_edges_each() {
  std::vector<eid_t> offsets(1001);
  for (int v = 0; v <= 1000; ++v) offsets[v] = 10 * v;
  return offsets;
}

// The run's first two gathers on the accelerator alone, the second at
// `rate` units a second, as the engine reports them.
void observe_alone_at(SplitModel& m, double rate) {
  m.observe_alone_step(1.0);  // the warm-up: not a measure
  m.observe_alone_step(m.total_work() / rate);
}

// The first gathers run on the accelerator alone, whatever the CPU's
// estimate: they measure the accelerator's rate and the time to beat. The
// first is a warm-up (resident partitions loaded) and does not count.
TEST(SplitModel, RunsTheAcceleratorAloneFirst) {
  const std::vector<eid_t> offsets = ten_in_edges_each();
  SplitModel m(offsets.data(), 1000, 100, 1e9, 0.0);  // a CPU estimated very fast, a free exchange
  EXPECT_FALSE(m.accelerator_measured());
  EXPECT_EQ(m.choose(), m.pages());
  EXPECT_EQ(m.choose(0.5), 50u);  // a fixed share is taken as it is
  m.observe_alone_step(1.0);
  EXPECT_FALSE(m.accelerator_measured());
  EXPECT_EQ(m.choose(), m.pages());
  m.observe_alone_step(m.total_work() / 1e6);
  EXPECT_TRUE(m.accelerator_measured());
  EXPECT_FALSE(m.measured());
  EXPECT_NEAR(m.gpu_rate(), 1e6, 1);
  EXPECT_LT(m.choose(), 5u) << "a CPU estimated 1000 times faster takes nearly all";
  EXPECT_NEAR(m.predicted_s(m.pages()), m.total_work() / 1e6, 1e-9);
}

TEST(SplitModel, ProbesTheCpuOnceBeforeLeavingItNothing) {
  const std::vector<eid_t> offsets = ten_in_edges_each();
  SplitModel m(offsets.data(), 1000, 64, 1e3, 0.0);  // a CPU estimated far too slow to help
  observe_alone_at(m, 1e9);
  const uint64_t probe = m.choose();
  EXPECT_EQ(probe, 60u);  // a sixteenth of the pages to the CPU
  m.observe(probe, m.work_before(probe) / 1e9, (m.total_work() - m.work_before(probe)) / 1e3, 0.0);
  EXPECT_EQ(m.choose(), m.pages());  // measured slow: nothing
}

// Whole steps decide: split steps measured slower than the accelerator
// alone (its second gather) send every later gather to the accelerator, once
// two of them count (cut with both rates measured, at a settled cut; the
// probe's does not, nor, up to four, those whose cut still moved).
TEST(SplitModel, ChoosesTheFasterOfMeasuredSplitAndAloneSteps) {
  const std::vector<eid_t> offsets = ten_in_edges_each();
  for (bool alone_faster : {true, false}) {
    SplitModel m(offsets.data(), 1000, 100, 1e6, 0.0);
    m.observe_alone_step(0.1);  // the warm-up
    EXPECT_EQ(m.choose(), m.pages());
    m.observe_alone_step(alone_faster ? 0.002 : 0.004);  // the linear model's GPU rate: 5.5e6 or 2.75e6
    for (int step = 0; step < 8; ++step) {
      const uint64_t k = m.choose();
      if (alone_faster && k == m.pages()) break;  // decided
      ASSERT_LT(k, m.pages()) << "a CPU at a fifth or more of the GPU's rate and a free exchange split";
      // The probe (the CPU's rate not yet measured) is slow and does not count.
      m.observe_split_step(k, step == 0 ? 1.0 : 0.003);
      m.observe(k, m.work_before(k) / 3e6, (m.total_work() - m.work_before(k)) / 1e6, 0.0);
    }
    if (alone_faster) EXPECT_EQ(m.choose(), m.pages());
    else EXPECT_LT(m.choose(), m.pages());
  }
}

// Split steps slower than the accelerator alone while the cut still moves
// (kron:25 over subgraph: 243, then 239 pages, slower than alone; then
// 236-238 and faster) do not decide; the same steps at a settled cut do.
TEST(SplitModel, WholeStepsWaitForTheCutToSettle) {
  const std::vector<eid_t> offsets = ten_in_edges_each();
  for (bool moving : {true, false}) {
    SplitModel m(offsets.data(), 1000, 100, 1e6, 0.0);
    observe_alone_at(m, 3e6);  // alone 3.67 ms
    const uint64_t probe = m.choose();
    ASSERT_LT(probe, m.pages());
    m.observe_split_step(probe, 1.0);  // the probe: not a measure
    m.observe(probe, m.work_before(probe) / 3e6, (m.total_work() - m.work_before(probe)) / 1e6, 0.0);
    const uint64_t k = m.choose();
    ASSERT_LT(k + 8, m.pages());
    // Three steps at 4 ms: cuts 4 pages apart, or the same cut (the first of
    // which moved from the probe's).
    for (uint64_t at : {k + 8, k + 4, k}) m.observe_split_step(moving ? at : k, 0.004);
    if (moving) EXPECT_LT(m.choose(), m.pages()) << "nothing measured at a settled cut yet";
    else EXPECT_EQ(m.choose(), m.pages()) << "two settled steps slower than alone";
  }
}

// Where the CPU could not win back the probe's cost (a quarter of an
// exchange a gather) at twice its estimated rate (the edges in GPU memory),
// there is no probe.
TEST(SplitModel, DoesNotProbeACpuThatCannotPayForTheExchange) {
  const std::vector<eid_t> offsets = ten_in_edges_each();  // 11000 units
  // Alone 1.1e-5 s; a CPU at 2e5 (twice 1e5) could save about 1.1e-5 x 2e5 / (2e5 + 1e9) = 2.2e-9 s
  // a gather; the probe costs a quarter of the exchange, 2.5e-9 or 2.5e-10 s.
  SplitModel costly(offsets.data(), 1000, 64, 1e5, 1e-8);
  observe_alone_at(costly, 1e9);
  EXPECT_EQ(costly.choose(), costly.pages());
  SplitModel cheap(offsets.data(), 1000, 64, 1e5, 1e-9);
  observe_alone_at(cheap, 1e9);
  EXPECT_EQ(cheap.choose(), 60u);
}

// Before the CPU is measured, even a cut the linear model favours waits
// for the probe's rule: the CPU must be able to repay the probe.
TEST(SplitModel, SplitsNothingUnmeasuredThatCouldNotRepayAProbe) {
  const std::vector<eid_t> offsets = ten_in_edges_each();  // 11000 units
  // Alone 3.67 ms; a wait of 3 ms: a page of the CPU's ends at 3.11 ms, so
  // the model would cut at 99, but at twice its rate the CPU saves 0.27 ms
  // a gather against a probe of 0.75 ms a gather.
  SplitModel m(offsets.data(), 1000, 100, 1e6, 0.003);
  observe_alone_at(m, 3e6);
  EXPECT_LT(m.predicted_s(99), m.predicted_s(100));
  EXPECT_EQ(m.choose(), m.pages());
}

// Back on the accelerator alone, a split must beat it by the switch's cost
// (a probe's), so that noise does not flip the choice every gather; and the
// steps compare by the medians of their last few, so one slow step does not
// flip it either.
TEST(SplitModel, SwitchesBackToSplittingOnlyPastItsCost) {
  const std::vector<eid_t> offsets = ten_in_edges_each();
  SplitModel m(offsets.data(), 1000, 100, 1e6, 0.0004);  // a switch costs 0.1 ms
  observe_alone_at(m, 11000 / 0.0033);  // alone 3.3 ms
  for (int step = 0; step < 8 && m.choose() < m.pages(); ++step) {
    const uint64_t k = m.choose();
    m.observe_split_step(k, 0.0034);
    m.observe(k, m.work_before(k) / 4e6, (m.total_work() - m.work_before(k)) / 1e6, 0.0);
  }
  EXPECT_EQ(m.choose(), m.pages()) << "alone 3.3 ms, split 3.4";
  m.observe_alone_step(0.006);  // right after a split: its copy down in flight, no measure
  EXPECT_EQ(m.choose(), m.pages());
  m.observe_alone_step(0.0033);
  m.observe_alone_step(0.0045);  // one slow step among 3.3, 3.3: the median stays 3.3
  EXPECT_EQ(m.choose(), m.pages());
  m.observe_alone_step(0.00345);  // median 3.375 ms: slower than the split by less than the switch
  EXPECT_EQ(m.choose(), m.pages());
  m.observe_alone_step(0.0038);  // the last five 3.3 3.3 4.5 3.45 3.8: median 3.45
  EXPECT_EQ(m.choose(), m.pages());
  m.observe_alone_step(0.0038);  // 3.3 4.5 3.45 3.8 3.8: median 3.8, past it
  EXPECT_LT(m.choose(), m.pages());
}

TEST(SplitModel, RecentStepsKeepTheMedianOfTheLastFive) {
  hybrid::RecentSteps r;
  EXPECT_EQ(r.median(), 0.0);
  r.add(3);
  EXPECT_EQ(r.median(), 3.0);
  r.add(1);
  EXPECT_EQ(r.median(), 2.0);
  for (double s : {9.0, 2.0, 8.0}) r.add(s);  // 3 1 9 2 8
  EXPECT_EQ(r.median(), 3.0);
  r.add(7);  // the 3 goes: 1 9 2 8 7
  EXPECT_EQ(r.size(), 5u);
  EXPECT_EQ(r.median(), 7.0);
  r.add(7);  // the 1 goes: 9 2 8 7 7
  EXPECT_EQ(r.median(), 7.0);
}

// The exchange's copy down is left in flight and the CPU side waits for it
// before its first page: its rate is measured without the wait, and the
// predicted split starts the CPU after it, so the CPU takes less.
TEST(SplitModel, StartsTheCpuAfterItsWaitForTheCopyDown) {
  const std::vector<eid_t> offsets = ten_in_edges_each();  // 11000 units
  SplitModel waits(offsets.data(), 1000, 100, 1e6, 0.0), free(offsets.data(), 1000, 100, 1e6, 0.0);
  for (SplitModel* m : {&waits, &free}) observe_alone_at(*m, 3e6);
  const uint64_t k = waits.choose();
  ASSERT_LT(k, waits.pages());
  const double gpu_s = waits.work_before(k) / 3e6, cpu_s = (waits.total_work() - waits.work_before(k)) / 1e6;
  for (int i = 0; i < 6; ++i) {
    waits.observe(k, gpu_s, cpu_s + 0.001, 0.0, 0.001);
    free.observe(k, gpu_s, cpu_s, 0.0, 0.0);
  }
  EXPECT_NEAR(waits.cpu_rate(), 1e6, 1e4);
  EXPECT_NEAR(waits.wait_s(), 0.001, 1e-5);
  EXPECT_NEAR(double(free.choose()), 75, 1);
  // Both end together where g / 3e6 = 0.001 + (11000 - g) / 1e6: g = 9000
  // units of 110 a page, 82 pages (3.007 ms) against 75 (2.75 ms).
  EXPECT_NEAR(double(waits.choose()), 82, 1);
  EXPECT_NEAR(waits.predicted_s(waits.choose()), free.predicted_s(free.choose()) + 0.000257, 0.00003);
}

TEST(SplitModel, FollowsTheMeasuredRatesAndDropsTheCpuWhenTheExchangeCostsMore) {
  const std::vector<eid_t> offsets = ten_in_edges_each();
  SplitModel m(offsets.data(), 1000, 100, 1e6, 0.0);
  observe_alone_at(m, 3e6);
  // Rates 3:1 and a free exchange: the CPU takes about a quarter.
  uint64_t k = m.choose();
  EXPECT_NEAR(double(k), 75, 1);
  // Measured: the CPU as fast as the GPU.
  m.observe(k, m.work_before(k) / 1e6, (m.total_work() - m.work_before(k)) / 1e6, 0.0);
  m.observe(k, m.work_before(k) / 1e6, (m.total_work() - m.work_before(k)) / 1e6, 0.0);
  m.observe(k, m.work_before(k) / 1e6, (m.total_work() - m.work_before(k)) / 1e6, 0.0);
  EXPECT_NEAR(double(m.choose()), 50, 6);
  // An exchange dearer than what the CPU saves: the GPU alone.
  for (int i = 0; i < 5; ++i) m.observe(50, 0.0055, 0.0055, 1.0);
  EXPECT_EQ(m.choose(), m.pages());
}

// A batch's later run starts from the rates and steps the earlier ones
// measured: after its warm-up on the accelerator alone, its next gather
// takes the measured choice at once, with no gather to measure the
// accelerator and no probe; it goes on splitting where the last run did.
TEST(SplitModel, StartsALaterRunFromWhatTheFirstMeasured) {
  const std::vector<eid_t> offsets = ten_in_edges_each();
  for (bool alone_faster : {true, false}) {
    SplitModel m(offsets.data(), 1000, 100, 1e6, 0.0004);  // a switch (the probe) costs 0.1 ms
    observe_alone_at(m, 3e6);                             // alone 3.67 ms
    for (int step = 0; step < 8 && m.choose() < m.pages(); ++step) {
      const uint64_t k = m.choose();
      m.observe_split_step(k, step == 0 ? 1.0 : (alone_faster ? 0.004 : 0.003));
      m.observe(k, m.work_before(k) / 3e6, (m.total_work() - m.work_before(k)) / 1e6, 0.0);
    }
    const uint64_t decided = m.choose();
    EXPECT_EQ(decided == m.pages(), alone_faster);
    const double gpu_rate = m.gpu_rate();
    m.start_run();
    EXPECT_EQ(m.choose(), m.pages()) << "the run's warm-up";
    m.observe_alone_step(1.0);  // not a measure
    EXPECT_EQ(m.gpu_rate(), gpu_rate);
    EXPECT_EQ(m.choose(), decided) << "no measuring gather, no probe";
  }
  // A split that wins by less than a switch's cost goes on splitting (as
  // within a run), and a run that ended alone stays alone until alone steps
  // are slower than the split by that cost.
  SplitModel m(offsets.data(), 1000, 100, 1e6, 0.0004);
  observe_alone_at(m, 11000 / 0.0033);  // alone 3.3 ms
  for (int step = 0; step < 8; ++step) {
    const uint64_t k = m.choose();
    ASSERT_LT(k, m.pages());
    m.observe_split_step(k, step == 0 ? 1.0 : 0.00325);
    m.observe(k, m.work_before(k) / 4e6, (m.total_work() - m.work_before(k)) / 1e6, 0.0);
  }
  m.start_run();
  m.observe_alone_step(1.0);
  EXPECT_LT(m.choose(), m.pages()) << "split 3.25 ms against 3.3 alone and a 0.1 ms switch";
  m.observe_alone_step(0.0033);  // a gather alone after all
  m.start_run();
  m.observe_alone_step(1.0);
  EXPECT_EQ(m.choose(), m.pages());
}

}  // namespace
}  // namespace tg::test

namespace tg::test {
namespace {
// A batch's runs of one algorithm keep their split models (run_batch): a
// later run, started from a model that sends nearly every page to the CPU,
// splits from its second gather on, with mirrors it makes then, and gives
// the accelerator's result exactly.
TEST(HybridEngine, BatchRunsKeepTheirSplitModels) {
  ThreadCount threads(2);
  AnyGraph graph = with_in_edges("kron:12");
  RunRequest r = pagerank_on(graph);
  const RunOutput alone = run_hybrid(graph, r, share(0.0));
  HybridOptions options = share(std::nullopt);
  hybrid::SplitModels models;
  {
    const auto& g = std::get<Graph<vid32_t>>(graph);
    SplitModel& m = models.of[hybrid::SplitModels::kGather].emplace(g.in_edges().offsets.data(), g.num_vertices,
                                                                      options.pages, 1e15, 0.0);
    m.observe_alone_step(1.0);
    m.observe_alone_step(1.0);  // an accelerator far slower than the CPU
    const uint64_t probe = m.choose();
    ASSERT_LT(probe, m.pages());
    m.observe(probe, 1.0, 1e-9, 0.0);
    ASSERT_EQ(m.choose(), 0u);
  }
  const RunOutput split = std::visit(
      [&](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_t;
        CpuAccelerator<V> acc(g);
        HybridEngine<CpuAccelerator<V>> engine(acc, g, options);
        engine.keep_split_models(&models);
        RunOutput out;
        out.values = run_algorithm(engine, *r.algorithm, r.sources, r.options);
        out.stats = engine.stats();
        return out;
      },
      graph);
  EXPECT_TRUE(split.values == alone.values);
  EXPECT_EQ(split.stats.iterations, alone.stats.iterations);
  ASSERT_TRUE(split.stats.hybrid);
  EXPECT_EQ(split.stats.hybrid->gpu_only_steps, 1u) << "the warm-up only";
  EXPECT_GT(split.stats.hybrid->edges_cpu, split.stats.hybrid->edges_gpu);
}

TEST(HybridEngine, KroneckerSplitCountsEveryGather) {
  AnyGraph graph = with_in_edges("kron:12");
  RunRequest r = pagerank_on(graph);
  HybridOptions h;
  h.cpu_share = 0.4;
  RunOutput out = run_hybrid(graph, r, h);
  ASSERT_TRUE(out.stats.hybrid);
  EXPECT_EQ(out.stats.hybrid->gathers, out.stats.iterations);
  EXPECT_EQ(out.stats.hybrid->edges_cpu + out.stats.hybrid->edges_gpu, out.stats.iterations * num_edges(graph));
}

// The model's run: two gathers on the accelerator alone, then the probe
// (the exchange of kron:14's 16384 ranks costs microseconds, far less than a
// CPU thread could save), then whichever kind of step is measured faster.
TEST(HybridEngine, ModelRunsTheAcceleratorAloneThenProbesTheCpu) {
  AnyGraph graph = with_in_edges("kron:14");
  RunRequest r = pagerank_on(graph);
  RunOutput out = run_hybrid(graph, r, HybridOptions{});
  ASSERT_TRUE(out.stats.hybrid);
  const HybridStats& h = *out.stats.hybrid;
  ASSERT_GE(out.stats.iterations, 3u);
  EXPECT_GE(h.gpu_only_steps, 2u);
  EXPECT_GE(h.gathers, 1u);
  EXPECT_GT(h.edges_cpu, 0u);
  EXPECT_EQ(h.edges_cpu + h.edges_gpu, out.stats.iterations * num_edges(graph));
  EXPECT_TRUE(r.algorithm->verify(graph, {}, out.values, r.options).ok);
}
}  // namespace
}  // namespace tg::test
