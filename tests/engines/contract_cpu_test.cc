// The engine contract (engine_contract.h) on the CPU engine: 32- and 64-bit
// ids, 1 and 2 threads (2 threads split one vertex's list over tasks).
#include <type_traits>

#include "engines/cpu/cpu_engine.h"
#include "engines/engine_contract.h"
#include "support/thread_count.h"

namespace tg::test::contract {
namespace {

// The CPU engine without its own buckets: make_buckets falls back to
// FrontierBuckets, the version every other engine (the GPU's) runs.
template <typename V>
class CpuEngineWithFrontierBuckets : public CpuEngine<V> {
 public:
  using CpuEngine<V>::CpuEngine;
  template <typename Key>
  void make_buckets(Key) = delete;
};

template <typename V, int kThreads, bool kFrontierBuckets = false>
struct CpuFactory {
  using vertex_t = V;
  static constexpr bool kAsynchronous = false;
  static std::string name() {
    return std::string(sizeof(V) == 8 ? "v64" : "v32") + "_" + std::to_string(kThreads) + "_threads" +
           (kFrontierBuckets ? "_frontier_buckets" : "");
  }
  using engine_t = std::conditional_t<kFrontierBuckets, CpuEngineWithFrontierBuckets<V>, CpuEngine<V>>;
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
static_assert(Engine<CpuEngineWithFrontierBuckets<vid32_t>>);

using CpuEngines = ::testing::Types<CpuFactory<vid32_t, 1>, CpuFactory<vid32_t, 2>, CpuFactory<vid64_t, 2>,
                                   CpuFactory<vid32_t, 2, true>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Cpu, EngineContract, CpuEngines, FactoryName);

}  // namespace
}  // namespace tg::test::contract
