// tiergraph::sample_neighbors over tg::sample_neighbors, and the
// NeighborSampler over it or the GPU sampler.
#include "tiergraph/sampling.h"

#include <algorithm>
#include <mutex>
#include <shared_mutex>
#include <string>

#include "api/api_errors.h"
#include "api/graph_access.h"
#include "core/error.h"
#include "sampling/edge_pieces.h"
#include "sampling/gpu_sampler.h"
#include "sampling/neighbor_sampler.h"

namespace tiergraph {

namespace {

std::vector<SampledHop> to_api(std::vector<tg::SampledHop>&& hops) {
  std::vector<SampledHop> out;
  for (tg::SampledHop& h : hops)
    out.push_back({std::move(h.dst_nodes), std::move(h.src_nodes), std::move(h.edge_src), std::move(h.edge_dst)});
  return out;
}

std::vector<HopArrays> to_api(const std::vector<tg::HopArrays>& hops) {
  std::vector<HopArrays> out;
  for (const tg::HopArrays& h : hops)
    out.push_back({h.dst_nodes, h.num_dst, h.src_nodes, h.num_src, h.edge_index, h.num_edges});
  return out;
}

// The CPU sampler's hops in the caller's host memory, in sample_into's order.
std::vector<tg::HopArrays> copied_to(const std::vector<tg::SampledHop>& hops, const HostAllocator& allocate) {
  const auto words = [&](uint64_t count) { return tg::allocated_words(allocate, count, "sample_to_host"); };
  std::vector<tg::HopArrays> out;
  if (hops.empty()) return out;
  uint64_t* dst = words(hops[0].dst_nodes.size());
  std::copy(hops[0].dst_nodes.begin(), hops[0].dst_nodes.end(), dst);
  for (const tg::SampledHop& h : hops) {
    const uint64_t edges = h.edge_src.size();
    uint64_t* index = words(2 * edges);
    std::copy(h.edge_src.begin(), h.edge_src.end(), index);
    std::copy(h.edge_dst.begin(), h.edge_dst.end(), index + edges);
    uint64_t* src = words(h.src_nodes.size());
    std::copy(h.src_nodes.begin(), h.src_nodes.end(), src);
    out.push_back({dst, h.dst_nodes.size(), src, h.src_nodes.size(), index, edges});
    dst = src;
  }
  return out;
}

}  // namespace

std::vector<SampledHop> sample_neighbors(const Graph& graph, const uint64_t* seeds, size_t num_seeds,
                                         const SampleOptions& options) {
  try {
    Graph::Impl* impl = GraphAccess::impl(graph);
    if (impl == nullptr) throw tg::usage_error("sample_neighbors: the graph handle is empty");
    if (num_seeds > 0 && seeds == nullptr) throw tg::usage_error("sample_neighbors: seeds is null");
    ensure_in_edges(*impl);
    std::shared_lock lock(impl->mutex);
    tg::SampleOptions o{options.fanouts, options.replace, options.seed};
    return to_api(tg::sample_neighbors(impl->graph, std::vector<uint64_t>(seeds, seeds + num_seeds), o));
  } catch (...) {
    rethrow_as_api_error();
  }
}

struct NeighborSampler::Impl {
  Graph graph;  // kept alive: the GPU sampler reads its in-edges
  SamplerOptions options;
  uint64_t calls = 0;
  std::unique_ptr<tg::GpuNeighborSampler> gpu;
  std::mutex mutex;  // one sample at a time (the GPU sampler's buffers, the call count)
  uint64_t next_seed();
  // sample(options with the call's seed, the seeds, the graph), the graph
  // shared and the sampler held.
  template <typename Sample>
  auto locked(const char* who, const uint64_t* seeds, size_t num_seeds, std::optional<uint64_t> seed,
              const Sample& sample) {
    if (num_seeds > 0 && seeds == nullptr) throw tg::usage_error(std::string(who) + ": seeds is null");
    const tg::SampleOptions o{options.fanouts, options.replace, seed ? *seed : next_seed()};
    const std::vector<uint64_t> given(seeds, seeds + num_seeds);
    Graph::Impl* g = GraphAccess::impl(graph);
    std::shared_lock graph_lock(g->mutex);
    std::lock_guard<std::mutex> lock(mutex);
    return sample(o, given, g->graph);
  }
};

NeighborSampler::NeighborSampler(const Graph& graph, const SamplerOptions& options) {
  try {
    Graph::Impl* g = GraphAccess::impl(graph);
    if (g == nullptr) throw tg::usage_error("NeighborSampler: the graph handle is empty");
    if (options.where != "auto" && options.where != "gpu" && options.where != "cpu")
      throw tg::usage_error("where '" + options.where + "' is not auto, gpu or cpu");
    if (options.device < 0) throw tg::usage_error("device " + std::to_string(options.device) + " is negative");
    tg::check_sample_request(0, {}, {options.fanouts, options.replace, options.seed});
    tg::sampling::check_edge_devices(options.edge_devices, options.zero_copy);
    auto impl = std::make_unique<Impl>();
    impl->graph = graph;
    impl->options = options;
    ensure_in_edges(*g);
    std::string why;
    if (options.where == "gpu" || (options.where == "auto" && tg::gpu_sampler_available(&why))) {
      std::shared_lock lock(g->mutex);
      impl->gpu = std::make_unique<tg::GpuNeighborSampler>(
          g->graph, tg::GpuSamplerOptions{options.device, options.zero_copy, options.edge_devices});
    }
    impl_ = std::move(impl);
  } catch (...) {
    rethrow_as_api_error();
  }
}

NeighborSampler::~NeighborSampler() = default;
NeighborSampler::NeighborSampler(NeighborSampler&&) noexcept = default;
NeighborSampler& NeighborSampler::operator=(NeighborSampler&&) noexcept = default;

// splitmix64's sequence: independent draws for consecutive calls.
uint64_t NeighborSampler::Impl::next_seed() {
  std::lock_guard<std::mutex> lock(mutex);
  return options.seed + 0x9E3779B97F4A7C15ull * ++calls;
}

std::vector<SampledHop> NeighborSampler::sample(const uint64_t* seeds, size_t num_seeds) {
  return sample(seeds, num_seeds, live(impl_, "NeighborSampler").next_seed());
}

std::vector<SampledHop> NeighborSampler::sample(const uint64_t* seeds, size_t num_seeds, uint64_t seed) {
  try {
    Impl& s = live(impl_, "NeighborSampler");
    return s.locked("sample", seeds, num_seeds, seed,
                    [&](const tg::SampleOptions& o, const auto& given, const auto& g) {
                      return to_api(s.gpu ? s.gpu->sample(given, o) : tg::sample_neighbors(g, given, o));
                    });
  } catch (...) {
    rethrow_as_api_error();
  }
}

std::vector<HopArrays> NeighborSampler::sample_into(const uint64_t* seeds, size_t num_seeds,
                                                    const DeviceAllocator& allocate, uintptr_t stream,
                                                    std::optional<uint64_t> seed) {
  try {
    if (!allocate) throw tg::usage_error("sample_into: no allocator");
    Impl& s = live(impl_, "NeighborSampler");
    if (!s.gpu) throw tg::usage_error("sample_into: this sampler runs on the CPU (its hops are in host memory)");
    return s.locked("sample_into", seeds, num_seeds, seed,
                    [&](const tg::SampleOptions& o, const auto& given, const auto&) {
                      return to_api(s.gpu->sample_into(given, o, allocate, stream));
                    });
  } catch (...) {
    rethrow_as_api_error();
  }
}

std::vector<HopArrays> NeighborSampler::sample_to_host(const uint64_t* seeds, size_t num_seeds,
                                                       const HostAllocator& allocate, std::optional<uint64_t> seed) {
  try {
    if (!allocate) throw tg::usage_error("sample_to_host: no allocator");
    Impl& s = live(impl_, "NeighborSampler");
    return s.locked("sample_to_host", seeds, num_seeds, seed,
                    [&](const tg::SampleOptions& o, const auto& given, const auto& g) {
                      return to_api(s.gpu ? s.gpu->sample_to_host(given, o, allocate)
                                          : copied_to(tg::sample_neighbors(g, given, o), allocate));
                    });
  } catch (...) {
    rethrow_as_api_error();
  }
}

bool NeighborSampler::on_gpu() const { return live(impl_, "NeighborSampler").gpu != nullptr; }
const SamplerOptions& NeighborSampler::options() const { return live(impl_, "NeighborSampler").options; }

}  // namespace tiergraph
