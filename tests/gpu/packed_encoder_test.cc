// engines/gpu/packed_encoder.h: the packed lists' encoder on the GPU writes,
// word for word, what the CPU encoder writes (graph/packed_lists.h), with and
// without byte weights, on skewed and uniform graphs with lists past a chunk;
// a list out of order is left to the CPU encoder.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <variant>

#include "engines/gpu/packed_encoder.h"
#include "formats/load_graph.h"
#include "gpu/gpu_checks.h"
#include "graph/packed_lists.h"

namespace tg::test::gpu {
namespace {

// The CSR's offsets in GPU memory and its ids (and weights) mapped, as a streamed placement has them.
struct Mapped {
  eid_t* offsets = nullptr;
  const uint32_t* ids = nullptr;
  const weight_t* weights = nullptr;
  std::vector<void*> registered;
  Mapped(const Csr<uint32_t>& csr, uint64_t n) {
    EXPECT_EQ(cudaMalloc(&offsets, (n + 1) * sizeof(eid_t)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(offsets, csr.offsets.data(), (n + 1) * sizeof(eid_t), cudaMemcpyHostToDevice), cudaSuccess);
    ids = static_cast<const uint32_t*>(map(csr.neighbors.data(), csr.neighbors.bytes()));
    if (!csr.weights.empty()) weights = static_cast<const weight_t*>(map(csr.weights.data(), csr.weights.bytes()));
  }
  const void* map(const void* host, size_t bytes) {
    void* h = const_cast<void*>(host);
    EXPECT_EQ(cudaHostRegister(h, bytes, cudaHostRegisterMapped), cudaSuccess);
    registered.push_back(h);
    void* d = nullptr;
    EXPECT_EQ(cudaHostGetDevicePointer(&d, h, 0), cudaSuccess);
    return d;
  }
  ~Mapped() {
    for (void* h : registered) cudaHostUnregister(h);
    cudaFree(offsets);
  }
};

TEST(GpuPackedEncoder, WritesTheCpuEncodersWords) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  for (const std::string spec : {"kron:14", "urand:13", "kron:12"}) {
    LoadOptions lo;
    lo.build.random_weights = WeightRange{1, 255};
    lo.build.undirected = spec != "kron:12";  // one directed graph
    AnyGraph any = load_graph(spec, lo);
    const auto& g = std::get<Graph<vid32_t>>(any);
    Mapped m(g.out, g.num_vertices);
    for (bool weights : {false, true}) {
      SCOPED_TRACE(spec + (weights ? ", byte weights" : ", ids"));
      const PackedCsr want = pack_csr(g.out, g.num_vertices, weights);
      auto got = tg::gpu::gpu_pack_lists(g.num_vertices, m.offsets, m.ids, m.weights, weights);
      ASSERT_TRUE(got.has_value());
      ASSERT_EQ(got->offsets, want.offsets);
      ASSERT_GE(got->words.size(), want.words.size());
      for (size_t i = 0; i < want.words.size(); ++i) ASSERT_EQ(got->words[i], want.words[i]) << "word " << i;
      EXPECT_GT(got->build_s, 0.0);
      cudaHostUnregister(got->words.data());
    }
  }
}

TEST(GpuPackedEncoder, LeavesListsOutOfOrderToTheCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  // Sorted within each block of 32 but not across blocks, and not across chunks.
  std::vector<uint32_t> ids;
  for (uint32_t i = 0; i < 64; ++i) ids.push_back(i < 32 ? 100 + i : i - 32);
  {
    Csr<uint32_t> csr;
    csr.offsets = Array<eid_t>::from(std::vector<eid_t>{0, 64});
    csr.neighbors = Array<uint32_t>::from(ids);
    Mapped m(csr, 1);
    EXPECT_FALSE(tg::gpu::gpu_pack_lists(1, m.offsets, m.ids, nullptr, false).has_value());
  }
  ids.assign(2048, 0);
  for (uint32_t i = 0; i < 2048; ++i) ids[i] = i < 1024 ? 5000 + i : i - 1024;
  Csr<uint32_t> chunks;
  chunks.offsets = Array<eid_t>::from(std::vector<eid_t>{0, 2048});
  chunks.neighbors = Array<uint32_t>::from(ids);
  Mapped c(chunks, 1);
  EXPECT_FALSE(tg::gpu::gpu_pack_lists(1, c.offsets, c.ids, nullptr, false).has_value());
}

}  // namespace
}  // namespace tg::test::gpu
