// The engine contract (tests/engines/engine_contract.h) on the GPU engine,
// every placement: resident (device, uvm, zero-copy naive / merged /
// aligned) and streamed (subgraph, stream, with and without --async), 32-
// and 64-bit ids. The test operators are compiled here: this file includes
// the kernel definitions, which no other translation unit of the tests does.
#include <algorithm>
#include <memory>
#include <string>

#include "engines/engine_contract.h"
#include "engines/gpu/gpu_engine.cuh"
#include "engines/gpu/kernels/gather.cuh"
#include "engines/gpu/kernels/gather_shards.cuh"
#include "engines/gpu/kernels/pull.cuh"
#include "engines/gpu/kernels/push.cuh"
#include "engines/gpu/placed_graph.h"

namespace tg::test::contract {
namespace {

template <Placement P, typename V, bool kAsync = false, GatherLayout L = GatherLayout::kLists>
struct GpuFactory {
  using vertex_t = V;
  static constexpr bool kAsynchronous = kAsync;
  static std::string name() {
    std::string n(name_of(P));
    std::replace(n.begin(), n.end(), '-', '_');
    return n + (kAsync ? "_async" : "") + (L == GatherLayout::kShards ? "_shards" : "") + (sizeof(V) == 8 ? "_v64" : "_v32");
  }
  static bool available(std::string* why) {
    setenv("TG_GPU_POISON", "1", 1);
    return gpu_available(why);
  }
  static GpuOptions options(const Graph<V>& g) {
    GpuOptions o;
    o.placement = P;
    o.async = kAsync;
    o.gather_layout = L;  // shards: the gathers' compare-and-swap fold (the contract's sum has no hint)
    // Streamed placements: a budget that cuts the graph into many units.
    if (is_streamed(P)) o.memory_budget = std::max<uint64_t>(8192, g.num_edges() * 12 / 8);
    // Zero-copy: naive and merged read every edge over the link; aligned
    // keeps about half of them in its resident edge cache (heads, the
    // longest lists; the whole graph where it is small).
    if (P == Placement::kZeroCopyNaive || P == Placement::kZeroCopyMerged) o.edge_cache = EdgeCacheMode::kOff;
    if (P == Placement::kZeroCopyAligned) o.memory_budget = std::max<uint64_t>(1, g.num_edges() * sizeof(V));
    return o;
  }
  class Instance {
   public:
    Instance(const Graph<V>& graph, const EdgeReads& reads)
        : placed_(graph, reads, options(graph)), engine_(placed_.view(), reads) {}
    gpu::GpuEngine<V>& engine() { return engine_; }

   private:
    gpu::PlacedGraph<V> placed_;
    gpu::GpuEngine<V> engine_;
  };
};

static_assert(Engine<gpu::GpuEngine<vid32_t>> && Engine<gpu::GpuEngine<vid64_t>>);

using GpuEngines = ::testing::Types<
    GpuFactory<Placement::kDevice, vid32_t>, GpuFactory<Placement::kDevice, vid64_t>,
    GpuFactory<Placement::kDevice, vid32_t, false, GatherLayout::kShards>,
    GpuFactory<Placement::kDevice, vid64_t, false, GatherLayout::kShards>,
    GpuFactory<Placement::kUvm, vid32_t>, GpuFactory<Placement::kZeroCopyNaive, vid32_t>,
    GpuFactory<Placement::kZeroCopyMerged, vid32_t>, GpuFactory<Placement::kZeroCopyAligned, vid32_t>,
    GpuFactory<Placement::kZeroCopyAligned, vid64_t>, GpuFactory<Placement::kSubgraph, vid32_t>,
    GpuFactory<Placement::kSubgraph, vid64_t, true>, GpuFactory<Placement::kStream, vid32_t>,
    GpuFactory<Placement::kStream, vid32_t, true>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, EngineContract, GpuEngines, FactoryName);

}  // namespace
}  // namespace tg::test::contract
