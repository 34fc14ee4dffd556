// run_on_engine (engines/engine_choice.h). Built into tiergraph_gpu, not
// tiergraph_lib: the static libraries link as gpu then lib, so a call from
// lib into the GPU library's hybrid entry would find it already passed over
// (libtiergraph.so, whose API reaches the engines only through here). A
// .cpp file, outside src/CMakeLists.txt's globs of *.cc.
#include "engines/engine_choice.h"

#include <memory>

#include "planner/calibrate.h"
#include "planner/planner.h"

namespace tg {

RunOutput run_on_engine(const AnyGraph& graph, const RunRequest& request, const ChosenEngine& choice,
                        const GpuOptions& gpu, const HybridOptions& hybrid) {
  if (choice.hybrid) return run_on_hybrid(graph, request, gpu, hybrid);
  if (!choice.gpu) return run_on_cpu(graph, request);
  if (gpu.placement != Placement::kAuto || gpu.gpus > 0 || gpu.choose_auto) return run_on_gpu(graph, request, gpu);
  // placement auto: the planner chooses, once the engine knows the budget.
  auto plan = std::make_shared<planner::Plan>();
  RunOutput out = run_on_gpu(graph, request,
                             planner::with_planner(graph, request, gpu, planner::find_profile(gpu.profile),
                                                   planner::gpu_identity(gpu.device), plan));
  if (!plan->candidates.empty()) out.stats.plan = planner::to_json(*plan);
  return out;
}

}  // namespace tg
