// The engine contract (engine_contract.h) on the CPU engine: 32- and 64-bit
// ids, 1 and 2 threads (2 threads split one vertex's list over tasks).

#include "engines/cpu/cpu_engine.h"
#include "engines/engine_contract.h"
#include "support/thread_count.h"

namespace tg::test::contract {
namespace {

template <typename V, int kThreads>
struct CpuFactory {
  using vertex_t = V;
  static constexpr bool kAsynchronous = false;
  static std::string name() {
    return std::string(sizeof(V) == 8 ? "v64" : "v32") + "_" + std::to_string(kThreads) + "_threads";
  }
  using engine_t = CpuEngine<V>;
  static bool available(std::string*) { return true; }
  class Instance {
   public:
    Instance(const Graph<V>& graph, const EdgeReads&) : threads_(kThreads), engine_(graph) {}
    engine_t& engine() { return engine_; }

   private:
    ThreadCount threads_;
    engine_t engine_;
  };
};

static_assert(Engine<CpuEngine<vid32_t>> && Engine<CpuEngine<vid64_t>>);

using CpuEngines = ::testing::Types<CpuFactory<vid32_t, 1>, CpuFactory<vid32_t, 2>, CpuFactory<vid64_t, 2>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, EngineContract, CpuEngines, FactoryName);

}  // namespace
}  // namespace tg::test::contract
