// Stand-in for the GPU sampler where tiergraph was built without nvcc
// (src/CMakeLists.txt picks it; .cpp keeps it out of the globs).
#include "core/error.h"
#include "sampling/gpu_sampler.h"

namespace tg {

struct GpuNeighborSampler::Impl {};

namespace {
constexpr const char* kNoCuda = "no GPU sampler: this tiergraph was built without CUDA (no nvcc at build time)";
}

GpuNeighborSampler::GpuNeighborSampler(const AnyGraph&, const GpuSamplerOptions&) { throw Error(kNoCuda); }
GpuNeighborSampler::~GpuNeighborSampler() = default;
std::vector<SampledHop> GpuNeighborSampler::sample(const std::vector<uint64_t>&, const SampleOptions&) {
  throw Error(kNoCuda);
}
std::vector<HopArrays> GpuNeighborSampler::sample_into(const std::vector<uint64_t>&, const SampleOptions&,
                                                      const DeviceAllocator&, uintptr_t) {
  throw Error(kNoCuda);
}
std::vector<HopArrays> GpuNeighborSampler::sample_to_host(const std::vector<uint64_t>&, const SampleOptions&,
                                                         const HostAllocator&) {
  throw Error(kNoCuda);
}
uint64_t GpuNeighborSampler::graph_bytes_on_gpu() const { return 0; }

bool gpu_sampler_available(std::string* why) {
  if (why) *why = kNoCuda;
  return false;
}

}  // namespace tg
