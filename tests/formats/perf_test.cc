// Load-rate measurements for docs/PERF-formats.md. Disabled by default (a
// benchmark, not a test); run with
//   OMP_NUM_THREADS=2 build/tests/tg_formats_tests --gtest_also_run_disabled_tests \
//     --gtest_filter='FormatsPerf.*'
// TG_PERF_EDGES (default 20000000) sets the size of the generated edge list,
// TG_PERF_DIR (default /tmp) where it and its .tgb are written (kept between runs).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <omp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "formats/readers.h"
#include "graph/builder.h"
#include "support/datasets.h"

namespace tg {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CPU seconds (user + system) of the process: on a shared machine, the rate
// per CPU-second says what the code costs when wall time says what the
// neighbours left.
double cpu_seconds() {
  rusage u;
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

uint64_t env_u64(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::stoull(v) : fallback;
}

std::string perf_dir() {
  const char* v = std::getenv("TG_PERF_DIR");
  return v != nullptr && *v != '\0' ? v : "/tmp";
}

// Drops the file's pages from the page cache (clean pages; no root needed).
void drop_cache(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

// read() of the whole file into one buffer: what the page cache (or disk) gives.
double read_rate_gib(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  std::vector<char> buf(size_t{64} << 20);
  auto t0 = std::chrono::steady_clock::now();
  uint64_t total = 0;
  for (ssize_t got; (got = ::read(fd, buf.data(), buf.size())) > 0;) total += static_cast<uint64_t>(got);
  double s = seconds_since(t0);
  ::close(fd);
  return static_cast<double>(total) / s / (1 << 30);
}

std::string make_edge_list(uint64_t edges) {
  std::string path = perf_dir() + "/tg_perf_" + std::to_string(edges) + ".el";
  if (std::filesystem::exists(path)) return path;
  std::mt19937_64 rng(1);
  std::ofstream out(path + ".part");
  out << "# uniform random edges for the load-rate benchmark\n";
  std::string line;
  for (uint64_t i = 0; i < edges; ++i) {
    line = std::to_string(rng() % (uint64_t{1} << 24));
    line += '\t';
    line += std::to_string(rng() % (uint64_t{1} << 24));
    line += '\n';
    out << line;
  }
  out.close();
  std::filesystem::rename(path + ".part", path);
  return path;
}

TEST(FormatsPerf, DISABLED_LoadRates) {
  const uint64_t edges = env_u64("TG_PERF_EDGES", 20000000);
  const int threads = omp_get_max_threads();
  std::printf("threads %d\n", threads);
  std::string el_path = make_edge_list(edges);
  const double mib = static_cast<double>(std::filesystem::file_size(el_path)) / (1 << 20);

  // Uncompressed text, warm page cache (best of 3).
  read_rate_gib(el_path);
  std::printf("%-40s read() %.2f GiB/s (page cache)\n", el_path.c_str(), read_rate_gib(el_path));
  double best = 1e9, best_cpu = 1e9;
  EdgeList el;
  for (int rep = 0; rep < 3; ++rep) {
    el = EdgeList{};
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpu_seconds();
    el = read_edge_list(el_path, false);
    best = std::min(best, seconds_since(t0));
    best_cpu = std::min(best_cpu, cpu_seconds() - c0);
  }
  ASSERT_EQ(el.num_edges(), edges);
  std::printf("%-40s %8.1f MiB %10llu edges  %.3f s  %6.1f M edges/s  %6.0f MiB/s  (%.3f CPU-s)\n", "text .el (warm, best of 3)", mib,
              static_cast<unsigned long long>(edges), best, edges / best / 1e6, mib / best, best_cpu);

  // Compressed datasets.
  for (const char* name : {"soc-Slashdot0902.el.gz", "cnr-2000.el.gz", "uk-2007-05-100000.el.gz", "road-NE.el.gz"}) {
    std::string path = test::dataset(name);
    read_edge_list(path, false);
    double s = 1e9, cpu = 1e9;
    uint64_t m = 0;
    for (int rep = 0; rep < 3; ++rep) {
      auto t0 = std::chrono::steady_clock::now();
      double c0 = cpu_seconds();
      m = read_edge_list(path, false).num_edges();
      s = std::min(s, seconds_since(t0));
      cpu = std::min(cpu, cpu_seconds() - c0);
    }
    std::printf("%-40s %8.1f MiB gz %8llu edges  %.3f s  %6.1f M edges/s  (%.3f CPU-s)\n", name,
                static_cast<double>(std::filesystem::file_size(path)) / (1 << 20), static_cast<unsigned long long>(m), s,
                m / s / 1e6, cpu);
  }

  // The same graph as .tgb (CSR + CSC), cold-ish and warm.
  BuildOptions b;
  b.in_edges = true;
  auto t0 = std::chrono::steady_clock::now();
  AnyGraph g = build_graph(std::move(el), b);
  std::printf("build_graph (CSR + CSC)                  %.3f s\n", seconds_since(t0));
  std::string tgb = perf_dir() + "/tg_perf_" + std::to_string(edges) + ".tgb";
  t0 = std::chrono::steady_clock::now();
  write_binary_graph(g, tgb);
  std::printf("write_binary_graph                       %.3f s\n", seconds_since(t0));
  g = AnyGraph{};
  const double tgb_mib = static_cast<double>(std::filesystem::file_size(tgb)) / (1 << 20);
  for (int rep = 0; rep < 2; ++rep) {
    drop_cache(tgb);
    t0 = std::chrono::steady_clock::now();
    AnyGraph cold = read_binary_graph(tgb);
    double s = seconds_since(t0);
    std::printf("%-40s %8.1f MiB  %.3f s  %6.0f MiB/s\n", "read_binary_graph (page cache dropped)", tgb_mib, s, tgb_mib / s);
  }
  drop_cache(tgb);
  std::printf("%-40s read() %.2f GiB/s (page cache dropped)\n", "", read_rate_gib(tgb));
  std::printf("%-40s read() %.2f GiB/s (page cache)\n", "", read_rate_gib(tgb));
  best = 1e9;
  for (int rep = 0; rep < 5; ++rep) {
    t0 = std::chrono::steady_clock::now();
    AnyGraph warm = read_binary_graph(tgb);
    best = std::min(best, seconds_since(t0));
  }
  std::printf("%-40s %8.1f MiB  %.3f s  %6.0f MiB/s\n", "read_binary_graph (warm, best of 5)", tgb_mib, best, tgb_mib / best);
}

}  // namespace
}  // namespace tg
