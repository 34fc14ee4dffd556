// The feature store's peer tier (features/tier_place.h, gpu_tiers.h,
// peer_devices.h): rows gathered across this GPU's tier, the peers' and host
// memory equal the CPU gather bit for bit, for fp32, fp16, int8 and int64
// rows of several widths, with and without a row-to-rank map.
//   On one GPU: the kernel's dealing over many peers (stand-in peer memories
//   on the same GPU: the kernel reads a pointer, wherever it points), a store
//   whose peer fraction finds no peer (rows fall to host memory, results
//   unchanged), refusals of peers that do not exist.
//   On two GPUs or more (GTEST_SKIP otherwise, saying so): the real peer
//   path, peer memory read over NVLink, from either GPU's side.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "features/cpu_gather.h"
#include "features/gpu/feature_gather.h"
#include "features/gpu_tiers.h"
#include "features/peer_devices.h"
#include "features/tier_plan.h"
#include "gpu/feature_rows.h"
#include "gpu/gpu_checks.h"
#include "support/usage_errors.h"

namespace tg::test::gpu {
namespace {

#define CHECK_CUDA(call) ASSERT_EQ((call), cudaSuccess) << #call

struct RowType {
  const char* name;
  uint64_t element;
};
constexpr RowType kTypes[] = {{"fp32", 4}, {"fp16", 2}, {"int8", 1}, {"int64", 8}};
constexpr uint64_t kColumns[] = {1, 3, 37, 128, 1000};

// --- one GPU --------------------------------------------------------------

// The tiered kernel over a table whose "peers" are buffers on this GPU,
// filled from the plan's deal by host copies (not by GpuTiers' fill): the
// rank rule, the dealing over up to kMaxPeers peers and the pointer choice
// are the kernel's alone to get right.
void check_kernel_over_stand_in_peers(const Matrix& m, const features::TierPlan& plan, std::mt19937_64& rng,
                                      const std::string& what) {
  std::vector<uint8_t*> buffers;
  const auto upload_rows = [&](const std::vector<int64_t>& rows) -> uint8_t* {
    std::vector<uint8_t> packed(rows.size() * m.row_bytes);
    features::gather_rows_cpu(m.rows, m.row_bytes, m.row_bytes, rows, packed.data());
    uint8_t* d = nullptr;
    if (cudaMalloc(&d, packed.size() + 1) != cudaSuccess) return nullptr;
    cudaMemcpy(d, packed.data(), packed.size(), cudaMemcpyHostToDevice);
    buffers.push_back(d);
    return d;
  };
  features::RegisteredHostRows host(m.rows, m.num_rows, m.row_bytes, m.row_bytes);
  features::TieredTable table{host.table(), nullptr, plan.bounds, upload_rows(plan.gpu_tier_rows())};
  for (uint32_t p = 0; p < plan.num_peers(); ++p) table.peers[p] = upload_rows(plan.peer_tier_rows(p));
  uint32_t* map = nullptr;
  if (!plan.rank_of_row.empty()) {
    CHECK_CUDA(cudaMalloc(&map, plan.rank_of_row.size() * sizeof(uint32_t)));
    CHECK_CUDA(cudaMemcpy(map, plan.rank_of_row.data(), plan.rank_of_row.size() * sizeof(uint32_t),
                          cudaMemcpyHostToDevice));
    table.rank_of_row = map;
  }
  const std::vector<int64_t> ids = random_ids(3000, m.num_rows, rng);
  std::vector<uint8_t> expected(ids.size() * m.row_bytes), got(ids.size() * m.row_bytes);
  features::gather_rows_cpu(m.rows, m.row_bytes, m.row_bytes, ids, expected.data());
  int64_t* d_ids = nullptr;
  uint8_t* d_out = nullptr;
  CHECK_CUDA(cudaMalloc(&d_ids, ids.size() * sizeof(int64_t)));
  CHECK_CUDA(cudaMalloc(&d_out, got.size()));
  CHECK_CUDA(cudaMemcpy(d_ids, ids.data(), ids.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_out, 0xA5, got.size()));
  features::gather_tiered(table, {d_ids, nullptr, ids.size(), d_out}, 0, nullptr);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(got.data(), d_out, got.size(), cudaMemcpyDeviceToHost));
  for (uint8_t* b : buffers) cudaFree(b);
  cudaFree(map);
  cudaFree(d_ids);
  cudaFree(d_out);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (std::memcmp(got.data() + i * m.row_bytes, expected.data() + i * m.row_bytes, m.row_bytes) == 0) continue;
    const features::TierPlace p = plan.place_of_row(static_cast<uint64_t>(ids[i]));
    FAIL() << what << ": row " << i << " (id " << ids[i] << ", tier " << static_cast<int>(p.tier) << ", peer "
           << p.peer << ", slot " << p.slot << ") differs";
  }
}

TEST(FeaturePeerTier, KernelDealsRowsOverManyPeers) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  std::mt19937_64 rng(37);
  for (const RowType& type : kTypes)
    for (uint64_t cols : kColumns)
      for (uint32_t peers : {1u, 2u, 3u, features::kMaxPeers})
        for (bool map : {false, true}) {
          const uint64_t rows = cols >= 128 ? 300 : 1000;
          const Matrix m = random_matrix(rows, cols * type.element, cols % 2 == 1 ? 5 : 0, rng);
          const std::vector<double> scores = map ? random_scores(rows, rng) : std::vector<double>{};
          const features::TierPlan plan = features::plan_tiers(scores, rows, {0.1, 0.5}, peers);
          ASSERT_EQ(plan.rank_of_row.empty(), !map);
          check_kernel_over_stand_in_peers(m, plan, rng,
                                           std::string(type.name) + " x " + std::to_string(cols) + ", " +
                                               std::to_string(peers) + " peers" + (map ? ", map" : ", no map"));
        }
}

// A store asked for a peer tier where no peer is found: the plan deals to
// nobody, the rows stay in host memory, and the gathers are unchanged.
TEST(FeaturePeerTier, APeerFractionWithoutPeersReadsThoseRowsFromHostMemory) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  std::mt19937_64 rng(41);
  const features::PeerChoice none = features::choose_peers(0, std::vector<int>{});
  EXPECT_TRUE(none.peers.empty());
  EXPECT_EQ(none.why_none, "peers=[] given");
  for (const RowType& type : kTypes)
    for (uint64_t cols : {3, 128}) {
      const Matrix m = random_matrix(1000, cols * type.element, 5, rng);
      const features::TierPlan plan = features::plan_tiers(random_scores(1000, rng), 1000, {0.2, 0.5}, 0);
      EXPECT_EQ(plan.peer_rows(), 0u);
      EXPECT_EQ(plan.host_rows(), 800u);
      features::GpuTiers tiers(m.host(), plan, {0, 1.0, {}});
      expect_gathers_equal_cpu(tiers, m, plan, rng, std::string(type.name) + " x " + std::to_string(cols));
    }
}

TEST(FeaturePeerTier, RefusesPeersThatCannotServe) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  std::vector<uint8_t> rows(64 * 16);
  const features::HostMatrix matrix{rows.data(), 64, 16, 16};
  const features::TierPlan one_peer = features::plan_tiers({}, 64, {0.0, 0.5}, 1);
  expect_usage_error([&] { features::GpuTiers(matrix, one_peer, {0, 1.0, {1000}}); },
                     "peers: device 1000 does not exist");
  expect_usage_error([&] { features::GpuTiers(matrix, one_peer, {0, 1.0, {0}}); }, "the store's own device");
  expect_usage_error([&] { features::GpuTiers(matrix, one_peer, {0, 1.0, {}}); }, "the tier plan has 1 peer");
  expect_usage_error([] { features::choose_peers(0, std::vector<int>{-3}); }, "peers: device -3 is negative");
  expect_usage_error([] { features::choose_peers(1000, std::nullopt); }, "device 1000 does not exist");
}

// --- two GPUs -------------------------------------------------------------

// GPUs 0 and 1, each able to read the other; the test skips, saying why,
// where there are not two such.
class FeaturePeerTierTwoGpus : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_gpu()) GTEST_SKIP() << "no GPU";
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2)
      GTEST_SKIP() << "needs two GPUs (this machine has " << count << "): the real peer path is not tested here";
    peers_of_0 = features::choose_peers(0, std::nullopt).peers;
    peers_of_1 = features::choose_peers(1, std::nullopt).peers;
    if (peers_of_0.empty() || peers_of_1.empty())
      GTEST_SKIP() << "GPUs 0 and 1 cannot both read another GPU (cudaDeviceCanAccessPeer): no peer path here";
  }
  std::vector<int> peers_of_0, peers_of_1;
};

TEST_F(FeaturePeerTierTwoGpus, ThreeTiersOverRealPeersEqualTheCpuGather) {
  const std::vector<int>& peers = peers_of_0;
  std::mt19937_64 rng(43);
  for (const RowType& type : kTypes)
    for (uint64_t cols : kColumns)
      for (uint64_t offset : {0, 5})
        for (auto [gpu, peer] : {std::pair{0.1, 0.3}, {0.0, 1.0}, {0.3, 0.7}, {0.2, 0.001}})
          for (bool map : {false, true}) {
            const uint64_t rows = cols >= 128 ? 300 : 1000;
            const Matrix m = random_matrix(rows, cols * type.element, offset, rng);
            const std::vector<double> scores = map ? random_scores(rows, rng) : std::vector<double>{};
            const features::TierPlan plan =
                features::plan_tiers(scores, rows, {gpu, peer}, static_cast<uint32_t>(peers.size()));
            features::GpuTiers tiers(m.host(), plan, {0, 1.0, peers});
            expect_gathers_equal_cpu(tiers, m, plan, rng,
                                     std::string(type.name) + " x " + std::to_string(cols) + " at offset " +
                                         std::to_string(offset) + ", fractions " + std::to_string(gpu) + " + " +
                                         std::to_string(peer) + (map ? ", map" : ", no map"));
          }
}

// The other direction (the store on GPU 1, GPU 0 its peer), a tenth of the
// SMs, and two stores sharing the peer access the first enabled.
TEST_F(FeaturePeerTierTwoGpus, FromTheSecondGpuOnAFewSmsTwice) {
  const std::vector<int>& peers = peers_of_1;
  std::mt19937_64 rng(47);
  const Matrix m = random_matrix(2000, 37 * 4, 4, rng);
  const features::TierPlan plan =
      features::plan_tiers(random_scores(2000, rng), 2000, {0.1, 0.6}, static_cast<uint32_t>(peers.size()));
  features::GpuTiers first(m.host(), plan, {1, 0.1, peers});
  features::GpuTiers second(m.host(), plan, {1, 1.0, peers});  // peer access already enabled: no error
  EXPECT_EQ(first.device(), 1);
  EXPECT_EQ(first.peers(), peers);
  expect_gathers_equal_cpu(first, m, plan, rng, "fp32 x 37 from GPU 1, a tenth of the SMs");
  expect_gathers_equal_cpu(second, m, plan, rng, "fp32 x 37 from GPU 1, second store");
}

// The peer tier's bytes are in the peer's memory, not this GPU's.
TEST_F(FeaturePeerTierTwoGpus, ThePeerTierLivesInThePeersMemory) {
  const std::vector<int>& peers = peers_of_0;
  std::mt19937_64 rng(53);
  const uint64_t rows = 8192, row_bytes = 4096;  // 32 MiB, all of it on the peers
  const Matrix m = random_matrix(rows, row_bytes, 0, rng);
  const auto free_on = [](int device) {
    size_t free_bytes = 0, total = 0;
    cudaSetDevice(device);
    cudaMemGetInfo(&free_bytes, &total);
    cudaSetDevice(0);
    return free_bytes;
  };
  const size_t before = free_on(peers[0]);
  const features::TierPlan plan = features::plan_tiers({}, rows, {0.0, 1.0}, static_cast<uint32_t>(peers.size()));
  features::GpuTiers tiers(m.host(), plan, {0, 1.0, peers});
  EXPECT_GE(before - free_on(peers[0]), plan.peer_tier_rows(0).size() * row_bytes);
  expect_gathers_equal_cpu(tiers, m, plan, rng, "4 KiB rows, all on the peers");
}

}  // namespace
}  // namespace tg::test::gpu
