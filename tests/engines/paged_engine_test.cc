// The paged CPU engine (engines/paged/, --host-mem) without its budget: every
// graph is written to a .tgb file, loaded back, and run with buffers forced
// small, so every step reads many windows from the file and the long lists
// (hubs, stars) are cut in pieces; and with none, some, and all but about a
// window of the edges resident (kept in memory once read), so that lists
// cross the resident end. Every algorithm on every shape, orientation and id
// width gives what the in-memory CPU engine gives (exactly, or within the
// algorithm's agreement where its sums depend on the order of threads: bc,
// ssnsp), and its verifier accepts it; PageRank is bit-identical, and reads
// from the disk the resident edges once and the others every iteration. The
// engine contract suite; the window plans alone.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "algorithms/registry.h"
#include "engines/engine_contract.h"
#include "engines/paged/edge_file.h"
#include "engines/paged/host_mem.h"
#include "engines/paged/page_stream.h"
#include "engines/paged/paged_engine.h"
#include "engines/paged/resident_edges.h"
#include "engines/paged/window_plan.h"
#include "formats/load_graph.h"
#include "graph/builder.h"
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

// Buffers of `window_edges` edges, and edge ids [0, resident) of every array
// read kept in memory: a plan as plan_host_memory makes, for a budget that
// would hold that much.
HostMemPlan small_windows(const AnyGraph& graph, uint64_t window_edges, eid_t resident = 0) {
  HostMemPlan plan;
  plan.paged = true;
  plan.window_edges = window_edges;
  plan.resident_edges = resident;
  const uint64_t id_bytes = vertex_id_bytes(graph);
  plan.neighbor_buffer_bytes = paged::page_ceil(window_edges * id_bytes) + 2 * paged::kPageBytes;
  plan.weight_buffer_bytes = paged::page_ceil(window_edges * sizeof(weight_t)) + 2 * paged::kPageBytes;
  return plan;
}

// About 40 windows over the whole edge array: a hub of more than 1/40 of the
// edges is read in pieces.
uint64_t window_for(const AnyGraph& graph) { return std::max<uint64_t>(5, num_edges(graph) / 40); }

// The resident edges of the kinds of run: none, some (an odd count, so that
// the end falls inside lists and pages), all but about a window, and some at
// the end of the arrays (the hybrid's CPU side: their start inside lists and
// pages).
enum class Resident { kNone, kSome, kAllButAWindow, kSomeAtTheEnd };
constexpr int kResidentKinds = 4;
const char* resident_name(Resident r) {
  switch (r) {
    case Resident::kNone: return "none resident";
    case Resident::kSome: return "some resident";
    case Resident::kAllButAWindow: return "all but a window resident";
    case Resident::kSomeAtTheEnd: return "some resident at the end";
  }
  return "";
}
eid_t resident_edges(Resident r, uint64_t edges, uint64_t window) {
  if (r == Resident::kNone) return 0;
  if (r == Resident::kAllButAWindow) return edges > window ? edges - window : 0;
  return edges * 2 / 5 + 1;
}

// ---- every algorithm on every shape ----

class PagedShapes : public ::testing::TestWithParam<std::string> {};

// Each variant of the shape (orientation, id width) with one of the kinds of
// resident part, in turn: all of them on every shape, at the cost of one.
TEST_P(PagedShapes, MatchesTheInMemoryEngine) {
  const Shape& shape = find_shape(GetParam());
  ThreadCount threads(2);
  const EdgeList weighted = with_weights(shape.edges, WeightKind::kInteger, 5);
  int variant = 0;
  for (Orientation o : all_orientations())
    for (bool ids64 : {false, true}) {
      const StoredGraph stored = store(build_variant(weighted, o, ids64),
                                       GetParam() + "_" + orientation_name(o) + (ids64 ? "_64" : "_32"));
      const AnyGraph& graph = stored.graph;
      const Resident resident = static_cast<Resident>(variant % kResidentKinds);
      const uint64_t window = window_for(graph);
      HostMemPlan plan = small_windows(graph, window, resident_edges(resident, num_edges(graph), window));
      plan.resident_suffix = resident == Resident::kSomeAtTheEnd;
      // Every other variant reads only the pages a step needs (no read's cost
      // weighed: pulls over the lists they serve wherever that reads less),
      // the others coalesce reads across gaps as a run does.
      plan.read_cost_bytes = variant++ % 2 == 0 ? 0 : paged::kReadCostBytes;
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
          const std::string what = GetParam() + ", " + orientation_name(o) + (ids64 ? ", 64-bit ids, " : ", ") +
                                   resident_name(resident) + ", read cost " + std::to_string(plan.read_cost_bytes) +
                                   ", " + name + ", " + describe_sources(s);
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

// ---- PageRank: the same bits; the resident edges read once, the others each iteration ----

TEST(PagedEngine, PageRankIsBitIdenticalAndReadsTheResidentEdgesOnce) {
  ThreadCount threads(2);
  for (Orientation o : {Orientation::kDirected, Orientation::kUndirected})
    for (bool ids64 : {false, true}) {
      const StoredGraph stored = store(build_variant(find_shape("kron_large").edges, o, ids64),
                                       std::string("pr_") + orientation_name(o) + (ids64 ? "_64" : "_32"),
                                       ::testing::TempDir());
      const AnyGraph& graph = stored.graph;
      const RunRequest r = prepare_request(graph, make_request(algorithm("pagerank")));
      const RunOutput memory = run_on_cpu(graph, r);
      const uint64_t m = num_edges(graph), id_bytes = vertex_id_bytes(graph), window = 1000;
      uint64_t last_disk_bytes = ~uint64_t{0};
      for (Resident resident : {Resident::kNone, Resident::kSome, Resident::kAllButAWindow}) {
        const std::string what =
            std::string(orientation_name(o)) + (ids64 ? ", 64-bit ids, " : ", ") + resident_name(resident);
        const eid_t held = resident_edges(resident, m, window);
        const RunOutput paged = paged::run_paged(graph, r, stored.path, small_windows(graph, window, held));
        EXPECT_EQ(paged.stats.iterations, memory.stats.iterations) << what;
        EXPECT_EQ(paged.values, memory.values) << what;
        const PagingStats& p = *paged.stats.paging;
        const uint64_t iterations = paged.stats.iterations;
        // PageRank reads the in-neighbours only (an undirected graph's out-neighbours).
        EXPECT_EQ(p.resident_edge_bytes, held * id_bytes) << what;
        // The resident pages, every one of them, once.
        EXPECT_EQ(p.resident_read_bytes, paged::page_ceil(held * id_bytes)) << what;
        // The others each iteration: at least their bytes, at most two more pages a window.
        const uint64_t streamed = p.disk_bytes - p.resident_read_bytes;
        EXPECT_GE(streamed, iterations * (m - held) * id_bytes) << what;
        EXPECT_LE(streamed, iterations * (m - held) * id_bytes + p.windows * 2 * paged::kPageBytes) << what;
        EXPECT_LT(p.disk_bytes, last_disk_bytes) << what;
        last_disk_bytes = p.disk_bytes;
        EXPECT_EQ(p.windows + p.resident_windows, p.prefetched + p.waited) << what;
        // Each iteration: the windows over the edges outside, and those inside.
        EXPECT_GE(p.windows, iterations * ((m - held + window - 1) / window)) << what;
        EXPECT_GE(p.resident_windows, iterations * std::max<uint64_t>(held / window, held > 0 ? 1 : 0)) << what;
      }
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
  HostMemPlan plan = small_windows(graph, 700, num_edges(graph) / 3);  // a third resident
  plan.try_direct = false;
  for (const char* name : {"pagerank", "sssp"}) {
    const AlgorithmInfo& a = algorithm(name);
    const RunRequest r = prepare_request(graph, make_request(a, a.needs_source() ? Sources{0} : Sources{}));
    const RunOutput paged = paged::run_paged(graph, r, stored.path, plan);
    EXPECT_EQ(paged.values, run_on_cpu(graph, r).values) << name;
    ASSERT_TRUE(paged.stats.paging);
    EXPECT_FALSE(paged.stats.paging->direct_io);
    EXPECT_GT(paged.stats.paging->disk_bytes, paged.stats.paging->resident_read_bytes);
    EXPECT_GT(paged.stats.paging->resident_read_bytes, 0u);
  }
  std::filesystem::remove(stored.path);
}

// ---- pulls over only the lists they serve ----

// Past a BFS's peak level few vertices are unreached: a pull then reads only
// their lists, where that reads less than the whole array (here with no
// read's cost weighed), and the depths are the in-memory engine's.
TEST(PagedEngine, BfsPullsReadOnlyTheUnreachedListsPastThePeak) {
  ThreadCount threads(2);
  const StoredGraph stored = store(build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false), "partial");
  const AnyGraph& graph = stored.graph;
  HostMemPlan plan = small_windows(graph, window_for(graph));
  plan.read_cost_bytes = 0;
  uint64_t partial = 0, pulls = 0;
  for (uint64_t s : test_sources(graph, 3, 11)) {
    const RunRequest r = prepare_request(graph, make_request(algorithm("bfs"), Sources{s}));
    const RunOutput paged = paged::run_paged(graph, r, stored.path, plan);
    EXPECT_EQ(paged.values, run_on_cpu(graph, r).values) << "source " << s;
    partial += paged.stats.paging->partial_pulls;
    pulls += paged.stats.pull_steps;
  }
  EXPECT_GT(partial, 0u);
  EXPECT_LT(partial, pulls);  // the pulls at the peak read the whole array
  std::filesystem::remove(stored.path);
}

// ---- a file changed since it was loaded ----

// An id past the graph's vertices written into the file after the load: in a
// window read into a buffer (checked on the engine's thread, with the reader
// thread or without one where a single window covers the edges) and in the
// resident edges (checked by the reader): refused in one line naming the
// file, never followed.
TEST(PagedEngine, AnIdChangedInTheFileSinceTheLoadIsRefused) {
  ThreadCount threads(2);
  const AnyGraph built = build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false);
  const uint64_t m = num_edges(built);
  struct Case {
    const char* what;
    uint64_t window;
    eid_t resident;
    uint64_t edge;  // written past the vertices
  };
  for (const Case& c : {Case{"a buffered window, the last", 1000, 0, m - 1},
                        Case{"a buffered window past the resident ones", 1000, eid_t(m / 2), m - 3},
                        Case{"a window as large as the edges (no reader thread where it is the only one)", m, 0, m / 2},
                        Case{"the resident edges", 1000, eid_t(m / 2), 7}}) {
    const StoredGraph stored = store(built, "changed");
    {
      const paged::EdgeFile file(stored.path, num_vertices(stored.graph), m, 4);
      const uint32_t bad = 0xFFFFFFFFu;
      std::FILE* f = std::fopen(stored.path.c_str(), "r+b");
      ASSERT_NE(f, nullptr);
      std::fseek(f, static_cast<long>(file.section_offset(formats::kOutNeighbors) + c.edge * 4), SEEK_SET);
      std::fwrite(&bad, 4, 1, f);
      std::fclose(f);
    }
    const RunRequest r = prepare_request(stored.graph, make_request(algorithm("pagerank")));
    try {
      paged::run_paged(stored.graph, r, stored.path, small_windows(stored.graph, c.window, c.resident));
      ADD_FAILURE() << c.what << ": the changed id was not refused";
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_EQ(e.kind(), ErrorKind::kInput) << c.what << ": " << message;
      EXPECT_NE(message.find(stored.path), std::string::npos) << c.what << ": " << message;
      EXPECT_NE(message.find("outside the graph"), std::string::npos) << c.what << ": " << message;
    }
    std::filesystem::remove(stored.path);
  }
}

// A batch whose graph has in-edges built in memory, from a file that stores
// none: the refusal names the batch's run that reads them, not its first.
TEST(PagedEngine, AFileWithoutInEdgesIsRefusedNamingTheRunThatReadsThem) {
  const StoredGraph stored =
      store(build_variant(find_shape("kron_large").edges, Orientation::kDirectedNoCsc, false), "no_in_edges");
  AnyGraph graph = read_binary_graph(stored.path);
  ensure_in_edges(graph);
  const std::vector<RunRequest> batch = {
      prepare_request(graph, make_request(algorithm("bfs"), Sources{0})),
      prepare_request(graph, make_request(algorithm("pagerank")))};
  try {
    paged::run_paged_batch(graph, batch, stored.path, small_windows(graph, window_for(graph)),
                           [](size_t, RunOutput&&) {});
    ADD_FAILURE() << "a file without in-edges was not refused";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::kUsage) << message;
    EXPECT_NE(message.find("stores no in-edges, which pagerank reads"), std::string::npos) << message;
  }
  std::filesystem::remove(stored.path);
}

// ---- the window plans ----

// A range of vertices (the hybrid engine's CPU share): windows over exactly
// its vertices and their lists, in order, none longer than the capacity.
TEST(WindowPlan, RangeCoversExactlyItsVertices) {
  const std::vector<eid_t> offsets = {0, 3, 3, 10, 11, 30, 31, 31, 40};  // 8 vertices, one of 19 entries
  for (uint64_t first = 0; first <= 8; ++first)
    for (uint64_t last = first; last <= 8; ++last)
      for (uint64_t capacity : {1, 4, 7, 50}) {
        const paged::WindowPlan plan = paged::plan_range(offsets.data(), first, last, capacity);
        uint64_t v = first;
        eid_t e = offsets[first];
        for (const paged::Window& w : plan.windows) {
          EXPECT_EQ(w.first, v);
          EXPECT_EQ(w.begin, e);
          EXPECT_LE(w.end - w.begin, capacity);
          v = w.last > w.first + 1 || w.end == offsets[w.first + 1] ? w.last : w.first;
          e = w.end;
        }
        EXPECT_EQ(v, last) << first << ".." << last << " capacity " << capacity;
        EXPECT_EQ(e, offsets[last]) << first << ".." << last << " capacity " << capacity;
      }
}

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

TEST(WindowPlan, NoWindowCrossesTheResidentEnd) {
  // Degrees 3, 0, 10, 1, 0; edges [0, 5) resident: vertex 2's list is cut at 5.
  const eid_t off[] = {0, 3, 3, 13, 14, 14};
  const paged::WindowPlan plan = paged::plan_all(off, 5, 4, paged::ResidentRange{0, 5});
  std::vector<std::tuple<uint64_t, uint64_t, eid_t, eid_t>> got;
  for (const paged::Window& w : plan.windows) got.emplace_back(w.first, w.last, w.begin, w.end);
  const std::vector<std::tuple<uint64_t, uint64_t, eid_t, eid_t>> want = {
      {0, 2, 0, 3}, {2, 3, 3, 5}, {2, 3, 5, 9}, {2, 3, 9, 13}, {3, 5, 13, 14}};
  EXPECT_EQ(got, want);
  // Members 0, 2, 3 with edges [0, 4) resident, windows of 8: 0 whole, 2's
  // list to 4, on in a piece of 8, then its end with 3's list.
  const vid32_t members[] = {0, 2, 3};
  const paged::WindowPlan list = paged::plan_list(off, members, 3, 8, paged::ResidentRange{0, 4});
  got.clear();
  for (const paged::Window& w : list.windows) got.emplace_back(w.first, w.last, w.begin, w.end);
  const std::vector<std::tuple<uint64_t, uint64_t, eid_t, eid_t>> want_list = {
      {0, 1, 0, 3}, {1, 2, 3, 4}, {1, 2, 4, 12}, {1, 3, 12, 14}};
  EXPECT_EQ(got, want_list);
}

TEST(WindowPlan, NoWindowCrossesEitherEdgeOfAResidentSpan) {
  // Degrees 3, 0, 10, 1, 0; edges [5, 11) resident: vertex 2's list is cut at
  // 5 and at 11, and only the pieces between are served from memory.
  const eid_t off[] = {0, 3, 3, 13, 14, 14};
  const paged::ResidentRange resident{5, 11};
  const paged::WindowPlan plan = paged::plan_all(off, 5, 4, resident);
  std::vector<std::tuple<uint64_t, uint64_t, eid_t, eid_t, bool>> got;
  for (const paged::Window& w : plan.windows) got.emplace_back(w.first, w.last, w.begin, w.end, resident.holds(w));
  const std::vector<std::tuple<uint64_t, uint64_t, eid_t, eid_t, bool>> want = {
      {0, 2, 0, 3, false}, {2, 3, 3, 5, false}, {2, 3, 5, 9, true}, {2, 3, 9, 11, true}, {2, 5, 11, 14, false}};
  EXPECT_EQ(got, want);
  // Only the windows outside it cost a read: edges [0, 5) and [11, 14) of
  // 4-byte ids, each run in its page, at no cost a read.
  EXPECT_EQ(paged::read_cost_bytes(plan, 4, resident, 0), 3 * paged::kPageBytes);
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
    Instance(const Graph<V>& graph, const EdgeReads& reads) : threads_(2) {
      static int count = 0;
      path_ = fast_folder() + "/tg_paged_contract_" + std::to_string(::getpid()) + "_" + std::to_string(count++) + ".tgb";
      write_binary_graph(AnyGraph(graph), path_, false);
      stored_ = std::get<Graph<V>>(read_binary_graph(path_));
      // Windows of 3 edges: every list of more than 3 in pieces.
      file_ = std::make_unique<paged::EdgeFile>(path_, stored_.num_vertices, stored_.num_edges(), sizeof(V));
      buffers_ = std::make_unique<paged::PageBuffers>(2, 3 * paged::kPageBytes, 3 * paged::kPageBytes);
      // Half of the edges resident, from a quarter on: lists across both of
      // its edges too.
      const eid_t m = stored_.num_edges();
      resident_ = std::make_unique<paged::ResidentEdges>(paged::edge_arrays(AnyGraph(stored_), reads), m / 4,
                                                         std::min(m - m / 4, m / 2 + 1));
      engine_ = std::make_unique<engine_t>(stored_, *file_, *buffers_, *resident_, 3);
    }
    ~Instance() { std::filesystem::remove(path_); }
    engine_t& engine() { return *engine_; }

   private:
    ThreadCount threads_;
    std::string path_;
    Graph<V> stored_;
    std::unique_ptr<paged::EdgeFile> file_;
    std::unique_ptr<paged::PageBuffers> buffers_;
    std::unique_ptr<paged::ResidentEdges> resident_;
    std::unique_ptr<engine_t> engine_;
  };
};

static_assert(Engine<paged::PagedCpuEngine<vid32_t>> && Engine<paged::PagedCpuEngine<vid64_t>>);

using PagedEngines = ::testing::Types<PagedFactory<vid32_t>, PagedFactory<vid64_t>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Paged, EngineContract, PagedEngines, FactoryName);

}  // namespace
}  // namespace contract
}  // namespace tg::test
