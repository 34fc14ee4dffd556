// Stand-in for the feature store's GPU tiers where tiergraph was built
// without nvcc (src/CMakeLists.txt picks it; .cpp keeps it out of the globs).
#include "core/error.h"
#include "features/gpu_tiers.h"
#include "features/peer_devices.h"

namespace tg::features {

struct GpuTiers::Impl {};

namespace {
constexpr const char* kNoCuda = "no GPU feature tiers: this tiergraph was built without CUDA (no nvcc at build time)";
}

GpuTiers::GpuTiers(const HostMatrix&, const TierPlan&, const GpuTierOptions&) { throw Error(kNoCuda); }
GpuTiers::~GpuTiers() = default;
std::shared_ptr<void> GpuTiers::gather(std::span<const int64_t>) { throw Error(kNoCuda); }
void GpuTiers::gather_to_host(std::span<const int64_t>, void*) { throw Error(kNoCuda); }
void GpuTiers::gather_into(std::span<const int64_t>, void*, uintptr_t) { throw Error(kNoCuda); }
TierCounts GpuTiers::gather_into_from_device(std::span<const int64_t>, void*, uintptr_t) { throw Error(kNoCuda); }
int GpuTiers::device() const { return -1; }
double GpuTiers::cpu_share() const { return 0.0; }
const std::vector<int>& GpuTiers::peers() const { throw Error(kNoCuda); }
const std::string& GpuTiers::host_rows_copied_because() const { throw Error(kNoCuda); }

PeerChoice choose_peers(int, const std::optional<std::vector<int>>&) { throw Error(kNoCuda); }
void enable_peer_access(int, std::span<const int>) { throw Error(kNoCuda); }

bool gpu_tiers_available(std::string* why) {
  if (why) *why = kNoCuda;
  return false;
}

}  // namespace tg::features
