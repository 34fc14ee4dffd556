#include <mutex>
#include <string>
#include <vector>

#include "engines/gpu/cuda_util.h"
#include "engines/gpu/device_scope.h"
#include "engines/gpu/placed_graph.h"  // gpu::init_cuda
#include "features/gpu/feature_gather.h"
#include "features/gpu_tiers.h"

namespace tg::features {
namespace {

// Device memory freed with its last owner. Not gpu::DeviceArray: that one
// poisons on the legacy default stream, which does not order against the
// store's non-blocking stream.
template <typename T>
std::shared_ptr<T> device_array(uint64_t n) {
  void* p = nullptr;
  TG_CUDA(cudaMalloc(&p, n * sizeof(T)));
  return std::shared_ptr<T>(static_cast<T*>(p), [](T* q) { cudaFree(q); });
}

}  // namespace

struct GpuTiers::Impl {
  int device = 0;
  int max_blocks = 0;
  cudaStream_t stream = nullptr;
  std::unique_ptr<RegisteredHostRows> host;
  std::shared_ptr<uint8_t> hot;       // hot rows, packed, slot order
  std::shared_ptr<int64_t> slot_map;  // row id -> slot or -1; null without hot rows
  std::shared_ptr<int64_t> ids;       // the gathers' ids, kept and grown
  uint64_t ids_capacity = 0;
  AddressOrder order;  // the ids of large gathers, sorted
  std::mutex mutex;    // one gather at a time on the stream

  // Before the members go: nothing may still read the registered matrix.
  ~Impl() {
    if (stream == nullptr) return;
    int previous = 0;
    cudaGetDevice(&previous);
    cudaSetDevice(device);
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
    cudaSetDevice(previous);
  }

  TieredTable table() const { return {host->table(), hot.get(), slot_map.get()}; }

  const int64_t* upload(std::span<const int64_t> given) {
    if (ids_capacity < given.size()) {
      TG_CUDA(cudaStreamSynchronize(stream));  // the old buffer may still be read
      ids = device_array<int64_t>(given.size());
      ids_capacity = given.size();
    }
    TG_CUDA(cudaMemcpyAsync(ids.get(), given.data(), given.size_bytes(), cudaMemcpyHostToDevice, stream));
    return ids.get();
  }

  // Rows of large gathers are read in address order (AddressOrder), which
  // costs a sort on the GPU: below kSortFrom ids the reads are too few to
  // repay it.
  static constexpr uint64_t kSortFrom = 4096;

  void launch(const int64_t* d_ids, uint64_t count, uint8_t* out, int blocks, bool host_tier_only = false) {
    GatherRequest request{d_ids, nullptr, count, out};
    if (count >= kSortFrom && count < (uint64_t{1} << 32)) request = order.sort(request, host->table().num_rows, stream);
    if (!slot_map || host_tier_only)
      gather_rows(host->table(), request, GatherKernel::kAligned, blocks, stream);
    else
      gather_tiered(table(), request, blocks, stream);
  }
};

bool gpu_tiers_available(std::string* why) { return gpu::init_cuda(0, why); }

GpuTiers::GpuTiers(const HostMatrix& m, const TierPlan& plan, const GpuTierOptions& options)
    : impl_(std::make_unique<Impl>()) {
  int count = 0;
  std::string why;
  if (!gpu::init_cuda(0, &why)) throw Error("no usable GPU for the feature store: " + why);
  TG_CUDA(cudaGetDeviceCount(&count));
  if (options.device < 0 || options.device >= count)
    throw usage_error("device " + std::to_string(options.device) + " does not exist (" + std::to_string(count) +
                      " GPU(s))");
  if (!(options.sm_fraction > 0.0 && options.sm_fraction <= 1.0))
    throw usage_error("sm_fraction " + std::to_string(options.sm_fraction) + " is outside (0, 1]");
  Impl& s = *impl_;
  s.device = options.device;
  gpu::DeviceScope scope(s.device);
  s.max_blocks = blocks_for_sm_share(options.sm_fraction);
  TG_CUDA(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
  s.host = std::make_unique<RegisteredHostRows>(m.data, m.num_rows, m.row_bytes, m.stride_bytes);
  if (plan.gpu_rows() == 0 || m.row_bytes == 0) return;
  // The hot tier is filled by the same gather, from the registered matrix.
  size_t free_bytes = 0, total_bytes = 0;
  TG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const uint64_t needed = plan.gpu_rows() * m.row_bytes + m.num_rows * sizeof(int64_t);
  if (needed > free_bytes)
    throw out_of_memory_error("the GPU tier needs " + std::to_string(needed) + " bytes of GPU memory, " +
                std::to_string(free_bytes) + " are free: lower gpu_fraction");
  s.hot = device_array<uint8_t>(plan.gpu_rows() * m.row_bytes);
  s.slot_map = device_array<int64_t>(m.num_rows);
  TG_CUDA(cudaMemcpyAsync(s.slot_map.get(), plan.slot_of_row.data(), m.num_rows * sizeof(int64_t),
                          cudaMemcpyHostToDevice, s.stream));
  s.launch(s.upload(plan.hot_rows), plan.gpu_rows(), s.hot.get(), 0, /*host_tier_only=*/true);
  TG_CUDA(cudaStreamSynchronize(s.stream));
}

GpuTiers::~GpuTiers() = default;

std::shared_ptr<void> GpuTiers::gather(std::span<const int64_t> ids) {
  Impl& s = *impl_;
  const uint64_t bytes = ids.size() * s.host->table().row_bytes;
  if (bytes == 0) return nullptr;
  std::lock_guard<std::mutex> lock(s.mutex);
  gpu::DeviceScope scope(s.device);
  void* out = nullptr;
  TG_CUDA(cudaMalloc(&out, bytes));
  // Freed whenever its last owner goes (a torch tensor, on any thread).
  std::shared_ptr<void> owned(out, [device = s.device](void* p) {
    int previous = 0;
    cudaGetDevice(&previous);
    cudaSetDevice(device);
    cudaFree(p);
    cudaSetDevice(previous);
  });
  // TG_GPU_POISON=1 (the GPU tests): bytes the gather forgets cannot pass.
  if (gpu::poison_allocations()) TG_CUDA(cudaMemsetAsync(out, 0xA5, bytes, s.stream));
  s.launch(s.upload(ids), ids.size(), static_cast<uint8_t*>(out), s.max_blocks);
  TG_CUDA(cudaStreamSynchronize(s.stream));
  return owned;
}

void GpuTiers::gather_to_host(std::span<const int64_t> ids, void* out) {
  const uint64_t bytes = ids.size() * impl_->host->table().row_bytes;
  std::shared_ptr<void> rows = gather(ids);
  gpu::DeviceScope scope(impl_->device);
  if (bytes > 0) TG_CUDA(cudaMemcpy(out, rows.get(), bytes, cudaMemcpyDeviceToHost));
}

int GpuTiers::device() const { return impl_->device; }

}  // namespace tg::features
