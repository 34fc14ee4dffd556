// The CPU engine's entry point: one instantiation of every algorithm for each
// vertex id width.
#include <chrono>

#include "engines/cpu/cpu_engine.h"
#include "algorithms/registry.h"
#include "engines/run.h"

namespace tg {

RunOutput run_on_cpu(const AnyGraph& any, const RunRequest& request) {
  return std::visit(
      [&](const auto& graph) {
        using V = typename std::decay_t<decltype(graph)>::vertex_t;
        RunOutput out;
        out.engine = EngineKind::kCpu;
        auto start = std::chrono::steady_clock::now();
        CpuEngine<V> engine(graph);
        static_assert(Engine<CpuEngine<V>>);
        out.values = run_algorithm(engine, *request.algorithm, request.sources, request.options);
        out.stats = engine.stats();
        out.stats.add_phase("compute", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        out.stats.threads = omp_get_max_threads();
        return out;
      },
      any);
}

}  // namespace tg
