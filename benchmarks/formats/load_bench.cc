// Load rates of the readers, for docs/PERF-formats.md: a generated text edge
// list, the compressed datasets of ../shared/datasets, and the same graph as
// .tgb written and read back (warm, and with its pages dropped). Beside each,
// read() of the same file: the limit the reader is measured against.
//
//   OMP_NUM_THREADS=2 TG_PERF_EDGES=20000000 build/benchmarks/tg_load_bench
//
// TG_PERF_EDGES (default 1000000) sets the size of the generated edge list
// (ids below 2^24, fewer for small sizes),
// TG_PERF_DIR (default /tmp) where it is kept between runs (with its .tgb),
// TG_DATASETS_DIR where the datasets are (default: the one the build found).
// Wall time is the clock (UseRealTime); CPU time is the whole process's, all
// threads, which on a shared machine says what the load costs when wall time
// says what the neighbours left.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "formats/readers.h"
#include "graph/builder.h"
#include "support/bench_support.h"

namespace tg {
namespace {

std::string perf_dir() {
  const char* v = std::getenv("TG_PERF_DIR");
  return v != nullptr && *v != '\0' ? v : "/tmp";
}

std::string datasets_dir() {
  const char* v = std::getenv("TG_DATASETS_DIR");
  return v != nullptr && *v != '\0' ? v : TG_DATASETS_DIR;
}

uint64_t perf_edges() { return bench::env_u64("TG_PERF_EDGES", 1000000); }

// Drops the file's pages from the page cache (clean pages; no root needed).
void drop_cache(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

uint64_t read_whole_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw std::runtime_error("cannot open " + path);
  std::vector<char> buf(size_t{64} << 20);
  uint64_t total = 0;
  for (ssize_t got; (got = ::read(fd, buf.data(), buf.size())) > 0;) total += static_cast<uint64_t>(got);
  ::close(fd);
  return total;
}

// Generating the text costs more than reading it, so the file is kept (by
// size) between runs; written aside and renamed so that an interrupted run
// leaves no half file behind.
const std::string& text_edge_list() {
  static const std::string path = [] {
    const uint64_t edges = perf_edges();
    std::string p = perf_dir() + "/tg_perf_" + std::to_string(edges) + ".el";
    if (std::filesystem::exists(p)) return p;
    std::filesystem::create_directories(perf_dir());
    std::string part = p + ".part" + std::to_string(::getpid());
    // Ids below 2^24 as in the measurements of docs/PERF-formats.md (20 M
    // edges); fewer edges get fewer ids, so that a smoke run does not write
    // 16 M-vertex offset arrays for a handful of edges.
    const uint64_t ids = std::min(uint64_t{1} << 24, std::bit_ceil(std::max<uint64_t>(edges, 2)));
    std::mt19937_64 rng(1);
    std::ofstream out(part);
    out << "# uniform random edges for the load-rate benchmark\n";
    std::string line;
    for (uint64_t i = 0; i < edges; ++i) {
      line = std::to_string(rng() % ids);
      line += '\t';
      line += std::to_string(rng() % ids);
      line += '\n';
      out << line;
    }
    out.close();
    if (!out) throw std::runtime_error("cannot write " + part);
    std::filesystem::rename(part, p);
    return p;
  }();
  return path;
}

// The text graph built as the .tgb holds it (CSR + CSC).
const AnyGraph& built_graph() {
  static const AnyGraph graph = [] {
    BuildOptions b;
    b.in_edges = true;
    return build_graph(read_edge_list(text_edge_list(), false), b);
  }();
  return graph;
}

// Written once per run rather than kept: a .tgb left by an older build would
// measure (or fail on) an older format.
const std::string& binary_graph() {
  static const std::string path = [] {
    std::string p = perf_dir() + "/tg_perf_" + std::to_string(perf_edges()) + ".tgb";
    write_binary_graph(built_graph(), p);
    return p;
  }();
  return path;
}

void set_rates(benchmark::State& state, uint64_t edges, uint64_t bytes) {
  state.SetBytesProcessed(static_cast<int64_t>(bytes * state.iterations()));
  state.counters["edges/s"] = benchmark::Counter(static_cast<double>(edges), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["edges"] = static_cast<double>(edges);
}

void BM_ReadSyscall(benchmark::State& state, const std::string& (*file)(), bool dropped) {
  const std::string& path = file();
  uint64_t bytes = 0;
  for (auto _ : state) {
    if (dropped) {
      state.PauseTiming();
      drop_cache(path);
      state.ResumeTiming();
    }
    bytes = read_whole_file(path);
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes * state.iterations()));
}

// Reads `path` as an edge list every iteration; returns the edges read.
uint64_t read_edge_lists(benchmark::State& state, const std::string& path) {
  uint64_t edges = 0;
  for (auto _ : state) {
    EdgeList el = read_edge_list(path, false);
    edges = el.num_edges();
    // Freeing the vectors is not part of loading.
    state.PauseTiming();
    el = EdgeList{};
    state.ResumeTiming();
  }
  return edges;
}

void BM_ReadTextEdgeList(benchmark::State& state) {
  const std::string& path = text_edge_list();
  const uint64_t edges = read_edge_lists(state, path);
  // Thrown, not skipped: the smoke test must fail on a wrong count.
  if (edges != perf_edges()) throw std::runtime_error(path + ": " + std::to_string(edges) + " edges read");
  set_rates(state, edges, std::filesystem::file_size(path));
}

void BM_ReadCompressedDataset(benchmark::State& state, const std::string& name) {
  const std::string path = datasets_dir() + "/" + name;
  if (!std::filesystem::exists(path)) {
    state.SkipWithError(("no " + path + " (set TG_DATASETS_DIR)").c_str());
    return;
  }
  const uint64_t edges = read_edge_lists(state, path);
  // Bytes of the compressed file: what comes off the disk.
  set_rates(state, edges, std::filesystem::file_size(path));
}

void BM_WriteBinaryGraph(benchmark::State& state) {
  const AnyGraph& graph = built_graph();
  std::string path = perf_dir() + "/tg_perf_" + std::to_string(perf_edges()) + ".write.tgb";
  for (auto _ : state) write_binary_graph(graph, path);
  set_rates(state, num_edges(graph), std::filesystem::file_size(path));
  std::filesystem::remove(path);
}

void BM_ReadBinaryGraph(benchmark::State& state, bool dropped) {
  const std::string& path = binary_graph();
  uint64_t edges = 0;
  for (auto _ : state) {
    if (dropped) {
      state.PauseTiming();
      drop_cache(path);
      state.ResumeTiming();
    }
    // Verification included: every checksum and id is checked on load.
    AnyGraph g = read_binary_graph(path);
    edges = num_edges(g);
    state.PauseTiming();
    g = AnyGraph{};
    state.ResumeTiming();
  }
  set_rates(state, edges, std::filesystem::file_size(path));
}

void register_benchmarks() {
  const std::string n = std::to_string(perf_edges());
  auto add = [](const std::string& name, auto&&... args) {
    return benchmark::RegisterBenchmark(name.c_str(), args...)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MeasureProcessCPUTime();
  };
  add("read_syscall/text/" + n, BM_ReadSyscall, text_edge_list, false);
  add("read_edge_list/text/" + n, BM_ReadTextEdgeList);
  for (const char* name : {"soc-Slashdot0902.el.gz", "cnr-2000.el.gz", "uk-2007-05-100000.el.gz", "road-NE.el.gz"})
    add(std::string("read_edge_list/") + name, BM_ReadCompressedDataset, std::string(name));
  add("write_binary_graph/" + n, BM_WriteBinaryGraph);
  add("read_syscall/tgb/dropped/" + n, BM_ReadSyscall, binary_graph, true);
  add("read_binary_graph/dropped/" + n, BM_ReadBinaryGraph, true);
  add("read_syscall/tgb/warm/" + n, BM_ReadSyscall, binary_graph, false);
  add("read_binary_graph/warm/" + n, BM_ReadBinaryGraph, false);
}

}  // namespace
}  // namespace tg

// The anonymous registrations above, for bench_main.cc.
void tg::bench::register_benchmarks() { ::tg::register_benchmarks(); }
