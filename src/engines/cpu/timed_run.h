// One run of a request's algorithm on an engine of the CPU's (the CPU engine,
// or the paged one of --host-mem): the values, the engine's stats, the time
// from making the engine to the result as the "compute" phase, the threads.
#pragma once

#include <omp.h>

#include <chrono>

#include "algorithms/registry.h"
#include "engines/run.h"

namespace tg {

// make() returns the engine (made inside the timed phase).
template <typename MakeEngine>
RunOutput timed_cpu_run(const RunRequest& request, MakeEngine make) {
  RunOutput out;
  out.engine = EngineKind::kCpu;
  const auto start = std::chrono::steady_clock::now();
  auto engine = make();
  static_assert(Engine<decltype(engine)>);
  out.values = run_algorithm(engine, *request.algorithm, request.sources, request.options);
  out.stats = engine.stats();
  out.stats.add_phase("compute", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  out.stats.threads = omp_get_max_threads();
  return out;
}

}  // namespace tg
