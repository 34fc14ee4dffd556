// Building the resident edge cache in GPU memory (edge_cache.h): the heads by
// a kernel over the pinned arrays (each lane a vertex, reading its first
// entries over the link once), the whole lists and the lookup on the host,
// copied through a pinned staging buffer so that the build needs no device
// memory beyond the cache itself.
#include "engines/gpu/edge_cache.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>

#include "engines/gpu/cuda_util.h"

namespace tg::gpu {

namespace {

template <typename T>
T* allocate(uint64_t count, std::vector<void*>& allocations) {
  if (count == 0) return nullptr;
  void* p = nullptr;
  TG_CUDA(cudaMalloc(&p, count * sizeof(T)));
  allocations.push_back(p);
  return static_cast<T*>(p);
}

// Entry i < heads of every vertex's list into plane i; entries past a
// list's end stay unwritten (the kernels never read them).
template <typename V>
__global__ void fill_heads(const eid_t* offsets, const V* ids, const weight_t* weights, uint64_t n, int heads,
                           V* head_ids, weight_t* head_weights) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t v = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n; v += stride) {
    const eid_t b = offsets[v], e = offsets[v + 1];
    for (int i = 0; i < heads && b + i < e; ++i) {
      head_ids[i * n + v] = ids[b + i];
      if (head_weights != nullptr) head_weights[i * n + v] = weights[b + i];
    }
  }
}

// A pinned host buffer the lists are gathered into before each copy: at
// most 64 MiB, and no more than the largest array it stages (pinning costs
// time in proportion, and small graphs are placed many times in the tests).
class Staging {
 public:
  static constexpr uint64_t kMaxBytes = uint64_t{64} << 20;
  explicit Staging(uint64_t bytes) : bytes_(std::min(bytes, kMaxBytes)) {
    TG_CUDA(cudaHostAlloc(&p_, bytes_, cudaHostAllocDefault));
  }
  ~Staging() { cudaFreeHost(p_); }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  char* data() { return static_cast<char*>(p_); }
  uint64_t bytes() const { return bytes_; }

 private:
  uint64_t bytes_;
  void* p_ = nullptr;
};

// The lists of `vertices` (ascending), of `size`-byte entries, one after
// another from `host` into `device`.
void copy_lists(const eid_t* offsets, const std::vector<uint64_t>& vertices, const void* host, size_t size,
                void* device, Staging& staging) {
  char* out = static_cast<char*>(device);
  uint64_t filled = 0;
  auto send = [&] {
    TG_CUDA(cudaMemcpy(out, staging.data(), filled, cudaMemcpyHostToDevice));
    out += filled;
    filled = 0;
  };
  for (uint64_t v : vertices) {
    const char* from = static_cast<const char*>(host) + offsets[v] * size;
    uint64_t bytes = (offsets[v + 1] - offsets[v]) * size;
    while (bytes > 0) {
      const uint64_t part = std::min(bytes, staging.bytes() - filled);
      std::memcpy(staging.data() + filled, from, part);
      filled += part;
      from += part;
      bytes -= part;
      if (filled == staging.bytes()) send();
    }
  }
  if (filled > 0) send();
}

template <typename V>
void build_heads(const EdgeCachePlan& plan, const CacheableCsr<V>& csr, uint64_t n, std::vector<void*>& allocations) {
  EdgeCacheView<V>& c = csr.placed->view.cache;
  c.heads = plan.heads;
  c.plane = n;
  V* ids = allocate<V>(n * plan.heads, allocations);
  weight_t* weights = csr.host_weights ? allocate<weight_t>(n * plan.heads, allocations) : nullptr;
  c.head_ids = ids;
  c.head_weights = weights;
  const CsrView<V>& view = csr.placed->view;
  fill_heads<<<div_up(n, kBlock), kBlock>>>(view.offsets, view.neighbors, view.weights, n, plan.heads, ids, weights);
  TG_CUDA_CHECK_LAUNCH();
}

template <typename V>
void build_lists(const CachedLists& lists, const CacheableCsr<V>& csr, uint64_t n, std::vector<void*>& allocations,
                 Staging* staging) {
  EdgeCacheView<V>& c = csr.placed->view.cache;
  c.min_degree = static_cast<int64_t>(lists.min_degree);
  c.all = lists.all;
  V* ids = allocate<V>(lists.entries, allocations);
  weight_t* weights = csr.host_weights ? allocate<weight_t>(lists.entries, allocations) : nullptr;
  c.ids = ids;
  c.weights = weights;
  if (lists.all) {
    // A copy of the whole arrays: a list's entries keep their CSR offsets.
    TG_CUDA(cudaMemcpy(ids, csr.host_neighbors, lists.entries * sizeof(V), cudaMemcpyHostToDevice));
    if (weights) TG_CUDA(cudaMemcpy(weights, csr.host_weights, lists.entries * sizeof(weight_t), cudaMemcpyHostToDevice));
    return;
  }
  // The lookup: a bit per cached vertex, and each cached list's start.
  std::vector<CacheWord> words((n + 31) / 32, CacheWord{0, 0});
  std::vector<eid_t> starts;
  starts.reserve(lists.vertices.size() + 1);
  eid_t at = 0;
  for (uint64_t v : lists.vertices) {
    words[v >> 5].bits |= 1u << (v & 31);
    starts.push_back(at);
    at += csr.host_offsets[v + 1] - csr.host_offsets[v];
  }
  starts.push_back(at);
  uint32_t before = 0;
  for (CacheWord& w : words) {
    w.before = before;
    before += static_cast<uint32_t>(std::popcount(w.bits));
  }
  CacheWord* d_words = allocate<CacheWord>(words.size(), allocations);
  eid_t* d_starts = allocate<eid_t>(starts.size(), allocations);
  TG_CUDA(cudaMemcpy(d_words, words.data(), words.size() * sizeof(CacheWord), cudaMemcpyHostToDevice));
  TG_CUDA(cudaMemcpy(d_starts, starts.data(), starts.size() * sizeof(eid_t), cudaMemcpyHostToDevice));
  c.words = d_words;
  c.starts = d_starts;
  copy_lists(csr.host_offsets, lists.vertices, csr.host_neighbors, sizeof(V), ids, *staging);
  if (weights) copy_lists(csr.host_offsets, lists.vertices, csr.host_weights, sizeof(weight_t), weights, *staging);
}

}  // namespace

template <typename V>
void build_edge_cache(const EdgeCachePlan& plan, int heads_of, const std::vector<CacheableCsr<V>>& csrs, uint64_t n,
                      std::vector<void*>& allocations) {
  if (plan.heads > 0) build_heads(plan, csrs.at(heads_of), n, allocations);
  uint64_t staged = 0;  // the largest array of lists copied through the staging buffer
  for (const CachedLists& lists : plan.lists)
    if (!lists.all) staged = std::max<uint64_t>(staged, lists.entries * std::max(sizeof(V), sizeof(weight_t)));
  std::unique_ptr<Staging> staging;
  if (staged > 0) staging = std::make_unique<Staging>(staged);
  for (size_t c = 0; c < csrs.size(); ++c)
    if (plan.lists.at(c).count > 0) build_lists(plan.lists[c], csrs[c], n, allocations, staging.get());
  TG_CUDA(cudaDeviceSynchronize());
}

template void build_edge_cache<uint32_t>(const EdgeCachePlan&, int, const std::vector<CacheableCsr<uint32_t>>&,
                                         uint64_t, std::vector<void*>&);
template void build_edge_cache<uint64_t>(const EdgeCachePlan&, int, const std::vector<CacheableCsr<uint64_t>>&,
                                         uint64_t, std::vector<void*>&);

}  // namespace tg::gpu
