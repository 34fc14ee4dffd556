// The gather's kept queues (GatherQueues, engines/gpu/kernels/step_args.h) and
// the thread pass beside the warp passes (GatherArgs::beside): PageRank on
// every shape in GPU memory, its queues built every iteration, kept, and kept
// with the thread pass beside, each with and without staged values, against
// the CPU engine. The engine contract's GatherApplyRepeatsAcrossPushes checks
// that a push in between has the next gather build them again.
#include <gtest/gtest.h>

#include <string>

#include "gpu/gpu_checks.h"
#include "support/scoped_env.h"

namespace tg::test::gpu {
namespace {

TEST(GpuGatherQueues, PageRankMatchesCpuBuiltKeptAndBeside) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  GpuOptions o;
  o.placement = Placement::kDevice;
  struct Setting {
    const char* keep;
    const char* beside;
  };
  for (const Setting s : {Setting{"0", "0"}, Setting{"1", "0"}, Setting{"1", "1"}})
    for (const char* staged : {"0", "1000"}) {
      const ScopedEnv keep("TG_GATHER_KEEP_QUEUES", s.keep), beside("TG_GATHER_THREADS_BESIDE", s.beside),
          staging("TG_STAGED_VALUES", staged);
      pagerank_on_every_shape(o,
                              std::string(", queues kept ") + s.keep + ", thread pass beside " + s.beside +
                                  ", staged values " + staged,
                              [](const RunOutput&, const AnyGraph&) {});
    }
}

}  // namespace
}  // namespace tg::test::gpu
