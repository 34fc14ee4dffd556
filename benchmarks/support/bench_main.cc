// The main() of every benchmark program: Google Benchmark's, after the
// program's own registrations and the thread-count context line.
#include "support/bench_support.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  tg::bench::add_thread_context();
  tg::bench::register_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
