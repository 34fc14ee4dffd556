// The zero-copy feature gather (features/gpu/feature_gather.h): both kernels,
// from registered host memory and from device memory, give exactly the rows
// a plain host loop copies, for widths of 1 to 4000 bytes, rows at offsets
// that are and are not 4-byte or 128-byte aligned, strides wider than rows,
// random and repeated ids, a bounded grid, and ids taken as given or sorted
// into address order first (AddressOrder). Outputs are poisoned first.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "features/gpu/feature_gather.h"
#include "gpu/gpu_checks.h"

namespace tg::test::gpu {
namespace {

#define CHECK_CUDA(call) ASSERT_EQ((call), cudaSuccess) << #call

struct Case {
  uint64_t rows, row_bytes, stride_bytes, offset;
};

void check_case(const Case& c, features::GatherKernel kernel, bool on_device, int max_blocks, bool sorted) {
  const std::string what = "rows " + std::to_string(c.rows) + ", " + std::to_string(c.row_bytes) + " B (stride " +
                           std::to_string(c.stride_bytes) + ", offset " + std::to_string(c.offset) + "), " +
                           (kernel == features::GatherKernel::kAligned ? "aligned" : "naive") +
                           (on_device ? ", device" : ", host") + ", blocks " + std::to_string(max_blocks) +
                           (sorted ? ", address order" : "");
  std::mt19937_64 rng(c.rows * 31 + c.row_bytes);
  const uint64_t span = (c.rows - 1) * c.stride_bytes + c.row_bytes;
  std::vector<uint8_t> storage(span + c.offset + 4096);
  uint8_t* host = storage.data() + (4096 - reinterpret_cast<uintptr_t>(storage.data()) % 4096) % 4096 + c.offset;
  for (uint64_t i = 0; i < span; ++i) host[i] = static_cast<uint8_t>(rng());

  std::vector<int64_t> ids(777);
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int64_t>(i % 5 == 0 ? c.rows - 1 : rng() % c.rows);
  std::vector<uint8_t> expected(ids.size() * c.row_bytes);
  for (size_t i = 0; i < ids.size(); ++i)
    std::memcpy(expected.data() + i * c.row_bytes, host + ids[i] * c.stride_bytes, c.row_bytes);

  int64_t* d_ids = nullptr;
  uint8_t *d_out = nullptr, *d_rows = nullptr;
  CHECK_CUDA(cudaMalloc(&d_ids, ids.size() * sizeof(int64_t)));
  CHECK_CUDA(cudaMalloc(&d_out, expected.size()));
  CHECK_CUDA(cudaMemcpy(d_ids, ids.data(), ids.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_out, 0xA5, expected.size()));
  {
    features::RegisteredHostRows registered(host, c.rows, c.row_bytes, c.stride_bytes);
    features::RowTable table = registered.table();
    if (on_device) {
      CHECK_CUDA(cudaMalloc(&d_rows, span + c.offset));
      CHECK_CUDA(cudaMemcpy(d_rows + c.offset, host, span, cudaMemcpyHostToDevice));
      table.rows = d_rows + c.offset;
    }
    features::AddressOrder order;
    features::GatherRequest request{d_ids, nullptr, ids.size(), d_out};
    if (sorted) request = order.sort(request, c.rows, nullptr);
    features::gather_rows(table, request, kernel, max_blocks, nullptr);
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  std::vector<uint8_t> got(expected.size());
  CHECK_CUDA(cudaMemcpy(got.data(), d_out, got.size(), cudaMemcpyDeviceToHost));
  cudaFree(d_ids);
  cudaFree(d_out);
  cudaFree(d_rows);
  for (size_t i = 0; i < ids.size(); ++i)
    ASSERT_EQ(std::memcmp(got.data() + i * c.row_bytes, expected.data() + i * c.row_bytes, c.row_bytes), 0)
        << what << ": row " << i << " (id " << ids[i] << ")";
}

TEST(FeatureGather, EveryKernelCopiesExactlyTheRows) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  // fp32 x 1, fp16 x 3 (6 B), 37 fp32, 32 fp32 (128 B), 1000 fp32, an odd 4001 B row, a strided table.
  const std::vector<Case> cases = {{1000, 4, 4, 0},     {500, 6, 6, 2},      {300, 148, 148, 4}, {300, 128, 128, 0},
                                   {300, 128, 128, 36}, {50, 4000, 4000, 0}, {40, 4001, 4001, 1}, {200, 20, 64, 8},
                                   {1, 12, 12, 0}};
  for (const Case& c : cases)
    for (features::GatherKernel k : {features::GatherKernel::kAligned, features::GatherKernel::kNaive})
      for (bool on_device : {false, true})
        for (int blocks : {0, 1})
          for (bool sorted : {false, true}) check_case(c, k, on_device, blocks, sorted);
}

TEST(FeatureGather, AMatrixAlreadyPinnedIsUsedAsItIs) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  std::vector<float> rows(64 * 8);
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<float>(i);
  CHECK_CUDA(cudaHostRegister(rows.data(), rows.size() * sizeof(float), cudaHostRegisterMapped));
  {
    features::RegisteredHostRows again(rows.data(), 64, 32, 32);
    EXPECT_NE(again.table().rows, nullptr);
  }
  // Still registered by its owner: unregistering must succeed exactly once.
  EXPECT_EQ(cudaHostUnregister(rows.data()), cudaSuccess);
}

}  // namespace
}  // namespace tg::test::gpu
