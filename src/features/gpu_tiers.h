// The GPU side of a feature store (issue 11): the host matrix registered in
// place for zero-copy reads, the plan's GPU tier copied into this GPU's
// memory and its peer tier into the peer GPUs' (interleaved, read directly
// over NVLink), the row-to-rank map beside them, and one gather that reads
// each row from its tier on the store's own stream with a bounded share of
// the SMs. Plain C++: built from features/gpu/gpu_tiers.cu with CUDA, from
// features/gpu_unavailable.cpp (which refuses) without.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "features/tier_plan.h"

namespace tg::features {

// A row-major matrix in host memory that outlives whatever reads it.
struct HostMatrix {
  const void* data = nullptr;
  uint64_t num_rows = 0;
  uint64_t row_bytes = 0;
  uint64_t stride_bytes = 0;  // >= row_bytes
};

struct GpuTierOptions {
  int device = 0;
  double sm_fraction = 1.0;  // share of the SMs the gather kernel may fill, (0, 1]
  std::vector<int> peers;    // the plan's peer i is device peers[i] (features/peer_devices.h)
  // Share of each large gather's host rows that CPU threads gather into
  // pinned memory for the copy engine to carry, beside the kernel's
  // zero-copy reads of the rest (features/cpu_share.h): 0 none, (0, 1] that
  // share, negative: balanced from the rates each gather measures. Gathers
  // of ids already in GPU memory stay on the kernel.
  double cpu_share = 0.0;
  uint64_t cpu_share_from_bytes = uint64_t{4} << 20;  // smaller gathers: the kernel alone
};

class GpuTiers {
 public:
  // Registers the matrix, enables peer access, and fills this GPU's tier
  // and each peer's with the plan's rows (gathers from the registered
  // matrix). Throws tg::Error: no GPU; a device or peer that does not exist
  // or cannot be read, peers other than the plan's count (usage); out of
  // GPU memory on any of them; any CUDA failure.
  GpuTiers(const HostMatrix& matrix, const TierPlan& plan, const GpuTierOptions& options);
  ~GpuTiers();
  GpuTiers(const GpuTiers&) = delete;
  GpuTiers& operator=(const GpuTiers&) = delete;

  // Rows ids[i] packed into fresh device memory (ids.size() * row_bytes;
  // null for none), complete when this returns; freed with the last copy of
  // the pointer. Ids must be rows (check_row_ids): they are not checked here.
  std::shared_ptr<void> gather(std::span<const int64_t> ids);
  // The same rows copied on into host memory.
  void gather_to_host(std::span<const int64_t> ids, void* out);
  // The same rows written into `out` (this GPU's memory, ids.size() *
  // row_bytes, owned by the caller), ordered with `consumer` (a cudaStream_t
  // of this GPU as an integer; 0: the legacy default stream): the writes
  // start after the work queued there so far, and the work queued there
  // next sees them. Returns once queued, with no wait for the GPU, so that a
  // trainer's allocator (torch's caching one) supplies the memory and the
  // gather overlaps what the host does next (with a CPU share, once the
  // threads have gathered their rows and queued the copies).
  void gather_into(std::span<const int64_t> ids, void* out, uintptr_t consumer);
  // The same with the ids in this GPU's memory (a CUDA tensor's), written on
  // `consumer` before the call: checked and counted by tier there, which
  // costs one wait for `consumer`'s queued work and the count's trip back.
  // Throws Error kUsage (naming one) for ids outside [0, rows).
  TierCounts gather_into_from_device(std::span<const int64_t> device_ids, void* out, uintptr_t consumer);

  int device() const;
  const std::vector<int>& peers() const;
  // Empty where the host tier is the caller's matrix read in place; else why
  // it is a copy in pinned memory (RegisteredHostRows).
  const std::string& host_rows_copied_because() const;
  // The CPU threads' share of the next large gather (0 where they take none).
  double cpu_share() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Whether a GPU tier can be built here; if not, why in *why.
bool gpu_tiers_available(std::string* why);

}  // namespace tg::features
