// --host-mem end to end (issue 12, part 3; docs/HOST-MEM.md): with a budget
// below the graph, `tiergraph run` on the CPU engine reads the edges from
// the .tgb file in pages, except those the budget keeps resident, and every
// algorithm's result file equals the in-memory run's, byte for byte (bc:
// within 1e-9, as two in-memory runs), and passes --verify: on an undirected
// Kronecker graph and on a directed graph with its in-edges and a hub, both
// weighted, at a budget just above the smallest, halfway to the graph's
// size, and just below it. The record shows the paging happened (PageRank
// reads the resident edges once and the others every iteration: the more
// resident, the fewer disk bytes); a budget the graph fits reads no disk;
// `bench` runs its CPU placement paged; the refusals are one line each, exit
// code 2.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engines/run.h"
#include "support/run_program.h"

namespace {

using tg::test::count_lines;
using tg::test::ProgramResult;
using tg::test::run_tiergraph;

const std::string kAlgorithms[] = {"bfs", "sssp", "cc", "pagerank", "sswp", "ssnsp", "bc"};

// Per process: ctest runs the tests of this file side by side.
std::string temp(const std::string& name) {
  return ::testing::TempDir() + "/tg_hostmem_" + std::to_string(::getpid()) + "_" + name;
}

// This process's files go when its tests end.
class RemoveFiles : public ::testing::Environment {
 public:
  void TearDown() override {
    const std::string prefix = "tg_hostmem_" + std::to_string(::getpid()) + "_";
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(::testing::TempDir(), error))
      if (entry.path().filename().string().rfind(prefix, 0) == 0) std::filesystem::remove(entry.path(), error);
  }
};
const auto* const kRemoveFiles = ::testing::AddGlobalTestEnvironment(new RemoveFiles);

// kron:12, weighted, as a .tgb (undirected: its out-edges are its in-edges).
const std::string& kron_file() {
  static const std::string path = [] {
    const std::string p = temp("kron12.tgb");
    const ProgramResult r = run_tiergraph("convert kron:12 " + p + " --weights 1:9 -q");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return p;
  }();
  return path;
}

// A directed graph of 3000 vertices with its in-edges: random edges, and
// vertex 7 with 2000 out- and 2000 in-neighbours (lists longer than a window).
const std::string& directed_file() {
  static const std::string path = [] {
    const std::string el = temp("directed.wel");
    std::ofstream out(el);
    uint64_t x = 12345;
    auto next = [&] { return (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
    for (int i = 0; i < 30000; ++i) out << next() % 3000 << ' ' << next() % 3000 << ' ' << 1 + next() % 9 << '\n';
    for (int i = 0; i < 2000; ++i) out << "7 " << (i + 11) % 3000 << " 3\n" << (i * 7 + 5) % 3000 << " 7 2\n";
    out.close();
    const std::string p = temp("directed.tgb");
    const ProgramResult r = run_tiergraph("convert " + el + " " + p + " --in-edges -q");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return p;
  }();
  return path;
}

nlohmann::json run_json(const std::string& args) {
  const ProgramResult r = run_tiergraph(args + " --json");
  EXPECT_EQ(r.exit_code, 0) << args << ": " << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

void expect_refused(const std::string& args, const std::string& fragment) {
  const ProgramResult r = run_tiergraph(args);
  EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
}

// A budget just above the smallest the run takes (from its refusal of 1K):
// buffers of little more than a page, so that many windows are read and
// long lists are read in pieces.
uint64_t near_smallest_budget(const std::string& args) {
  const ProgramResult r = run_tiergraph(args + " --host-mem 1K");
  const std::string at_least = "need at least ";
  const size_t at = r.err.find(at_least);
  EXPECT_NE(at, std::string::npos) << r.err;
  if (at == std::string::npos) return uint64_t{1} << 30;
  const double kib = std::stod(r.err.substr(at + at_least.size()));
  EXPECT_NE(r.err.find(" KiB", at), std::string::npos) << r.err;
  return (static_cast<uint64_t>(kib) + 2) * 1024;
}

// Three budgets for a run of `args`: just above the smallest (few edges or
// none resident), halfway to the bytes the graph takes (`fits`: its offsets
// and edge arrays), and a page below them (all but about two windows'
// worth resident).
std::vector<uint64_t> three_budgets(const std::string& args, uint64_t fits) {
  const uint64_t smallest = near_smallest_budget(args);
  return {smallest, (smallest + fits) / 2, fits - 4096};
}

// bc's dependencies are sums whose order depends on the threads (in memory
// too, from run to run): the same vertices, values within 1e-9.
void expect_close(const std::string& got_file, const std::string& want_file) {
  std::ifstream got(got_file), want(want_file);
  uint64_t got_id = 0, want_id = 0, lines = 0;
  double got_value = 0, want_value = 0;
  while (want >> want_id >> want_value) {
    ASSERT_TRUE(got >> got_id >> got_value) << got_file << " ends at line " << lines;
    ASSERT_EQ(got_id, want_id);
    EXPECT_NEAR(got_value, want_value, 1e-9 * std::max(1.0, std::abs(want_value))) << "vertex " << want_id;
    ++lines;
  }
  EXPECT_FALSE(got >> got_id) << got_file << " has more lines than " << want_file;
  EXPECT_GT(lines, 0u);
}

// Each algorithm in memory and with the three budgets: the same result file.
void expect_same_results(const std::string& graph, uint64_t longest_list) {
  for (const std::string& a : kAlgorithms) {
    const std::string base = "run " + a + " --graph " + graph + " --engine cpu --threads 2 --output ";
    const std::string memory_out = temp(a + "_memory.txt");
    // In memory: a budget the graph fits, whose record gives the bytes it takes.
    const nlohmann::json memory = run_json(base + memory_out + " --host-mem 1G");
    ASSERT_FALSE(memory["details"]["host_mem"]["paged"].get<bool>()) << a;
    const uint64_t fits = memory["details"]["host_mem"]["resident_bytes"].get<uint64_t>();
    uint64_t last_resident = 0;
    bool first = true;
    for (uint64_t budget : three_budgets(base + temp("never.txt"), fits)) {
      const std::string what = a + " on " + graph + " with --host-mem " + std::to_string(budget);
      const std::string paged_out = temp(a + "_paged.txt");
      const nlohmann::json paged = run_json(base + paged_out + " --verify --host-mem " + std::to_string(budget));
      if (a == "bc")
        expect_close(paged_out, memory_out);
      else
        EXPECT_EQ(tg::test::read_text_file(paged_out), tg::test::read_text_file(memory_out)) << what;
      ASSERT_TRUE(paged.contains("details")) << what;
      const nlohmann::json& h = paged["details"]["host_mem"];
      EXPECT_TRUE(h["paged"].get<bool>()) << what;
      EXPECT_GT(h["disk_bytes"].get<uint64_t>(), 0u) << what;
      EXPECT_LE(h["resident_bytes"].get<uint64_t>(), budget) << what;
      // The longest list is read in pieces.
      if (first) EXPECT_LT(h["window_edges"].get<uint64_t>(), longest_list) << what;
      // More of the budget, more edges resident.
      if (!first) EXPECT_GT(h["resident_edge_bytes"].get<uint64_t>(), last_resident) << what;
      last_resident = h["resident_edge_bytes"].get<uint64_t>();
      first = false;
      EXPECT_EQ(h["windows"].get<uint64_t>() + h["resident_windows"].get<uint64_t>(),
                h["prefetched"].get<uint64_t>() + h["waited"].get<uint64_t>())
          << what;
    }
  }
}

TEST(HostMem, KroneckerResultsEqualTheInMemoryRun) { expect_same_results(kron_file(), 1307); }

TEST(HostMem, DirectedWithInEdgesResultsEqualTheInMemoryRun) { expect_same_results(directed_file(), 2000); }

// The resident edges are read once, the others every iteration: the larger
// the budget, the fewer bytes read from the disk.
TEST(HostMem, PageRankReadsTheResidentEdgesOnceAndTheOthersEachIteration) {
  const std::string run = "run pagerank --graph " + kron_file() + " --engine cpu --threads 2";
  const nlohmann::json memory = run_json(run + " --host-mem 1G");
  const uint64_t fits = memory["details"]["host_mem"]["resident_bytes"].get<uint64_t>();
  uint64_t last_disk_bytes = ~uint64_t{0};
  for (uint64_t budget : three_budgets(run, fits)) {
    const std::string what = "--host-mem " + std::to_string(budget);
    const nlohmann::json j = run_json(run + " " + what);
    const nlohmann::json& h = j["details"]["host_mem"];
    ASSERT_TRUE(h["paged"].get<bool>()) << what;
    const uint64_t iterations = j["iterations"].get<uint64_t>();
    // PageRank reads neighbour ids only: 4 bytes an edge of the file.
    const uint64_t edges = j["graph"]["edges"].get<uint64_t>();
    const uint64_t resident = h["resident_edge_bytes"].get<uint64_t>();
    const uint64_t read_once = h["resident_read_bytes"].get<uint64_t>();
    const uint64_t disk_bytes = h["disk_bytes"].get<uint64_t>();
    EXPECT_EQ(h["edge_bytes"].get<uint64_t>(), edges * 4) << what;
    EXPECT_GE(read_once, resident) << what;
    EXPECT_LT(read_once, resident + 4096) << what;
    EXPECT_GE(disk_bytes, read_once + iterations * (edges * 4 - resident)) << what;
    EXPECT_LT(disk_bytes, last_disk_bytes) << what;
    last_disk_bytes = disk_bytes;
    EXPECT_LE(h["resident_bytes"].get<uint64_t>(), budget) << what;
    EXPECT_EQ(j["edges_traversed"].get<uint64_t>(), iterations * edges) << what;
  }
}

// The paged engine's arrays are host arrays: a run killed after a
// checkpoint resumes, with the budget, to the uninterrupted run's file.
TEST(HostMem, KilledAndResumedPageRankEqualsUninterrupted) {
  const std::string run = "run pagerank --graph " + kron_file() + " --engine cpu --threads 2 --host-mem 80K --output ";
  const std::string full = temp("pr_full.txt"), resumed = temp("pr_resumed.txt"), dir = temp("ckpt");
  ASSERT_EQ(run_tiergraph(run + full).exit_code, 0);
  setenv("TG_CHECKPOINT_KILL_AFTER", "6", 1);  // the child inherits it
  const ProgramResult killed = run_tiergraph(run + temp("never.txt") + " --checkpoint " + dir + " --checkpoint-every 3");
  unsetenv("TG_CHECKPOINT_KILL_AFTER");
  EXPECT_EQ(killed.exit_code, 128 + 9) << killed.err;
  const ProgramResult r = run_tiergraph(run + resumed + " --resume " + dir + " --checkpoint-every 3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(tg::test::read_text_file(resumed), tg::test::read_text_file(full));
  std::filesystem::remove_all(dir);
}

TEST(HostMem, AGraphThatFitsIsReadFromMemory) {
  const nlohmann::json j = run_json("run bfs --graph " + kron_file() + " --engine cpu --host-mem 1G");
  const nlohmann::json& h = j["details"]["host_mem"];
  EXPECT_FALSE(h["paged"].get<bool>());
  EXPECT_EQ(h["disk_bytes"].get<uint64_t>(), 0u);
}

TEST(HostMem, BenchRunsTheCpuPlacementPaged) {
  const std::string prefix = temp("bench");
  const ProgramResult r = run_tiergraph("bench " + kron_file() + " -a pagerank,bfs -p cpu -n 1 --threads 2 --no-chart " +
                                        "--host-mem 80K -o " + prefix);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(tg::test::read_text_file(prefix + ".json"));
  ASSERT_EQ(j["runs"].size(), 2u);
  for (const nlohmann::json& run : j["runs"]) {
    EXPECT_EQ(run["verified"].get<std::string>(), "ok");
    EXPECT_TRUE(run["details"]["host_mem"]["paged"].get<bool>());
    EXPECT_GT(run["details"]["host_mem"]["disk_bytes"].get<uint64_t>(), 0u);
  }
  expect_refused("bench " + kron_file() + " -a pagerank -p cpu,device --no-chart --host-mem 80K -o " + prefix,
                 "--placement stream read edges from the file");
  expect_refused("bench " + kron_file() + " -a pagerank -p stream-async --no-chart --host-mem 80K -o " + prefix,
                 "--placement stream read edges from the file");
  expect_refused("bench kron:10 -a pagerank -p cpu --no-chart --host-mem 80K -o " + prefix, "from a .tgb file");
}

// An algorithm's trials are one paged batch: the first reads the resident
// edges from the file and the later ones read only the rest, with the same
// values (each run verified). 200K holds kron_file's offsets, the page
// buffers and about a quarter of its neighbour ids.
TEST(HostMem, BenchTrialsReadTheResidentEdgesOnce) {
  const std::string prefix = temp("bench_trials");
  const ProgramResult r = run_tiergraph("bench " + kron_file() + " -a pagerank --trials 3 -p cpu --threads 2 --no-chart " +
                                        "--host-mem 200K --verify all -o " + prefix);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(tg::test::read_text_file(prefix + ".json"));
  ASSERT_EQ(j["runs"].size(), 3u);
  uint64_t first_disk = 0;
  for (size_t i = 0; i < 3; ++i) {
    const nlohmann::json& run = j["runs"][i];
    SCOPED_TRACE("trial " + std::to_string(i));
    EXPECT_EQ(run["verified"].get<std::string>(), "ok");
    const nlohmann::json& h = run["details"]["host_mem"];
    ASSERT_TRUE(h["paged"].get<bool>()) << h;
    ASSERT_GT(h["resident_edge_bytes"].get<uint64_t>(), 0u) << h;
    const uint64_t disk = h["disk_bytes"].get<uint64_t>(), into_resident = h["resident_read_bytes"].get<uint64_t>();
    if (i == 0) {
      EXPECT_GT(into_resident, 0u) << h;
      first_disk = disk;
    } else {
      EXPECT_EQ(into_resident, 0u) << "read by the first trial: " << h;
      EXPECT_EQ(disk + j["runs"][0]["details"]["host_mem"]["resident_read_bytes"].get<uint64_t>(), first_disk) << h;
    }
  }
}

// A GPU engine's run with --host-mem (args: the engine and placement): on a
// GPU it runs, its partitions read from the file, and verifies; without one
// the refusal is the GPU's, not --host-mem's. The record, or null without a GPU.
nlohmann::json run_on_gpu_from_file(const std::string& engine, const std::string& placement = "stream") {
  const ProgramResult r = run_tiergraph("run pagerank " + engine + " --placement " + placement + " --graph " + kron_file() +
                                        " --host-mem 1G --verify --json");
  std::string why;
  if (!tg::gpu_available(&why)) {
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("GPU"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("--host-mem"), std::string::npos) << r.err;
    return nullptr;
  }
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["verification"]["ok"].get<bool>());
  EXPECT_GT(j["details"]["disk_bytes"].get<uint64_t>(), 0u) << r.out;  // the GPU's partitions, from the file
  return j;
}

// --engine gpu --placement stream takes --host-mem.
TEST(HostMem, OneGpusStreamPlacementReadsTheFile) { run_on_gpu_from_file("--engine gpu"); }

// With --host-mem, --placement auto is the stream placement, the one GPU
// placement that reads the file: `--engine gpu` alone runs it on a GPU (and
// without one is refused for want of a GPU, as above), and the default
// engine runs it where there is a GPU and the paged CPU engine where not.
TEST(HostMem, AutoPlacementIsTheStreamPlacement) {
  run_on_gpu_from_file("--engine gpu", "auto");
  // 300K: below the CPU engine's offsets and edges (paged), above the GPU's
  // offsets and chunk buffers.
  const ProgramResult r = run_tiergraph("run pagerank --graph " + kron_file() + " --host-mem 300K --verify --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["verification"]["ok"].get<bool>());
  std::string why;
  if (tg::gpu_available(&why)) {
    EXPECT_EQ(j["engine"].get<std::string>(), "gpu") << r.out;
    EXPECT_GT(j["details"]["disk_bytes"].get<uint64_t>(), 0u) << r.out;  // the GPU's partitions, from the file
  } else {
    EXPECT_EQ(j["engine"].get<std::string>(), "cpu") << r.out;
    EXPECT_TRUE(j["details"]["host_mem"]["paged"].get<bool>()) << r.out;
  }
}

// --engine hybrid --placement stream too: the GPU's stream placement from the
// file and a CPU side within the other half of the budget (paged where the
// edges exceed it: tests/gpu/host_mem_gpu_test.cc).
TEST(HostMem, HybridStreamPlacementReadsTheFile) {
  const nlohmann::json j = run_on_gpu_from_file("--engine hybrid");
  if (!j.is_null()) EXPECT_EQ(j["engine"].get<std::string>(), "hybrid");
}

// bench takes --host-mem for the stream placements too (the GPU's and the
// hybrid's): on a GPU their rows read the file and verify; without one they
// are rows failed for want of a GPU, and the cpu rows still run paged.
TEST(HostMem, BenchRunsTheStreamPlacementsFromTheFile) {
  const std::string prefix = temp("bench_stream");
  const ProgramResult r = run_tiergraph("bench " + kron_file() + " -a pagerank -p cpu,stream,hybrid-stream -n 1 " +
                                        "--threads 2 --no-chart --host-mem 1G -o " + prefix);
  const nlohmann::json j = nlohmann::json::parse(tg::test::read_text_file(prefix + ".json"));
  ASSERT_EQ(j["runs"].size(), 3u) << r.err;
  std::string why;
  const bool gpu = tg::gpu_available(&why);
  for (const nlohmann::json& run : j["runs"]) {
    const std::string placement = run["placement"].get<std::string>();
    SCOPED_TRACE(placement);
    if (placement == "cpu" || gpu) {
      EXPECT_EQ(run["verified"].get<std::string>(), "ok") << run.dump();
    } else {
      EXPECT_NE(run.dump().find("GPU"), std::string::npos) << run.dump();
    }
    if (gpu && placement != "cpu") EXPECT_GT(run["details"]["disk_bytes"].get<uint64_t>(), 0u) << run.dump();
  }
}

TEST(HostMem, RefusedInOneLine) {
  const std::string run = "run pagerank --engine cpu --graph ";
  expect_refused(run + kron_file() + " --host-mem 10K", "too small");
  expect_refused(run + kron_file() + " --host-mem lots", "not a size");
  expect_refused(run + "kron:10 --host-mem 1M", "from a .tgb file");
  const std::string el = temp("tiny.el");
  std::ofstream(el) << "0 1\n1 2\n";
  expect_refused(run + el + " --host-mem 1M", "from a .tgb file");
  // On the GPU only one GPU's stream placement reads the file (docs/HOST-MEM.md).
  expect_refused("run pagerank --engine gpu --placement device --graph " + kron_file() + " --host-mem 1M",
                 "--placement stream read edges");
  expect_refused("run pagerank --engine hybrid --placement subgraph --graph " + kron_file() + " --host-mem 1M",
                 "--placement stream read edges");
  expect_refused("run pagerank --engine gpu --placement zerocopy-aligned --graph " + kron_file() + " --host-mem 1M",
                 "--placement stream read edges");
  expect_refused(run + kron_file() + " --host-mem 1M --undirected", "as the .tgb file stores them");
  // A directed graph stored without its in-edges, for an algorithm that gathers over them.
  const std::string no_csc = temp("no_csc.tgb");
  directed_file();
  ASSERT_EQ(run_tiergraph("convert " + temp("directed.wel") + " " + no_csc + " -q").exit_code, 0);
  expect_refused(run + no_csc + " --host-mem 90K", "stores no in-edges");
  // BFS pulls only where it can: it runs, pushing, with no CSC built.
  const nlohmann::json bfs = run_json("run bfs --engine cpu --graph " + no_csc + " --host-mem 60K --verify");
  EXPECT_EQ(bfs["pull_steps"].get<uint64_t>(), 0u);
  EXPECT_TRUE(bfs["details"]["host_mem"]["paged"].get<bool>());
}

}  // namespace
