// The device side of the subgraph building blocks, against the same brute
// force as the host tests: SubcsrBuilder (both gather ways, lists and
// bitmaps, pieces of an oversized SubCSR) and PartitionStreamer (PT, PT-Opt,
// residency). Each loaded unit is read back by a kernel that makes exactly
// the push kernel's reads (offsets[u] .. offsets[u + 1] of its CsrView), so
// the presentation (shifted pointers, split offsets) is checked on the GPU.
// Skips itself where there is no GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/error.h"
#include "engines/gpu/subgraph/partition_streamer.cuh"
#include "engines/gpu/subgraph/subcsr_builder.cuh"
#include "subgraph_test_graphs.h"

namespace tg::subgraph {
namespace {

using testing::active_edge_triples;
using testing::csr_with_degrees;
using testing::random_active;
using testing::skewed_degrees;
using testing::TestCsr;
using Triples = std::vector<std::tuple<uint64_t, uint64_t, float>>;

bool have_gpu() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return count > 0;
}

#define TG_SKIP_WITHOUT_GPU() \
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU"

// A TestCsr placed as the engine places it for these placements: offsets in
// device memory, edges and weights in pinned host memory mapped for zero-copy.
template <typename V>
struct Placed {
  const TestCsr<V>& g;
  eid_t* offsets = nullptr;
  V* neighbors = nullptr;
  weight_t* weights = nullptr;
  V* neighbors_mapped = nullptr;
  weight_t* weights_mapped = nullptr;

  explicit Placed(const TestCsr<V>& graph) : g(graph) {
    TG_CUDA(cudaMalloc(&offsets, (g.n + 1) * sizeof(eid_t)));
    TG_CUDA(cudaMemcpy(offsets, g.offsets.data(), (g.n + 1) * sizeof(eid_t), cudaMemcpyHostToDevice));
    const size_t m = std::max<size_t>(g.neighbors.size(), 1);
    TG_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&neighbors), m * sizeof(V), cudaHostAllocMapped));
    TG_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&weights), m * sizeof(weight_t), cudaHostAllocMapped));
    std::copy(g.neighbors.begin(), g.neighbors.end(), neighbors);
    std::copy(g.weights.begin(), g.weights.end(), weights);
    TG_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&neighbors_mapped), neighbors, 0));
    TG_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&weights_mapped), weights, 0));
  }
  ~Placed() {
    cudaFree(offsets);
    cudaFreeHost(neighbors);
    cudaFreeHost(weights);
  }
  SubcsrSource<V> subcsr() const {
    return SubcsrSource<V>{g.n, offsets, g.offsets.data(), neighbors, weights, neighbors_mapped, weights_mapped};
  }
  StreamSource<V> stream() const { return StreamSource<V>{g.n, offsets, g.offsets.data(), neighbors, weights}; }
};

template <typename V>
__global__ void read_lists(gpu::CsrView<V> csr, const V* frontier, uint64_t count, unsigned long long* used,
                           unsigned long long* us, unsigned long long* vs, float* ws) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < count; i += uint64_t(gridDim.x) * blockDim.x) {
    V u = frontier[i];
    for (eid_t k = csr.offsets[u]; k < csr.offsets[u + 1]; ++k) {
      unsigned long long at = atomicAdd(used, 1ull);
      us[at] = u;
      vs[at] = csr.neighbors[k];
      ws[at] = csr.weights ? csr.weights[k] : -1.0f;
    }
  }
}

// Collects what read_lists reads from units, on the device.
struct Reader {
  uint64_t capacity;
  unsigned long long *used, *us, *vs;
  float* ws;
  explicit Reader(uint64_t edges) : capacity(std::max<uint64_t>(edges, 1)) {
    TG_CUDA(cudaMalloc(&used, sizeof *used));
    TG_CUDA(cudaMemset(used, 0, sizeof *used));
    TG_CUDA(cudaMalloc(&us, capacity * sizeof *us));
    TG_CUDA(cudaMalloc(&vs, capacity * sizeof *vs));
    TG_CUDA(cudaMalloc(&ws, capacity * sizeof *ws));
  }
  ~Reader() {
    cudaFree(used);
    cudaFree(us);
    cudaFree(vs);
    cudaFree(ws);
  }
  template <typename V>
  void read(const gpu::CsrView<V>& csr, const V* frontier, uint64_t count) {
    if (count == 0) return;
    read_lists<V><<<64, 128>>>(csr, frontier, count, used, us, vs, ws);
    TG_CUDA(cudaGetLastError());
    TG_CUDA(cudaDeviceSynchronize());
  }
  Triples take(bool weights) {
    unsigned long long n = 0;
    TG_CUDA(cudaMemcpy(&n, used, sizeof n, cudaMemcpyDeviceToHost));
    EXPECT_LE(n, capacity);
    n = std::min<unsigned long long>(n, capacity);
    std::vector<unsigned long long> u(n), v(n);
    std::vector<float> w(n);
    if (n) {
      TG_CUDA(cudaMemcpy(u.data(), us, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
      TG_CUDA(cudaMemcpy(v.data(), vs, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
      TG_CUDA(cudaMemcpy(w.data(), ws, n * sizeof(float), cudaMemcpyDeviceToHost));
    }
    TG_CUDA(cudaMemset(used, 0, sizeof *used));
    Triples out;
    for (size_t i = 0; i < n; ++i) out.emplace_back(u[i], v[i], weights ? w[i] : -1.0f);
    std::sort(out.begin(), out.end());
    return out;
  }
};

template <typename V>
Triples expected(const TestCsr<V>& g, const std::vector<V>& active, bool weights, eid_t limit = ~eid_t{0}) {
  Triples t = active_edge_triples<V>(g, active, limit);
  if (!weights)
    for (auto& x : t) std::get<2>(x) = -1.0f;
  std::sort(t.begin(), t.end());
  return t;
}

template <typename V>
V* to_device(const std::vector<V>& list) {
  V* d = nullptr;
  TG_CUDA(cudaMalloc(&d, std::max<size_t>(list.size(), 1) * sizeof(V)));
  if (!list.empty()) TG_CUDA(cudaMemcpy(d, list.data(), list.size() * sizeof(V), cudaMemcpyHostToDevice));
  return d;
}

// Builds the SubCSR of `active` (as an unsorted list, or as a bitmap; of
// each list's first `limit` entries, as a list), loads every piece the given
// way, and reads each back as the push kernel would.
template <typename V>
void check_subcsr(const TestCsr<V>& g, const std::vector<V>& active, uint64_t capacity_edges, bool weights,
                  GatherWay way, bool as_bitmap, uint32_t slots = 2, eid_t limit = SubcsrBuilder<V>::kWholeList) {
  Placed<V> placed(g);
  SubcsrConfig cfg;
  cfg.weights = weights;
  cfg.slots = slots;
  const EdgeEntry entry{sizeof(V), weights};
  cfg.budget_bytes = slots * capacity_edges * entry.bytes();
  cfg.cpu_pipeline_edges = 100;  // several chunks per piece
  cfg.gpu_chunk_edges = 37;
  SubcsrBuilder<V> builder(placed.subcsr(), cfg);
  ASSERT_EQ(builder.sizing().capacity_edges, capacity_edges);

  SubcsrShape shape;
  if (as_bitmap) {
    std::vector<uint32_t> bits((g.n + 31) / 32 + 1, 0);
    for (V v : active) bits[v >> 5] |= 1u << (v & 31);
    uint32_t* d = to_device(bits);
    shape = builder.build_from_bitmap(d);
    cudaFree(d);
  } else {
    std::vector<V> shuffled = active;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(99));
    V* d = to_device(shuffled);
    shape = builder.build_from_list(d, shuffled.size(), false, false, limit);
    cudaFree(d);
  }
  std::vector<eid_t> sub{0};
  for (V v : active) sub.push_back(sub.back() + std::min(g.degree(v), limit));
  if (limit == SubcsrBuilder<V>::kWholeList) EXPECT_EQ(sub, sub_offsets_of<V>(g.offsets, active));
  EXPECT_EQ(shape.active_vertices, active.size());
  EXPECT_EQ(shape.active_edges, sub.back());
  const std::vector<EdgeRange> want_pieces = plan_pieces(sub, capacity_edges);
  EXPECT_EQ(builder.pieces(), want_pieces);

  Reader reader(g.edges());
  uint64_t bytes = 0;
  for (uint64_t k = 0; k < builder.pieces().size(); ++k) {
    LoadedPiece<V> piece = builder.load(k, static_cast<uint32_t>(k % slots), way);
    bytes += piece.bytes_to_device;
    reader.read(piece.csr, piece.frontier, piece.count);
  }
  EXPECT_EQ(bytes, sub.back() * entry.bytes());
  EXPECT_EQ(reader.take(weights), expected(g, active, weights, limit));
}

class SubcsrDevice : public ::testing::TestWithParam<std::tuple<GatherWay, bool, bool>> {};

TEST_P(SubcsrDevice, EdgesOfEveryRange) {
  TG_SKIP_WITHOUT_GPU();
  auto [way, bitmap, weights] = GetParam();
  auto g = csr_with_degrees<uint32_t>(skewed_degrees(700, 3, 1000, 350));
  std::vector<uint32_t> all(700);
  for (uint32_t v = 0; v < 700; ++v) all[v] = v;
  check_subcsr<uint32_t>(g, {}, 128, weights, way, bitmap);              // empty
  check_subcsr<uint32_t>(g, {5}, 128, weights, way, bitmap);             // one vertex
  check_subcsr<uint32_t>(g, {699}, 128, weights, way, bitmap);           // the last vertex
  check_subcsr<uint32_t>(g, {350}, 128, weights, way, bitmap);           // one list > buffer: split
  check_subcsr<uint32_t>(g, all, 128, weights, way, bitmap);             // all, oversized
  check_subcsr<uint32_t>(g, all, 1 << 20, weights, way, bitmap);         // all, one piece
  check_subcsr<uint32_t>(g, random_active<uint32_t>(700, 0.3, 8), 256, weights, way, bitmap, 1);
  // Lists one edge over a buffer between single edges: three pieces per 130
  // edges, more than the builder's first guess of room for them.
  std::vector<eid_t> alternating;
  for (int k = 0; k < 40; ++k) alternating.push_back(k % 2 == 0 ? 129 : 1);
  auto a = csr_with_degrees<uint32_t>(alternating);
  std::vector<uint32_t> every(alternating.size());
  for (uint32_t v = 0; v < every.size(); ++v) every[v] = v;
  check_subcsr<uint32_t>(a, every, 128, weights, way, bitmap);
}

// CC's sample: a SubCSR of each list's first entries only (its heads).
TEST_P(SubcsrDevice, HeadsOfEveryList) {
  TG_SKIP_WITHOUT_GPU();
  auto [way, bitmap, weights] = GetParam();
  if (bitmap) GTEST_SKIP() << "heads are built from lists";
  auto g = csr_with_degrees<uint32_t>(skewed_degrees(700, 3, 1000, 350));
  std::vector<uint32_t> all(700);
  for (uint32_t v = 0; v < 700; ++v) all[v] = v;
  for (eid_t limit : {1, 2, 32}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    check_subcsr<uint32_t>(g, all, 128, weights, way, false, 2, limit);
    check_subcsr<uint32_t>(g, random_active<uint32_t>(700, 0.3, 8), 64, weights, way, false, 2, limit);
  }
  check_subcsr<uint32_t>(g, all, 128, weights, way, false, 2);
}

TEST_P(SubcsrDevice, LastPieceExactlyFull) {
  TG_SKIP_WITHOUT_GPU();
  auto [way, bitmap, weights] = GetParam();
  auto g = csr_with_degrees<uint64_t>({32, 5, 32, 64, 1});
  std::vector<uint64_t> active{0, 2, 3};
  auto sub = sub_offsets_of<uint64_t>(g.offsets, active);
  auto pieces = plan_pieces(sub, 64);
  ASSERT_EQ(pieces.size(), 2u);
  ASSERT_EQ(pieces[1].edges(), 64u);
  check_subcsr<uint64_t>(g, active, 64, weights, way, bitmap);
}

INSTANTIATE_TEST_SUITE_P(Ways, SubcsrDevice,
                         ::testing::Combine(::testing::Values(GatherWay::kCpu, GatherWay::kGpu), ::testing::Bool(),
                                            ::testing::Bool()));

TEST(SubcsrDeviceBudget, BelowTheMinimumIsAClearError) {
  // Checked before anything is allocated: no GPU needed.
  SubcsrSource<uint32_t> src;
  src.n = 10;
  eid_t fake = 0;
  src.offsets_device = &fake;
  SubcsrConfig cfg;
  cfg.budget_bytes = kBufferGranule * 4 - 1;
  EXPECT_THROW(SubcsrBuilder<uint32_t> builder(src, cfg), Error);
}

template <typename V>
void check_stream(const TestCsr<V>& g, StreamMode mode, uint64_t staging, bool weights) {
  Placed<V> placed(g);
  StreamConfig cfg;
  cfg.mode = mode;
  cfg.entry = EdgeEntry{sizeof(V), weights};
  cfg.staging_buffers = mode == StreamMode::kPt ? 1 : staging;
  cfg.partition_edges = 128;
  cfg.resident_edges = mode == StreamMode::kPt ? 0 : 300;
  PartitionStreamer<V> streamer(placed.stream(), cfg);
  Reader reader(g.edges());
  std::mt19937_64 rng(mode == StreamMode::kPt ? 1 : 2);
  for (int iteration = 0; iteration < 4; ++iteration) {
    std::vector<V> active = random_active<V>(g.n, iteration == 0 ? 1.0 : 0.1 * iteration, rng());
    // As a push step leaves it: a queue in no particular order.
    std::vector<V> queue = active;
    std::shuffle(queue.begin(), queue.end(), rng);
    V* d = to_device(queue);
    uint64_t bytes = 0;
    const V* sorted = streamer.sorted(d, queue.size());
    StreamTraffic t = streamer.run(sorted, queue.size(), [&](const StreamUnit<V>& unit) {
      reader.read(unit.csr, unit.frontier, unit.count);
    });
    bytes = t.bytes_to_device;
    cudaFree(d);
    EXPECT_EQ(reader.take(weights), expected(g, active, weights)) << "iteration " << iteration;
    if (mode == StreamMode::kPt) EXPECT_EQ(bytes, g.edges() * cfg.entry.bytes());
    else EXPECT_LE(bytes, g.edges() * cfg.entry.bytes());
  }
  // Every vertex, without a list.
  StreamTraffic all = streamer.run(nullptr, 0, [&](const StreamUnit<V>& unit) {
    reader.read(unit.csr, unit.frontier, unit.count);
  });
  std::vector<V> every(g.n);
  for (uint64_t v = 0; v < g.n; ++v) every[v] = static_cast<V>(v);
  EXPECT_EQ(reader.take(weights), expected(g, every, weights));
  if (mode == StreamMode::kPtOpt) EXPECT_GT(all.resident_hits, 0u);
}

TEST(PartitionStreamerDevice, PtAndPtOpt) {
  TG_SKIP_WITHOUT_GPU();
  auto g32 = csr_with_degrees<uint32_t>(skewed_degrees(900, 4, 700, 10));
  auto g64 = csr_with_degrees<uint64_t>(skewed_degrees(500, 6, 400, 499));
  for (bool weights : {false, true}) {
    check_stream<uint32_t>(g32, StreamMode::kPt, 1, weights);
    check_stream<uint32_t>(g32, StreamMode::kPtOpt, 2, weights);
    check_stream<uint32_t>(g32, StreamMode::kPtOpt, 3, weights);
    check_stream<uint64_t>(g64, StreamMode::kPtOpt, 2, weights);
  }
}

// A batch's later run (--host-mem: DeviceGraph::push_resident, gather_resident):
// a streamer of the same config over the same array takes over the resident
// partitions an earlier one loaded and copies only the others; one of
// another config frees them and loads its own. Each reads the right lists.
TEST(PartitionStreamerDevice, ALaterStreamerTakesOverTheCarriedResidentPartitions) {
  TG_SKIP_WITHOUT_GPU();
  auto g = csr_with_degrees<uint32_t>(skewed_degrees(900, 4, 700, 10));
  Placed<uint32_t> placed(g);
  StreamSource<uint32_t> source = placed.stream();
  source.carried = std::make_shared<ResidentPartitions<uint32_t>>();
  StreamConfig cfg;
  cfg.mode = StreamMode::kPtOpt;
  cfg.entry = EdgeEntry{4, true};
  cfg.staging_buffers = 2;
  cfg.partition_edges = 128;
  cfg.resident_edges = 300;
  std::vector<uint32_t> every(g.n);
  for (uint64_t v = 0; v < g.n; ++v) every[v] = static_cast<uint32_t>(v);
  Reader reader(g.edges());
  auto run_all = [&](PartitionStreamer<uint32_t>& streamer) {
    const StreamTraffic t = streamer.run(nullptr, 0, [&](const StreamUnit<uint32_t>& unit) {
      reader.read(unit.csr, unit.frontier, unit.count);
    });
    EXPECT_EQ(reader.take(true), expected(g, every, true));
    return t;
  };
  uint64_t resident = 0, resident_edges = 0;
  {
    PartitionStreamer<uint32_t> first(source, cfg);
    resident = first.schedule().resident_count();
    resident_edges = first.schedule().resident_edges_used();
    ASSERT_GT(resident, 0u);
    EXPECT_EQ(first.resident_carried(), 0u);
    const StreamTraffic t = run_all(first);
    EXPECT_EQ(t.bytes_to_device, g.edges() * cfg.entry.bytes()) << "the first run copies every partition";
  }
  ASSERT_EQ(source.carried->loaded, std::vector<bool>(resident, true));
  {
    PartitionStreamer<uint32_t> later(source, cfg);
    EXPECT_EQ(later.resident_carried(), resident);
    const StreamTraffic t = run_all(later);
    EXPECT_EQ(t.resident_hits, resident);
    EXPECT_EQ(t.bytes_to_device, (g.edges() - resident_edges) * cfg.entry.bytes()) << "only the streamed partitions";
  }
  StreamConfig other = cfg;
  other.resident_edges = 150;
  {
    PartitionStreamer<uint32_t> another(source, other);
    EXPECT_EQ(another.resident_carried(), 0u);
    EXPECT_TRUE(source.carried->loaded.empty()) << "freed before its own were made";
    const StreamTraffic t = run_all(another);
    EXPECT_EQ(t.bytes_to_device, g.edges() * cfg.entry.bytes());
    EXPECT_EQ(t.resident_hits, 0u);
  }
  EXPECT_TRUE(source.carried->serves(other));
  EXPECT_FALSE(source.carried->serves(cfg));
}

// The hybrid engine's GPU share of a gather, [from, below): the staging
// copies of the partitions across either cut carry only the edges inside,
// each at its place in the buffer, so each list reads right and the bytes
// over the link are exactly the range's (a probe's later bite copies no edge
// an earlier one did). PT-Opt with no resident partitions, and PT.
TEST(PartitionStreamerDevice, ARangeCopiesOnlyItsListsEdges) {
  TG_SKIP_WITHOUT_GPU();
  auto g = csr_with_degrees<uint32_t>(skewed_degrees(900, 4, 700, 10));
  Placed<uint32_t> placed(g);
  for (StreamMode mode : {StreamMode::kPtOpt, StreamMode::kPt}) {
    StreamConfig cfg;
    cfg.mode = mode;
    cfg.entry = EdgeEntry{4, true};
    cfg.staging_buffers = mode == StreamMode::kPt ? 1 : 2;
    cfg.partition_edges = 128;
    PartitionStreamer<uint32_t> streamer(placed.stream(), cfg);
    Reader reader(g.edges());
    for (auto [from, below] : {std::pair<uint64_t, uint64_t>{0, g.n / 3}, {g.n / 3, 2 * g.n / 3}, {2 * g.n / 3, g.n},
                               {g.n / 2 + 1, g.n / 2 + 2}}) {
      SCOPED_TRACE(std::string(mode == StreamMode::kPt ? "PT" : "PT-Opt") + ", vertices " + std::to_string(from) +
                   " to " + std::to_string(below));
      std::vector<uint32_t> range;
      for (uint64_t v = from; v < below; ++v) range.push_back(static_cast<uint32_t>(v));
      uint32_t* d = to_device(range);
      const StreamTraffic t = streamer.run(d, range.size(), [&](const StreamUnit<uint32_t>& unit) {
        reader.read(unit.csr, unit.frontier, unit.count);
      }, below, from);
      cudaFree(d);
      EXPECT_EQ(reader.take(true), expected(g, range, true));
      // PT steps through every partition, those outside the range clipped to nothing.
      EXPECT_EQ(t.bytes_to_device, (g.offsets[below] - g.offsets[from]) * cfg.entry.bytes());
    }
  }
}

TEST(PartitionStreamerDevice, StreamsThroughTheBuildersSlots) {
  // The subgraph placement's fallback above the threshold: PT-Opt without
  // residents, through the two slots of the SubCSR builder (one budget).
  TG_SKIP_WITHOUT_GPU();
  auto g = csr_with_degrees<uint32_t>(skewed_degrees(800, 12, 900, 400));
  Placed<uint32_t> placed(g);
  SubcsrConfig sc;
  sc.weights = true;
  sc.slots = 2;
  sc.budget_bytes = 2 * 192 * 8;
  SubcsrBuilder<uint32_t> builder(placed.subcsr(), sc);
  StreamConfig cfg;
  cfg.mode = StreamMode::kPtOpt;
  cfg.entry = EdgeEntry{4, true};
  cfg.staging_buffers = 2;
  cfg.partition_edges = builder.sizing().capacity_edges;
  cfg.resident_edges = 0;
  std::vector<PartitionStreamer<uint32_t>::Borrowed> lent;
  for (uint32_t s = 0; s < 2; ++s) lent.push_back({builder.slot_neighbors(s), builder.slot_weights(s)});
  PartitionStreamer<uint32_t> streamer(placed.stream(), cfg, lent);
  EXPECT_EQ(streamer.edge_bytes(), 0u);
  Reader reader(g.edges());
  auto active = random_active<uint32_t>(g.n, 0.9, 5);
  uint32_t* d = to_device(active);
  streamer.run(d, active.size(), [&](const StreamUnit<uint32_t>& unit) {
    reader.read(unit.csr, unit.frontier, unit.count);
  });
  cudaFree(d);
  EXPECT_EQ(reader.take(true), expected(g, active, true));
  // And the builder still works afterwards (its slots are overwritten by loads).
  check_subcsr<uint32_t>(g, random_active<uint32_t>(g.n, 0.05, 6), 192, true, GatherWay::kGpu, false);
}

}  // namespace
}  // namespace tg::subgraph
