// run_on_engine (engines/engine_choice.h). Built into tiergraph_gpu, not
// tiergraph_lib: the static libraries link as gpu then lib, so a call from
// lib into the GPU library's hybrid entry would find it already passed over
// (libtiergraph.so, whose API reaches the engines only through here). A
// .cpp file, outside src/CMakeLists.txt's globs of *.cc.
#include "engines/engine_choice.h"

namespace tg {

RunOutput run_on_engine(const AnyGraph& graph, const RunRequest& request, const ChosenEngine& choice,
                        const GpuOptions& gpu, const HybridOptions& hybrid) {
  if (choice.hybrid) return run_on_hybrid(graph, request, gpu, hybrid);
  if (choice.gpu) return run_on_gpu(graph, request, gpu);
  return run_on_cpu(graph, request);
}

}  // namespace tg
