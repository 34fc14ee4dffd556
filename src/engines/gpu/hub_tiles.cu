// Building the hub tiles (hub_tiles.h): the hubs selected by list length, a
// start per (tile, hub) by binary search in each sorted list, and a warp per
// hub checking that its list is sorted.
#include "engines/gpu/hub_tiles.h"

#include <thrust/iterator/counting_iterator.h>

#include <cub/device/device_select.cuh>
#include <cstdlib>

#include "core/error.h"

namespace tg::gpu {

HubTileShape hub_tile_shape(bool numbered_by_degree, const char* env) {
  HubTileShape shape;
  if (numbered_by_degree) shape = {4096, 128 * 1024};
  if (env == nullptr) return shape;
  const std::string s = env;
  if (s == "off") return HubTileShape{};
  char* end = nullptr;
  const unsigned long long above = std::strtoull(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != ':') throw Error("TG_HUB_TILES: expected off or ABOVE:TILE_BYTES, got " + s);
  const char* bytes_at = end + 1;
  const unsigned long long bytes = std::strtoull(bytes_at, &end, 10);
  if (end == bytes_at || *end != '\0' || bytes == 0 || bytes > 200 * 1024)
    throw Error("TG_HUB_TILES: TILE_BYTES must be 1 to 204800, got " + s);
  return {static_cast<eid_t>(above), bytes};
}

namespace {

template <typename V>
struct LongerThan {
  const eid_t* offsets;
  eid_t above;
  __device__ bool operator()(V v) const { return offsets[v + 1] - offsets[v] > above; }
};

template <typename V>
__global__ void count_hubs_kernel(const eid_t* offsets, uint64_t n, eid_t above, unsigned long long* count) {
  unsigned long long mine = 0;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t v = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n; v += stride)
    mine += offsets[v + 1] - offsets[v] > above;
  if (mine) atomicAdd(count, mine);
}

// list_begin[h], and a warp per hub checks its list: sorted, under 2^32 entries.
template <typename V>
__global__ void check_hubs_kernel(CsrView<V> in, const V* ids, uint64_t hubs, eid_t* list_begin, unsigned* bad) {
  const int lane = threadIdx.x & 31;
  const uint64_t warps = (static_cast<uint64_t>(gridDim.x) * blockDim.x) >> 5;
  for (uint64_t h = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; h < hubs; h += warps) {
    const eid_t b = in.offsets[ids[h]], e = in.offsets[ids[h] + 1];
    if (lane == 0) list_begin[h] = b;
    bool wrong = e - b >= (eid_t{1} << 32);
    for (eid_t k = b + lane; k + 1 < e && !wrong; k += 32) wrong = in.neighbors[k] > in.neighbors[k + 1];
    if (__any_sync(0xffffffffu, wrong) && lane == 0) atomicExch(bad, 1u);
  }
}

// starts[t * hubs + h]: the first entry of hub h's list (from its start) with
// a source of tile t or later; t = tiles: the list's length.
template <typename V>
__global__ void starts_kernel(CsrView<V> in, const V* ids, uint64_t hubs, uint64_t tiles, uint64_t tile_sources,
                              uint32_t* starts) {
  const uint64_t all = (tiles + 1) * hubs;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < all; i += stride) {
    const uint64_t t = i / hubs, h = i % hubs;
    eid_t b = in.offsets[ids[h]], e = in.offsets[ids[h] + 1];
    const eid_t first = b;
    if (t < tiles) {
      const uint64_t key = t * tile_sources;
      while (b < e) {
        const eid_t mid = b + (e - b) / 2;
        if (static_cast<uint64_t>(in.neighbors[mid]) < key) b = mid + 1;
        else e = mid;
      }
    } else {
      b = e;
    }
    starts[i] = static_cast<uint32_t>(b - first);
  }
}

}  // namespace

template <typename V>
std::unique_ptr<HubTileLayout<V>> build_hub_tiles(const CsrView<V>& in, uint64_t n, HubTileShape shape,
                                                  uint64_t value_bytes, uint64_t partial_bytes, int sms,
                                                  ScratchPool& pool, std::string* note) {
  if (shape.above == 0 || n == 0) {
    *note = "off";
    return nullptr;
  }
  auto count = DeviceArray<unsigned long long>::allocate(1);
  TG_CUDA(cudaMemset(count.data(), 0, sizeof(unsigned long long)));
  count_hubs_kernel<V><<<grid_for(n, 256, sms), 256>>>(in.offsets, n, shape.above, count.data());
  TG_CUDA_CHECK_LAUNCH();
  unsigned long long hubs = 0;
  TG_CUDA(cudaMemcpy(&hubs, count.data(), sizeof hubs, cudaMemcpyDeviceToHost));
  if (hubs == 0) {
    *note = "no list longer than " + std::to_string(shape.above) + " entries";
    return nullptr;
  }
  const uint64_t tile_sources = std::max<uint64_t>(shape.tile_bytes / value_bytes, 1);
  const uint64_t tiles = (n + tile_sources - 1) / tile_sources;
  const uint64_t bytes = hubs * (sizeof(V) + sizeof(eid_t)) + (tiles + 1) * hubs * sizeof(uint32_t) +
                         tiles * hubs * partial_bytes;
  size_t free_bytes = 0, total_bytes = 0;
  TG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (bytes + (uint64_t{512} << 20) > free_bytes) {
    *note = "too little free GPU memory for " + std::to_string(bytes >> 20) + " MiB of starts and partial sums";
    return nullptr;
  }
  auto l = std::make_unique<HubTileLayout<V>>();
  l->ids = DeviceArray<V>::allocate(hubs);
  l->list_begin = DeviceArray<eid_t>::allocate(hubs);
  l->starts = DeviceArray<uint32_t>::allocate((tiles + 1) * hubs);
  run_cub(pool, [&](void* tmp, size_t& tmp_bytes) {
    return cub::DeviceSelect::If(tmp, tmp_bytes, thrust::counting_iterator<V>(0), l->ids.data(), count.data(),
                                 static_cast<int64_t>(n), LongerThan<V>{in.offsets, shape.above});
  });
  auto bad = DeviceArray<unsigned>::allocate(1);
  TG_CUDA(cudaMemset(bad.data(), 0, sizeof(unsigned)));
  check_hubs_kernel<V><<<grid_for(hubs, 8, sms), 256>>>(in, l->ids.data(), hubs, l->list_begin.data(), bad.data());
  TG_CUDA_CHECK_LAUNCH();
  unsigned wrong = 0;
  TG_CUDA(cudaMemcpy(&wrong, bad.data(), sizeof wrong, cudaMemcpyDeviceToHost));
  if (wrong) {
    *note = "a hub's in-list is not sorted (or has 2^32 entries or more): gathers read the lists as they are";
    return nullptr;
  }
  starts_kernel<V><<<grid_for((tiles + 1) * hubs, 256, sms), 256>>>(in, l->ids.data(), hubs, tiles, tile_sources,
                                                                   l->starts.data());
  TG_CUDA_CHECK_LAUNCH();
  l->view = {hubs, tiles, tile_sources, n, shape.above, l->ids.data(), l->list_begin.data(), l->starts.data()};
  *note = std::to_string(hubs) + " hubs (lists over " + std::to_string(shape.above) + " entries) in " +
          std::to_string(tiles) + " tiles of " + std::to_string(tile_sources) + " sources";
  return l;
}

template std::unique_ptr<HubTileLayout<uint32_t>> build_hub_tiles(const CsrView<uint32_t>&, uint64_t, HubTileShape,
                                                                  uint64_t, uint64_t, int, ScratchPool&, std::string*);
template std::unique_ptr<HubTileLayout<uint64_t>> build_hub_tiles(const CsrView<uint64_t>&, uint64_t, HubTileShape,
                                                                  uint64_t, uint64_t, int, ScratchPool&, std::string*);

}  // namespace tg::gpu
