// The CPU engine's entry point: one instantiation of every algorithm for each
// vertex id width.
#include "engines/cpu/cpu_engine.h"
#include "engines/cpu/timed_run.h"
#include "engines/run.h"

namespace tg {

RunOutput run_on_cpu(const AnyGraph& any, const RunRequest& request) {
  return std::visit(
      [&](const auto& graph) {
        using V = typename std::decay_t<decltype(graph)>::vertex_t;
        return timed_cpu_run(request, [&] { return CpuEngine<V>(graph); });
      },
      any);
}

}  // namespace tg
