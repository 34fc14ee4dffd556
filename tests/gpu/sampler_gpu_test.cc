// The GPU sampler (sampling/gpu_sampler.h) against the CPU one: on every
// test shape, directed and undirected, 32- and 64-bit ids, the graph in GPU
// memory, read from host memory by zero-copy and split in pieces (over one
// GPU, and two where there are), with and without
// replacement, one to three hops (fanout -1 included), the hops must be
// identical, local numbering included; a batch crossing the numbering's
// 2^32 limit is not reached here, bad seeds are refused as on the CPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "gpu/gpu_checks.h"
#include "sampling/gpu_sampler.h"
#include "sampling/neighbor_sampler.h"
#include "support/shapes.h"

namespace tg::test::gpu {
namespace {

void expect_same(const std::vector<SampledHop>& cpu, const std::vector<SampledHop>& gpu, const std::string& what) {
  ASSERT_EQ(cpu.size(), gpu.size()) << what;
  for (size_t k = 0; k < cpu.size(); ++k) {
    EXPECT_EQ(cpu[k].dst_nodes, gpu[k].dst_nodes) << what << ", hop " << k;
    EXPECT_EQ(cpu[k].src_nodes, gpu[k].src_nodes) << what << ", hop " << k;
    EXPECT_EQ(cpu[k].edge_src, gpu[k].edge_src) << what << ", hop " << k;
    EXPECT_EQ(cpu[k].edge_dst, gpu[k].edge_dst) << what << ", hop " << k;
  }
}

template <typename T>
std::vector<T> copied_back(const T* from, uint64_t count) {
  std::vector<T> out(count);
  if (count > 0) EXPECT_EQ(cudaMemcpy(out.data(), from, count * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
  return out;
}

// sample_into with cudaMalloc's memory, ordered on a stream of the test's,
// the hops brought back as SampledHops.
std::vector<SampledHop> sample_into_device(GpuNeighborSampler& sampler, const std::vector<uint64_t>& seeds,
                                           const SampleOptions& o, cudaStream_t stream) {
  std::vector<void*> owned;
  const DeviceAllocator allocate = [&](uint64_t bytes) -> void* {
    void* p = nullptr;
    if (bytes > 0) EXPECT_EQ(cudaMalloc(&p, bytes), cudaSuccess);
    owned.push_back(p);
    return p;
  };
  const std::vector<HopArrays> hops = sampler.sample_into(seeds, o, allocate, reinterpret_cast<uintptr_t>(stream));
  EXPECT_EQ(owned.size(), 1 + 2 * hops.size());  // the seeds, then each hop's edges and sources
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  std::vector<SampledHop> out;
  for (const HopArrays& d : hops) {
    SampledHop h;
    h.dst_nodes = copied_back(d.dst_nodes, d.num_dst);
    h.src_nodes = copied_back(d.src_nodes, d.num_src);
    h.edge_src = copied_back(d.edge_index, d.num_edges);
    h.edge_dst = copied_back(d.edge_index + d.num_edges, d.num_edges);
    out.push_back(std::move(h));
  }
  for (void* p : owned) cudaFree(p);
  return out;
}

// sample_to_host into host vectors of the test's (called seeds, then each
// hop's edges and sources), the hops as SampledHops; each hop's destinations
// must be the memory of the previous hop's sources.
std::vector<SampledHop> sample_to_host_arrays(GpuNeighborSampler& sampler, const std::vector<uint64_t>& seeds,
                                              const SampleOptions& o) {
  std::vector<std::vector<uint64_t>> owned;
  const HostAllocator allocate = [&](uint64_t bytes) -> void* {
    owned.emplace_back(bytes / sizeof(uint64_t), ~uint64_t{0});  // poisoned: every word must be written
    return owned.back().data();
  };
  const std::vector<HopArrays> hops = sampler.sample_to_host(seeds, o, allocate);
  EXPECT_EQ(owned.size(), 1 + 2 * hops.size());
  std::vector<SampledHop> out;
  for (size_t k = 0; k < hops.size(); ++k) {
    const HopArrays& d = hops[k];
    EXPECT_EQ(d.dst_nodes, k == 0 ? owned[0].data() : hops[k - 1].src_nodes) << "hop " << k;
    SampledHop h;
    h.dst_nodes.assign(d.dst_nodes, d.dst_nodes + d.num_dst);
    h.src_nodes.assign(d.src_nodes, d.src_nodes + d.num_src);
    h.edge_src.assign(d.edge_index, d.edge_index + d.num_edges);
    h.edge_dst.assign(d.edge_index + d.num_edges, d.edge_index + 2 * d.num_edges);
    out.push_back(std::move(h));
  }
  return out;
}

// Up to `count` distinct vertices, in a random order.
std::vector<uint64_t> random_seeds(uint64_t n, uint64_t count, uint64_t seed) {
  std::vector<uint64_t> all(n);
  for (uint64_t i = 0; i < n; ++i) all[i] = i;
  std::shuffle(all.begin(), all.end(), std::mt19937_64(seed));
  all.resize(std::min(n, count));
  return all;
}

TEST(GpuSampler, SameHopsAsTheCpuOnEveryShape) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const std::vector<std::vector<int>> fanout_sets = {{3}, {2, 2}, {-1}, {5, 3, 2}, {1, -1}};
  cudaStream_t theirs = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&theirs, cudaStreamNonBlocking), cudaSuccess);
  int checked = 0;
  for (const Shape& shape : all_shapes())
    for (Orientation orientation : {Orientation::kDirected, Orientation::kUndirected})
      for (bool ids64 : {false, true}) {
        if (ids64 && shape.name.find("kron") == std::string::npos && shape.name != "path") continue;
        const AnyGraph graph = build_variant(shape.edges, orientation, ids64);
        const uint64_t n = num_vertices(graph);
        // In GPU memory, by zero-copy, and split in three pieces (on this one GPU: the split's path).
        for (const GpuSamplerOptions& placed :
             {GpuSamplerOptions{0, false, {}}, GpuSamplerOptions{0, true, {}}, GpuSamplerOptions{0, false, {0, 0, 0}}}) {
          const bool zero_copy = placed.zero_copy;
          GpuNeighborSampler sampler(graph, placed);
          for (const auto& fanouts : fanout_sets)
            for (bool replace : {false, true}) {
              const SampleOptions o{fanouts, replace, 1234u + static_cast<uint64_t>(checked)};
              const std::vector<uint64_t> seeds = random_seeds(n, 64, o.seed);
              const std::string what = shape.name + " " + orientation_name(orientation) + (ids64 ? " ids64" : "") +
                                       (zero_copy                      ? " zero-copy"
                                        : placed.edge_devices.empty() ? " in GPU memory"
                                                                      : " in three pieces") +
                                       (replace ? " replace" : "") +
                                       ", " + std::to_string(fanouts.size()) + " hops, first fanout " +
                                       std::to_string(fanouts[0]);
              const std::vector<SampledHop> cpu = sample_neighbors(graph, seeds, o);
              expect_same(cpu, sampler.sample(seeds, o), what);
              expect_same(cpu, sample_into_device(sampler, seeds, o, theirs), what + ", into the caller's memory");
              expect_same(cpu, sample_to_host_arrays(sampler, seeds, o), what + ", into the caller's host memory");
              ++checked;
            }
        }
      }
  cudaStreamDestroy(theirs);
  EXPECT_GT(checked, 750);
}

// The in-edges over two GPUs, read by the first over the peer link (and the
// second's view of a split it holds part of): the CPU's hops.
TEST(GpuSampler, InEdgesSplitOverTwoGpus) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  int count = 0, readable = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  if (count < 2) GTEST_SKIP() << "one GPU";
  ASSERT_EQ(cudaDeviceCanAccessPeer(&readable, 0, 1), cudaSuccess);
  if (!readable) GTEST_SKIP() << "GPU 0 cannot read GPU 1";
  const AnyGraph graph = build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false);
  const std::vector<uint64_t> seeds = random_seeds(num_vertices(graph), 256, 3);
  for (const GpuSamplerOptions& placed : {GpuSamplerOptions{0, false, {0, 1}}, GpuSamplerOptions{0, false, {1, 0, 1}},
                                          GpuSamplerOptions{1, false, {0, 1}}}) {
    GpuNeighborSampler sampler(graph, placed);
    for (const SampleOptions& o : {SampleOptions{{5, 3}, false, 9}, SampleOptions{{-1}, false, 9},
                                   SampleOptions{{4, 4}, true, 10}})
      expect_same(sample_neighbors(graph, seeds, o), sampler.sample(seeds, o),
                  "device " + std::to_string(placed.device) + ", " + std::to_string(placed.edge_devices.size()) +
                      " pieces");
  }
}

// A GPU that is not there, named among the pieces: one line naming it.
TEST(GpuSampler, AMissingPieceHolderIsRefused) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  int count = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  const AnyGraph graph = build_variant(find_shape("path").edges, Orientation::kUndirected, false);
  try {
    GpuNeighborSampler sampler(graph, GpuSamplerOptions{0, false, {0, count}});
    FAIL() << "a piece on GPU " << count << " of " << count;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("edge_devices: "), std::string::npos) << e.what();
  }
}

TEST(GpuSampler, RefusesWhatTheCpuRefuses) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const AnyGraph graph = build_variant(find_shape("path").edges, Orientation::kUndirected, false);
  GpuNeighborSampler sampler(graph, {});
  const uint64_t n = num_vertices(graph);
  EXPECT_THROW(sampler.sample({n}, {{2}, false, 1}), Error);
  EXPECT_THROW(sampler.sample({1, 1}, {{2}, false, 1}), Error);
  EXPECT_THROW(sampler.sample({1}, {{0}, false, 1}), Error);
  EXPECT_THROW(sampler.sample({1}, {{}, false, 1}), Error);
  EXPECT_TRUE(sampler.sample({}, {{2}, false, 1})[0].src_nodes.empty());
  EXPECT_THROW(sample_into_device(sampler, {n}, {{2}, false, 1}, nullptr), Error);
  EXPECT_TRUE(sample_into_device(sampler, {}, {{2}, false, 1}, nullptr)[0].src_nodes.empty());
  EXPECT_THROW(sample_to_host_arrays(sampler, {n}, {{2}, false, 1}), Error);
  EXPECT_TRUE(sample_to_host_arrays(sampler, {}, {{2}, false, 1})[0].src_nodes.empty());
  // An allocator that gives no memory for words asked: refused, not written through.
  EXPECT_THROW(sampler.sample_to_host({1}, {{2}, false, 1}, [](uint64_t) -> void* { return nullptr; }), Error);
}

// An allocator that fails where a hop's edges or sources are asked for (its
// second or third call: the seeds, hop 0's edges, hop 0's sources), after
// the hop has claimed its vertices: the sampler gives them back, so the next
// samples equal the CPU's.
TEST(GpuSampler, AFailedAllocationLeavesTheSamplerAsItWas) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const AnyGraph graph = build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false);
  GpuNeighborSampler sampler(graph, {});
  const std::vector<uint64_t> seeds = random_seeds(num_vertices(graph), 32, 5);
  const SampleOptions o{{4, 3}, false, 77};
  for (int fail_at : {2, 3}) {
    std::vector<void*> owned;
    int calls = 0;
    const DeviceAllocator failing = [&](uint64_t bytes) -> void* {
      if (++calls == fail_at) throw Error("no memory for this test");
      void* p = nullptr;
      if (bytes > 0) EXPECT_EQ(cudaMalloc(&p, bytes), cudaSuccess);
      owned.push_back(p);
      return p;
    };
    EXPECT_THROW(sampler.sample_into(seeds, o, failing, 0), Error);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (void* p : owned) cudaFree(p);
    const std::string what = "after a failed allocation (call " + std::to_string(fail_at) + ")";
    const std::vector<SampledHop> cpu = sample_neighbors(graph, seeds, o);
    expect_same(cpu, sampler.sample(seeds, o), what);
    expect_same(cpu, sample_into_device(sampler, seeds, o, nullptr), what + ", into the caller's memory");
  }
  // In host memory: a failure at any output (the seeds', a hop's edges or
  // sources, taken while the next hop runs), then the CPU's hops.
  for (int fail_at : {1, 2, 3, 4, 5}) {
    std::vector<std::vector<uint64_t>> owned;
    int calls = 0;
    const HostAllocator failing = [&](uint64_t bytes) -> void* {
      if (++calls == fail_at) throw Error("no host memory for this test");
      return owned.emplace_back(bytes / sizeof(uint64_t)).data();
    };
    EXPECT_THROW(sampler.sample_to_host(seeds, o, failing), Error);
    const std::string what = "after a failed host allocation (call " + std::to_string(fail_at) + ")";
    const std::vector<SampledHop> cpu = sample_neighbors(graph, seeds, o);
    expect_same(cpu, sampler.sample(seeds, o), what);
    expect_same(cpu, sample_to_host_arrays(sampler, seeds, o), what + ", into the caller's host memory");
  }
}

// A hop whose fanout allows more than 4 M edges (64 seeds x 70000) reads its
// edge count before the draws instead of drawing into scratch sized by the
// bound (gpu_sampler.cu, kRoomWithoutWait); with replacement it draws 70000
// for every seed with in-edges. Both ways the CPU's hops, and a small hop
// after it (drawn into the bound's scratch).
TEST(GpuSampler, AHopPastTheScratchBoundReadsItsCountFirst) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const AnyGraph graph = build_variant(find_shape("kron_large").edges, Orientation::kUndirected, false);
  GpuNeighborSampler sampler(graph, {});
  const std::vector<uint64_t> seeds = random_seeds(num_vertices(graph), 64, 8);
  for (bool replace : {false, true}) {
    const SampleOptions o{{70000, 2}, replace, 91};
    const std::vector<SampledHop> cpu = sample_neighbors(graph, seeds, o);
    if (replace) EXPECT_EQ(cpu[0].edge_src.size() % 70000, 0u);
    const std::string what = replace ? "fanout 70000 with replacement" : "fanout 70000";
    expect_same(cpu, sampler.sample(seeds, o), what);
    expect_same(cpu, sample_into_device(sampler, seeds, o, nullptr), what + ", into the caller's memory");
    expect_same(cpu, sample_to_host_arrays(sampler, seeds, o), what + ", into the caller's host memory");
  }
}

}  // namespace
}  // namespace tg::test::gpu
