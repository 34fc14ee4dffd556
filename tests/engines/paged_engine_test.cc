// The paged CPU engine (engines/paged/, --host-mem) without its budget: every
// graph is written to a .tgb file, loaded back, and run with buffers forced
// small, so every step reads many windows from the file and the long lists
// (hubs, stars) are cut in pieces. Every algorithm on every shape, orientation
// and id width gives what the in-memory CPU engine gives (exactly, or within
// the algorithm's agreement where its sums depend on the order of threads:
// bc, ssnsp), and its verifier accepts it; PageRank is bit-identical. The
// engine contract suite; the window plans alone.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "algorithms/registry.h"
#include "engines/engine_contract.h"
#include "engines/paged/edge_file.h"
#include "engines/paged/host_mem.h"
#include "engines/paged/page_stream.h"
#include "engines/paged/paged_engine.h"
#include "engines/paged/window_plan.h"
#include "formats/load_graph.h"
#include "formats/readers.h"
#include "support/algorithm_checks.h"
#include "support/shapes.h"
#include "support/thread_count.h"

namespace tg::test {

// The big matrix and the contract suite read their files from memory
// (/dev/shm, where there is one: no O_DIRECT there, ordinary reads), or they
// would wait minutes on the disk; the PageRank test reads from the test's
// folder, on disk.
std::string fast_folder() {
  std::error_code error;
  return std::filesystem::is_directory("/dev/shm", error) ? std::string("/dev/shm") : ::testing::TempDir();
}

namespace {

using paged::HostMemPlan;

// The graph as a .tgb file in the test's temporary folder, and loaded back
// from it (its arrays are views of the file's mapping, as a run's are).
struct StoredGraph {
  std::string path;
  AnyGraph graph;
};

StoredGraph store(const AnyGraph& graph, const std::string& name, const std::string& folder = fast_folder()) {
  StoredGraph s;
  s.path = folder + "/tg_paged_" + std::to_string(::getpid()) + "_" + name + ".tgb";
  write_binary_graph(graph, s.path, false);
  s.graph = read_binary_graph(s.path);
  return s;
}

// Buffers of `window_edges` edges: a plan as plan_host_memory makes, for a
// budget that would hold that much.
HostMemPlan small_windows(const AnyGraph& graph, uint64_t window_edges) {
  HostMemPlan plan;
  plan.paged = true;
  plan.window_edges = window_edges;
  const uint64_t id_bytes = vertex_id_bytes(graph);
  plan.neighbor_buffer_bytes = paged::page_ceil(window_edges * id_bytes) + 2 * paged::kPageBytes;
  plan.weight_buffer_bytes = paged::page_ceil(window_edges * sizeof(weight_t)) + 2 * paged::kPageBytes;
  return plan;
}

// About 40 windows over the whole edge array: a hub of more than 1/40 of the
// edges is read in pieces.
uint64_t window_for(const AnyGraph& graph) { return std::max<uint64_t>(5, num_edges(graph) / 40); }

// ---- every algorithm on every shape ----

class PagedShapes : public ::testing::TestWithParam<std::string> {};

TEST_P(PagedShapes, MatchesTheInMemoryEngine) {
  const Shape& shape = find_shape(GetParam());
  ThreadCount threads(2);
  const EdgeList weighted = with_weights(shape.edges, WeightKind::kInteger, 5);
  for (Orientation o : all_orientations())
    for (bool ids64 : {false, true}) {
      const StoredGraph stored = store(build_variant(weighted, o, ids64),
                                       GetParam() + "_" + orientation_name(o) + (ids64 ? "_64" : "_32"));
      const AnyGraph& graph = stored.graph;
      const HostMemPlan plan = small_windows(graph, window_for(graph));
      uint64_t disk_bytes = 0;
      for (const std::string& name : algorithm_names()) {
        const AlgorithmInfo& a = algorithm(name);
        if (a.reads({}).in_edges == Need::kYes && o == Orientation::kDirectedNoCsc) continue;
        if (a.needs_source() && num_vertices(graph) == 0) continue;
        std::vector<Sources> runs;
        if (a.needs_source())
          for (uint64_t s : test_sources(graph, 1, 7)) runs.push_back({s});
        else
          runs.push_back({});
        for (const Sources& s : runs) {
          const std::string what = GetParam() + ", " + orientation_name(o) + (ids64 ? ", 64-bit ids, " : ", ") + name +
                                   ", " + describe_sources(s);
          const RunRequest r = prepare_request(graph, make_request(a, s));
          const RunOutput memory = run_on_cpu(graph, r);
          const RunOutput paged = paged::run_paged(graph, r, stored.path, plan);
          EXPECT_TRUE(agrees(a, paged.values, memory.values)) << what;
          EXPECT_TRUE(passes_verifier(a, graph, s, paged.values, r.options)) << what;
          ASSERT_TRUE(paged.stats.paging && paged.stats.paging->paged) << what;
          disk_bytes += paged.stats.paging->disk_bytes;
        }
      }
      if (num_edges(graph) > 0) EXPECT_GT(disk_bytes, 0u) << GetParam() << ", " << orientation_name(o);
      std::filesystem::remove(stored.path);
    }
}

INSTANTIATE_TEST_SUITE_P(All, PagedShapes, ::testing::ValuesIn(shape_names()),
                         [](const auto& info) { return info.param; });

// ---- PageRank: the same bits, and every in-edge read from the disk each iteration ----

TEST(PagedEngine, PageRankIsBitIdenticalAndReadsEveryEdgeEachIteration) {
  ThreadCount threads(2);
  for (Orientation o : {Orientation::kDirected, Orientation::kUndirected})
    for (bool ids64 : {false, true}) {
      const StoredGraph stored = store(build_variant(find_shape("kron_large").edges, o, ids64),
                                       std::string("pr_") + orientation_name(o) + (ids64 ? "_64" : "_32"),
                                       ::testing::TempDir());
      const AnyGraph& graph = stored.graph;
      const RunRequest r = prepare_request(graph, make_request(algorithm("pagerank")));
      const RunOutput memory = run_on_cpu(graph, r);
      const RunOutput paged = paged::run_paged(graph, r, stored.path, small_windows(graph, 1000));
      EXPECT_EQ(paged.stats.iterations, memory.stats.iterations);
      EXPECT_EQ(paged.values, memory.values) << orientation_name(o);
      const PagingStats& p = *paged.stats.paging;
      const uint64_t edge_bytes = num_edges(graph) * vertex_id_bytes(graph);
      EXPECT_GE(p.disk_bytes, paged.stats.iterations * edge_bytes);
      EXPECT_EQ(p.windows, p.prefetched + p.waited);
      EXPECT_GT(p.windows, paged.stats.iterations * 10);
      std::filesystem::remove(stored.path);
    }
}

// ---- without O_DIRECT: ordinary reads, the same values ----

TEST(PagedEngine, OrdinaryReadsWhereDirectIsRefusedGiveTheSameValues) {
  ThreadCount threads(2);
  const StoredGraph stored =
      store(build_variant(with_weights(find_shape("kron_large").edges, WeightKind::kInteger, 5),
                          Orientation::kDirected, false),
            "buffered", ::testing::TempDir());
  const AnyGraph& graph = stored.graph;
  HostMemPlan plan = small_windows(graph, 700);
  plan.try_direct = false;
  for (const char* name : {"pagerank", "sssp"}) {
    const AlgorithmInfo& a = algorithm(name);
    const RunRequest r = prepare_request(graph, make_request(a, a.needs_source() ? Sources{0} : Sources{}));
    const RunOutput paged = paged::run_paged(graph, r, stored.path, plan);
    EXPECT_EQ(paged.values, run_on_cpu(graph, r).values) << name;
    ASSERT_TRUE(paged.stats.paging);
    EXPECT_FALSE(paged.stats.paging->direct_io);
    EXPECT_GT(paged.stats.paging->disk_bytes, 0u);
  }
  std::filesystem::remove(stored.path);
}

// ---- the window plans ----

TEST(WindowPlan, AllVerticesInOrderWithLongListsInPieces) {
  // Degrees 3, 0, 10, 1, 0: vertex 2's list overflows a window of 4.
  const eid_t off[] = {0, 3, 3, 13, 14, 14};
  const paged::WindowPlan plan = paged::plan_all(off, 5, 4);
  std::vector<std::tuple<uint64_t, uint64_t, eid_t, eid_t>> got;
  for (const paged::Window& w : plan.windows) got.emplace_back(w.first, w.last, w.begin, w.end);
  const std::vector<std::tuple<uint64_t, uint64_t, eid_t, eid_t>> want = {
      {0, 2, 0, 3}, {2, 3, 3, 7}, {2, 3, 7, 11}, {2, 5, 11, 14}};
  EXPECT_EQ(got, want);
}

TEST(WindowPlan, ListReadsOnlyTheMembersLists) {
  const eid_t off[] = {0, 3, 3, 13, 14, 14, 20};
  const vid32_t members[] = {0, 3, 5};
  const paged::WindowPlan plan = paged::plan_list(off, members, 3, 8);
  ASSERT_EQ(plan.windows.size(), 2u);
  EXPECT_EQ(plan.windows[0].first, 0u);
  EXPECT_EQ(plan.windows[0].last, 1u);  // 0 and 3 span 14 edge ids: more than 8
  ASSERT_EQ(plan.runs.size(), 3u);
  EXPECT_EQ(plan.runs[1].begin, 13u);
  EXPECT_EQ(plan.runs[1].end, 14u);
  EXPECT_EQ(plan.runs[2].begin, 14u);
  EXPECT_EQ(plan.runs[2].end, 20u);
}

}  // namespace

// ---- the engine contract ----

namespace contract {
namespace {

template <typename V>
struct PagedFactory {
  using vertex_t = V;
  static constexpr bool kAsynchronous = false;
  static std::string name() { return sizeof(V) == 8 ? "v64" : "v32"; }
  using engine_t = paged::PagedCpuEngine<V>;
  static bool available(std::string*) { return true; }
  class Instance {
   public:
    Instance(const Graph<V>& graph, const EdgeReads&) : threads_(2) {
      static int count = 0;
      path_ = fast_folder() + "/tg_paged_contract_" + std::to_string(::getpid()) + "_" + std::to_string(count++) + ".tgb";
      write_binary_graph(AnyGraph(graph), path_, false);
      stored_ = std::get<Graph<V>>(read_binary_graph(path_));
      // Windows of 3 edges: every list of more than 3 in pieces.
      file_ = std::make_unique<paged::EdgeFile>(path_, stored_.num_vertices, stored_.num_edges(), sizeof(V));
      buffers_ = std::make_unique<paged::PageBuffers>(2, 3 * paged::kPageBytes, 3 * paged::kPageBytes);
      engine_ = std::make_unique<engine_t>(stored_, *file_, *buffers_, 3);
    }
    ~Instance() { std::filesystem::remove(path_); }
    engine_t& engine() { return *engine_; }

   private:
    ThreadCount threads_;
    std::string path_;
    Graph<V> stored_;
    std::unique_ptr<paged::EdgeFile> file_;
    std::unique_ptr<paged::PageBuffers> buffers_;
    std::unique_ptr<engine_t> engine_;
  };
};

static_assert(Engine<paged::PagedCpuEngine<vid32_t>> && Engine<paged::PagedCpuEngine<vid64_t>>);

using PagedEngines = ::testing::Types<PagedFactory<vid32_t>, PagedFactory<vid64_t>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Paged, EngineContract, PagedEngines, FactoryName);

}  // namespace
}  // namespace contract
}  // namespace tg::test
