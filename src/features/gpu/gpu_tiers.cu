#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "engines/gpu/cuda_util.h"
#include "engines/gpu/device_scope.h"
#include "engines/gpu/placed_graph.h"  // gpu::init_cuda
#include "engines/gpu/side_stream.h"
#include "features/cpu_share.h"
#include "features/gpu/cpu_row_copier.h"
#include "features/gpu/feature_gather.h"
#include "features/gpu_tiers.h"
#include "features/peer_devices.h"

namespace tg::features {
namespace {

// Device memory of `device`, freed with its last owner (a torch tensor's
// deleter, on any thread, with any device current). Not gpu::DeviceArray:
// that one poisons on the legacy default stream, which does not order
// against the store's non-blocking stream.
template <typename T>
std::shared_ptr<T> device_array(uint64_t n, int device) {
  gpu::DeviceScope scope(device);
  void* p = nullptr;
  TG_CUDA(cudaMalloc(&p, n * sizeof(T)));
  return std::shared_ptr<T>(static_cast<T*>(p), [device](T* q) {
    int previous = 0;
    cudaGetDevice(&previous);
    cudaSetDevice(device);
    cudaFree(q);
    cudaSetDevice(previous);
  });
}

void check_free(int device, uint64_t needed, const std::string& tier, const char* lower) {
  gpu::DeviceScope scope(device);
  size_t free_bytes = 0, total_bytes = 0;
  TG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (needed > free_bytes)
    throw out_of_memory_error(tier + " needs " + std::to_string(needed) + " bytes of GPU memory on device " +
                              std::to_string(device) + ", " + std::to_string(free_bytes) + " are free: lower " +
                              lower);
}

// Device memory for values copied from the host, kept and grown.
template <typename T>
struct Uploaded {
  std::shared_ptr<T> data;
  uint64_t capacity = 0;
  // Pageable host memory: the copy waits for the stream's queued work
  // before it starts, so a gather uploads all it needs before its kernels.
  T* from_host(std::span<const T> given, int device, cudaStream_t stream) {
    if (given.empty()) return nullptr;
    if (capacity < given.size()) {
      TG_CUDA(cudaStreamSynchronize(stream));  // the old buffer may still be read
      data = device_array<T>(given.size(), device);
      capacity = given.size();
    }
    TG_CUDA(cudaMemcpyAsync(data.get(), given.data(), given.size_bytes(), cudaMemcpyHostToDevice, stream));
    return data.get();
  }
};

// A timed CUDA event of the current device.
class TimedEvent {
 public:
  TimedEvent() { TG_CUDA(cudaEventCreate(&event_)); }
  ~TimedEvent() { cudaEventDestroy(event_); }
  TimedEvent(const TimedEvent&) = delete;
  TimedEvent& operator=(const TimedEvent&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

float elapsed_ms(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0;
  TG_CUDA(cudaEventElapsedTime(&ms, from, to));
  return ms;
}

}  // namespace

// Gathers shared with CPU threads (features/cpu_share.h): the split, the
// CPU's side, and the events that time both sides for the next split.
struct CpuSide {
  ShareBalance balance;
  uint64_t from_bytes = 0;
  std::vector<uint32_t> rank_of_row;  // the plan's, where GPU memory holds rows
  CpuRowCopier copier;
  TimedEvent start, gpu_done;
  cudaEvent_t cpu_done = nullptr;  // the copier's, of the last shared gather
  uint64_t gpu_rows = 0, cpu_rows = 0;
  Uploaded<int64_t> tail_ids;
  Uploaded<uint32_t> tail_positions, cpu_positions;

  CpuSide(int device, double share, uint64_t from) : balance(share), from_bytes(from), copier(device) {}

  // The last shared gather's rates, into the balance (waits for it).
  void measure_last() {
    if (cpu_done == nullptr) return;
    TG_CUDA(cudaEventSynchronize(gpu_done.get()));
    TG_CUDA(cudaEventSynchronize(cpu_done));
    balance.measured(gpu_rows, elapsed_ms(start.get(), gpu_done.get()), cpu_rows,
                     elapsed_ms(start.get(), cpu_done));
    cpu_done = nullptr;
  }
};

struct GpuTiers::Impl {
  int device = 0;
  int max_blocks = 0;
  std::unique_ptr<RegisteredHostRows> host;
  TierBounds bounds;                           // no device tiers: device_rows 0
  std::shared_ptr<uint32_t> rank_map;          // row id -> rank; null where rank = row id
  std::shared_ptr<uint8_t> local;              // this GPU's tier, slot order
  std::vector<int> peers;                      // peer i's device
  std::vector<std::shared_ptr<uint8_t>> peer;  // peer i's tier in its memory, slot order
  Uploaded<int64_t> ids;                       // the gathers' ids
  AddressOrder order;  // the ids of large gathers, sorted
  HostMatrix matrix;
  std::unique_ptr<CpuSide> cpu;  // where gathers are shared with CPU threads
  std::mutex mutex;    // one gather at a time on the stream
  std::shared_ptr<IdTally> tally, tally_back;  // device ids' checks and counts, and their pinned copy
  // Last: it waits for its gathers before the registered matrix and the
  // tiers they read go.
  std::unique_ptr<gpu::SideStream> side;
  cudaStream_t stream = nullptr;  // side's

  TieredTable table() const {
    TieredTable t{host->table(), rank_map.get(), bounds, local.get()};
    for (size_t i = 0; i < peer.size(); ++i) t.peers[i] = peer[i].get();
    return t;
  }

  const int64_t* upload(std::span<const int64_t> given) { return ids.from_host(given, device, stream); }

  // Rows of large gathers are read in address order (AddressOrder), which
  // costs a sort on the GPU: below kSortFrom ids the reads are too few to
  // repay it.
  static constexpr uint64_t kSortFrom = 4096;

  void launch(const int64_t* d_ids, uint64_t count, uint8_t* out, int blocks, bool host_tier_only = false) {
    GatherRequest request{d_ids, nullptr, count, out};
    if (count >= kSortFrom && count < (uint64_t{1} << 32)) request = order.sort(request, host->table().num_rows, stream);
    if (bounds.device_rows == 0 || host_tier_only)
      gather_rows(host->table(), request, GatherKernel::kAligned, blocks, stream);
    else
      gather_tiered(table(), request, blocks, stream);
  }

  // Rows of host ids into out: shared with the CPU threads where they are
  // on and the gather is large enough, by the kernel alone otherwise.
  void launch_host_ids(std::span<const int64_t> given, uint8_t* out, int blocks) {
    const uint64_t row_bytes = host->table().row_bytes;
    if (!cpu || given.size() * row_bytes < cpu->from_bytes) {
      launch(upload(given), given.size(), out, blocks);
      return;
    }
    CpuSide& c = *cpu;
    c.measure_last();
    const CpuShareSplit split = split_for_cpu(given, c.balance.share(), c.rank_of_row, bounds);
    if (split.cpu_ids.empty()) {
      launch(upload(given), given.size(), out, blocks);
      return;
    }
    // Every upload before the first kernel: pageable copies wait for it.
    TG_CUDA(cudaEventRecord(c.start.get(), stream));
    const int64_t* head = upload(given.first(split.gpu_count));
    const int64_t* tail = c.tail_ids.from_host(std::span<const int64_t>(split.tail_gpu_ids), device, stream);
    const uint32_t* tail_places =
        c.tail_positions.from_host(std::span<const uint32_t>(split.tail_gpu_positions), device, stream);
    const uint32_t* cpu_places =
        c.cpu_positions.from_host(std::span<const uint32_t>(split.cpu_positions), device, stream);
    launch(head, split.gpu_count, out, blocks);
    if (tail != nullptr) gather_tiered(table(), {tail, tail_places, split.tail_gpu_ids.size(), out}, blocks, stream);
    TG_CUDA(cudaEventRecord(c.gpu_done.get(), stream));
    const uint64_t m = split.cpu_ids.size();
    if (cpu_places == nullptr) {  // the tail's rows land in their places
      c.cpu_done = c.copier.copy(matrix, split.cpu_ids, out + split.gpu_count * row_bytes, c.start.get());
      TG_CUDA(cudaStreamWaitEvent(stream, c.cpu_done, 0));
    } else {  // they land packed and the kernel puts each in its place
      uint8_t* landed = c.copier.landing(m * row_bytes, stream);
      c.cpu_done = c.copier.copy(matrix, split.cpu_ids, landed, c.start.get());
      TG_CUDA(cudaStreamWaitEvent(stream, c.cpu_done, 0));
      gather_rows({landed, m, row_bytes, row_bytes}, {nullptr, cpu_places, m, out}, GatherKernel::kAligned, blocks,
                  stream);
    }
    c.gpu_rows = split.gpu_count + split.tail_gpu_ids.size();
    c.cpu_rows = m;
  }

  // A tier's rows gathered from the registered matrix into `to` (this GPU's
  // memory, or a peer's written over the peer link); waited for by the
  // constructor's final synchronize, which keeps `rows` alive till then.
  void fill(const std::vector<int64_t>& rows, uint8_t* to) {
    if (!rows.empty()) launch(upload(rows), rows.size(), to, 0, /*host_tier_only=*/true);
  }
};

bool gpu_tiers_available(std::string* why) { return gpu::init_cuda(0, why); }

GpuTiers::GpuTiers(const HostMatrix& m, const TierPlan& plan, const GpuTierOptions& options)
    : impl_(std::make_unique<Impl>()) {
  std::string why;
  if (!gpu::init_cuda(0, &why)) throw Error("no usable GPU for the feature store: " + why);
  gpu::check_device_exists(options.device);
  if (!(options.sm_fraction > 0.0 && options.sm_fraction <= 1.0))
    throw usage_error("sm_fraction " + std::to_string(options.sm_fraction) + " is outside (0, 1]");
  check_cpu_share(options.cpu_share);
  if (plan.num_peers() != options.peers.size())
    throw usage_error("peers: the tier plan has " + std::to_string(plan.num_peers()) + " peer GPU(s), the options " +
                      std::to_string(options.peers.size()));
  Impl& s = *impl_;
  s.device = options.device;
  s.peers = choose_peers(s.device, options.peers).peers;  // checks each: exists, readable from device
  gpu::DeviceScope scope(s.device);
  s.max_blocks = blocks_for_sm_share(options.sm_fraction);
  s.side = std::make_unique<gpu::SideStream>(s.device);
  s.stream = s.side->get();
  s.tally = device_array<IdTally>(1, s.device);
  s.tally_back = gpu::pinned_array<IdTally>(1);
  s.host = std::make_unique<RegisteredHostRows>(m.data, m.num_rows, m.row_bytes, m.stride_bytes);
  s.matrix = m;
  if (options.cpu_share != 0.0 && m.row_bytes > 0) {
    s.cpu = std::make_unique<CpuSide>(s.device, options.cpu_share, options.cpu_share_from_bytes);
    if (plan.bounds.device_rows > 0) s.cpu->rank_of_row = plan.rank_of_row;
  }
  if (plan.bounds.device_rows == 0 || m.row_bytes == 0) return;
  // GPU memory is checked on every device before any is taken.
  const uint64_t map_bytes = plan.rank_of_row.size() * sizeof(uint32_t);
  check_free(s.device, plan.gpu_rows() * m.row_bytes + map_bytes, "the GPU tier", "gpu_fraction");
  std::vector<std::vector<int64_t>> peer_rows(s.peers.size());
  for (size_t i = 0; i < s.peers.size(); ++i) {
    peer_rows[i] = plan.peer_tier_rows(static_cast<uint32_t>(i));
    check_free(s.peers[i], peer_rows[i].size() * m.row_bytes, "the peer tier", "peer_fraction");
  }
  enable_peer_access(s.device, s.peers);
  if (map_bytes > 0) {
    s.rank_map = device_array<uint32_t>(plan.rank_of_row.size(), s.device);
    TG_CUDA(cudaMemcpyAsync(s.rank_map.get(), plan.rank_of_row.data(), map_bytes, cudaMemcpyHostToDevice, s.stream));
  }
  // Every tier is filled by the same gather, from the registered matrix.
  const std::vector<int64_t> gpu_rows = plan.gpu_tier_rows();
  if (!gpu_rows.empty()) s.local = device_array<uint8_t>(gpu_rows.size() * m.row_bytes, s.device);
  s.fill(gpu_rows, s.local.get());
  s.peer.resize(s.peers.size());
  for (size_t i = 0; i < s.peers.size(); ++i) {
    if (peer_rows[i].empty()) continue;  // fewer peer rows than peers
    s.peer[i] = device_array<uint8_t>(peer_rows[i].size() * m.row_bytes, s.peers[i]);
    s.fill(peer_rows[i], s.peer[i].get());
  }
  TG_CUDA(cudaStreamSynchronize(s.stream));
  s.bounds = plan.bounds;  // from here the gathers read the tiers
}

GpuTiers::~GpuTiers() = default;

std::shared_ptr<void> GpuTiers::gather(std::span<const int64_t> ids) {
  Impl& s = *impl_;
  const uint64_t bytes = ids.size() * s.host->table().row_bytes;
  if (bytes == 0) return nullptr;
  std::lock_guard<std::mutex> lock(s.mutex);
  gpu::DeviceScope scope(s.device);
  std::shared_ptr<uint8_t> out = device_array<uint8_t>(bytes, s.device);
  // TG_GPU_POISON=1 (the GPU tests): bytes the gather forgets cannot pass.
  if (gpu::poison_allocations()) TG_CUDA(cudaMemsetAsync(out.get(), 0xA5, bytes, s.stream));
  s.launch_host_ids(ids, out.get(), s.max_blocks);
  TG_CUDA(cudaStreamSynchronize(s.stream));
  return out;
}

// Both ways in order with the caller's stream (gpu::SideStream): after what
// it has queued (device ids it wrote; memory its allocator handed out again),
// before what it queues next.
void GpuTiers::gather_into(std::span<const int64_t> ids, void* out, uintptr_t consumer) {
  Impl& s = *impl_;
  const uint64_t bytes = ids.size() * s.host->table().row_bytes;
  if (bytes == 0) return;
  if (out == nullptr) throw usage_error("feature store: the output is null");
  std::lock_guard<std::mutex> lock(s.mutex);
  gpu::DeviceScope scope(s.device);
  const auto theirs = reinterpret_cast<cudaStream_t>(consumer);
  s.side->wait_for(theirs);
  if (gpu::poison_allocations()) TG_CUDA(cudaMemsetAsync(out, 0xA5, bytes, s.stream));
  s.launch_host_ids(ids, static_cast<uint8_t*>(out), s.max_blocks);
  s.side->release_to(theirs);
}

TierCounts GpuTiers::gather_into_from_device(std::span<const int64_t> device_ids, void* out, uintptr_t consumer) {
  Impl& s = *impl_;
  const uint64_t n = device_ids.size(), bytes = n * s.host->table().row_bytes;
  if (n == 0) return {};
  if (out == nullptr && bytes > 0) throw usage_error("feature store: the output is null");
  std::lock_guard<std::mutex> lock(s.mutex);
  gpu::DeviceScope scope(s.device);
  const auto theirs = reinterpret_cast<cudaStream_t>(consumer);
  s.side->wait_for(theirs);
  tally_ids(s.table(), device_ids.data(), n, s.tally.get(), s.stream);
  TG_CUDA(cudaMemcpyAsync(s.tally_back.get(), s.tally.get(), sizeof(IdTally), cudaMemcpyDeviceToHost, s.stream));
  TG_CUDA(cudaStreamSynchronize(s.stream));
  const IdTally t = *s.tally_back;
  if (t.out_of_range > 0)
    throw usage_error("ids hold " + std::to_string(t.an_out_of_range_id) +
                      (t.out_of_range > 1 ? " and " + std::to_string(t.out_of_range - 1) + " more ids" : std::string()) +
                      (t.out_of_range > 1 ? " negative or out of range" :
                       t.an_out_of_range_id < 0 ? ", negative" : ", out of range") +
                      ": the table has " + std::to_string(s.host->table().num_rows) + " rows");
  if (bytes > 0) {
    if (gpu::poison_allocations()) TG_CUDA(cudaMemsetAsync(out, 0xA5, bytes, s.stream));
    s.launch(device_ids.data(), n, static_cast<uint8_t*>(out), s.max_blocks);
    s.side->release_to(theirs);
  }
  return {t.gpu, t.peer, t.host};
}

void GpuTiers::gather_to_host(std::span<const int64_t> ids, void* out) {
  const uint64_t bytes = ids.size() * impl_->host->table().row_bytes;
  std::shared_ptr<void> rows = gather(ids);
  gpu::DeviceScope scope(impl_->device);
  if (bytes > 0) TG_CUDA(cudaMemcpy(out, rows.get(), bytes, cudaMemcpyDeviceToHost));
}

int GpuTiers::device() const { return impl_->device; }
double GpuTiers::cpu_share() const { return impl_->cpu ? impl_->cpu->balance.share() : 0.0; }
const std::vector<int>& GpuTiers::peers() const { return impl_->peers; }
const std::string& GpuTiers::host_rows_copied_because() const { return impl_->host->copied_because(); }

}  // namespace tg::features
