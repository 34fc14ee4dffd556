// The feature store's GPU tiers (features/gpu_tiers.h) against the CPU gather
// (features/cpu_gather.h), bit for bit: fp32, fp16 and int64 rows of 1 to
// 1000 elements, matrices at unaligned host addresses, random and repeated
// ids, with no rows, 30% and all rows in GPU memory, the whole GPU or one
// SM's worth of blocks. Device outputs are poisoned before each gather
// (TG_GPU_POISON, set by have_gpu), host outputs here.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "features/cpu_gather.h"
#include "features/gpu_tiers.h"
#include "features/tier_plan.h"
#include "gpu/feature_rows.h"
#include "gpu/gpu_checks.h"

namespace tg::test::gpu {
namespace {

void check_against_cpu(const Matrix& m, double fraction, double sm_fraction, std::mt19937_64& rng,
                       const std::string& what) {
  const features::TierPlan plan = features::plan_tiers(random_scores(m.num_rows, rng), m.num_rows, {fraction});
  features::GpuTiers tiers(m.host(), plan, {0, sm_fraction});
  const std::string where = ", fraction " + std::to_string(fraction) + ", sm share " + std::to_string(sm_fraction);
  expect_gathers_equal_cpu(tiers, m, plan, rng, what + where);
}

TEST(FeatureTiers, GatherEqualsTheCpuGather) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  std::mt19937_64 rng(17);
  for (auto [type, element] : {std::pair{"fp32", 4}, std::pair{"fp16", 2}, std::pair{"int64", 8}})
    for (uint64_t cols : {1, 3, 32, 37, 128, 1000})
      for (uint64_t offset : {0, 2, 4, 5, 68}) {
        const uint64_t rows = cols >= 128 ? 257 : 1000;
        const Matrix m = random_matrix(rows, cols * element, offset, rng);
        const std::string what =
            std::string(type) + " x " + std::to_string(cols) + " at offset " + std::to_string(offset);
        for (double fraction : {0.0, 0.3, 1.0}) check_against_cpu(m, fraction, 1.0, rng, what);
      }
}

TEST(FeatureTiers, OneSmsShareGathersTheSame) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  std::mt19937_64 rng(23);
  const Matrix m = random_matrix(3000, 37 * 4, 4, rng);
  for (double fraction : {0.0, 0.3, 1.0}) check_against_cpu(m, fraction, 1e-6, rng, "fp32 x 37, one SM");
}

// More hot rows than GpuTiers sorts from (4096): the hot tier is filled in
// address order too, each row in its slot.
TEST(FeatureTiers, AHotTierFilledInAddressOrder) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  std::mt19937_64 rng(29);
  const Matrix m = random_matrix(10000, 3 * 4, 0, rng);
  for (double fraction : {0.6, 1.0}) check_against_cpu(m, fraction, 1.0, rng, "fp32 x 3, 10000 rows");
}

TEST(FeatureTiers, EmptyGathersAndTables) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  std::mt19937_64 rng(29);
  const Matrix m = random_matrix(10, 12, 0, rng);
  features::GpuTiers tiers({m.rows, 10, 12, 12}, features::plan_tiers({}, 10, {0.5}), {});
  EXPECT_EQ(tiers.gather({}), nullptr);
  features::GpuTiers none({nullptr, 0, 12, 12}, features::plan_tiers({}, 0, {1.0}), {});
  EXPECT_EQ(none.gather({}), nullptr);
}

// Two stores over one array (or a slice of it) share its registration: the
// first to go leaves the other's reads mapped, the last unregisters.
TEST(FeatureTiers, StoresOverOneArrayShareItsRegistration) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  std::mt19937_64 rng(31);
  const Matrix m = random_matrix(500, 40, 0, rng);
  const features::TierPlan none = features::plan_tiers({}, 500, {}), tail_plan = features::plan_tiers({}, 400, {});
  auto whole = std::make_unique<features::GpuTiers>(features::HostMatrix{m.rows, 500, 40, 40}, none,
                                                    features::GpuTierOptions{});
  auto again = std::make_unique<features::GpuTiers>(features::HostMatrix{m.rows, 500, 40, 40}, none,
                                                    features::GpuTierOptions{});
  features::GpuTiers tail({m.rows + 100 * 40, 400, 40, 40}, tail_plan, {});
  whole.reset();
  again.reset();
  const std::vector<int64_t> ids = random_ids(1000, 400, rng);
  std::vector<uint8_t> expected(ids.size() * 40), got(ids.size() * 40, 0xA5);
  features::gather_rows_cpu(m.rows + 100 * 40, 40, 40, ids, expected.data());
  tail.gather_to_host(ids, got.data());
  EXPECT_EQ(got, expected);
}

// Whether a host-tier row written after the tiers were built reads back new:
// it must where the tiers read the matrix in place, and must not where they
// copied it (host_rows_copied_because() says which).
void expect_writes_seen_only_in_place(features::GpuTiers& tiers, uint64_t row_bytes,
                                      const std::function<void(uint8_t)>& write_row0, const std::string& what) {
  const bool in_place = tiers.host_rows_copied_because().empty();
  std::vector<uint8_t> before(row_bytes), after(row_bytes);
  tiers.gather_to_host(std::vector<int64_t>{0}, before.data());
  const uint8_t fresh = static_cast<uint8_t>(before[0] + 1);
  write_row0(fresh);
  tiers.gather_to_host(std::vector<int64_t>{0}, after.data());
  EXPECT_EQ(after[0] == fresh, in_place) << what << ": copied because '" << tiers.host_rows_copied_because() << "'";
  EXPECT_EQ(after[0] == before[0], !in_place) << what;
}

// The host tier is the caller's matrix, read in place, where CUDA can
// register it; else a copy, which the tiers own up to (the store's
// description and host_rows_in_place() tell the user).
TEST(FeatureTiers, HostRowsReadInPlaceSeeLaterWritesACopyDoesNot) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const features::TierPlan none = features::plan_tiers({}, 16, {});
  constexpr uint64_t kRowBytes = 64;
  // A page-aligned buffer of its own: registered in place.
  uint8_t* page = static_cast<uint8_t*>(std::aligned_alloc(4096, 2 * 4096));
  ASSERT_NE(page, nullptr);
  std::memset(page, 7, 2 * 4096);
  {
    features::GpuTiers tiers({page, 16, kRowBytes, kRowBytes}, none, {});
    EXPECT_EQ(tiers.host_rows_copied_because(), "");
    expect_writes_seen_only_in_place(tiers, kRowBytes, [&](uint8_t v) { page[0] = v; }, "a page of its own");
    // Another matrix on the same page, outside the first's range: registered
    // with it, read through that mapping, or copied; whichever, said truly.
    uint8_t* beside = page + 2048;
    features::GpuTiers second({beside, 16, kRowBytes, kRowBytes}, none, {});
    expect_writes_seen_only_in_place(second, kRowBytes, [&](uint8_t v) { beside[0] = v; }, "beside another");
  }
  std::free(page);
  // A read-only shared mapping of a file, written through the file: in place
  // where read-only registration is supported, else copied.
  const std::string path = ::testing::TempDir() + "tg_feature_rows_" + std::to_string(::getpid());
  std::vector<uint8_t> bytes(16 * kRowBytes, 3);
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
    std::fclose(f);
  }
  const int fd = ::open(path.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  void* mapped = ::mmap(nullptr, bytes.size(), PROT_READ, MAP_SHARED, fd, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  {
    features::GpuTiers tiers({mapped, 16, kRowBytes, kRowBytes}, none, {});
    expect_writes_seen_only_in_place(
        tiers, kRowBytes, [&](uint8_t v) { ASSERT_EQ(::pwrite(fd, &v, 1, 0), 1); }, "a read-only file mapping");
    std::cout << "[ note ] a read-only file mapping: "
              << (tiers.host_rows_copied_because().empty() ? "read in place" : tiers.host_rows_copied_because())
              << "\n";
  }
  ::munmap(mapped, bytes.size());
  // A private (copy-on-write) mapping, written through itself: copied, since
  // pinning one in place took minutes on the lent H100.
  mapped = ::mmap(nullptr, bytes.size(), PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  {
    features::GpuTiers tiers({mapped, 16, kRowBytes, kRowBytes}, none, {});
    EXPECT_NE(tiers.host_rows_copied_because().find("private"), std::string::npos)
        << tiers.host_rows_copied_because();
    auto* bytes_there = static_cast<uint8_t*>(mapped);
    expect_writes_seen_only_in_place(tiers, kRowBytes, [&](uint8_t v) { bytes_there[0] = v; }, "a private file mapping");
  }
  ::munmap(mapped, bytes.size());
  ::close(fd);
  std::remove(path.c_str());
}

// 3000 fp32 rows of 37 at an unaligned address, 30% of them in GPU memory,
// and what the CPU gathers for a request of `count` random ids.
struct ThirtyPercentOnGpu {
  std::mt19937_64 rng;
  Matrix m;
  features::TierPlan plan;
  features::GpuTiers tiers;
  explicit ThirtyPercentOnGpu(uint64_t seed)
      : rng(seed),
        m(random_matrix(3000, 37 * 4, 4, rng)),
        plan(features::plan_tiers(random_scores(m.num_rows, rng), m.num_rows, {0.3})),
        tiers(m.host(), plan, {0, 1.0}) {}
  std::vector<uint8_t> cpu_rows(const std::vector<int64_t>& ids) const {
    std::vector<uint8_t> rows(ids.size() * m.row_bytes);
    features::gather_rows_cpu(m.rows, m.row_bytes, m.row_bytes, ids, rows.data());
    return rows;
  }
};

// gather_into on `theirs` after that stream sleeps on the host (a host
// function) and then zeroes the output, and the rows copied back on it into
// *got: a gather that did not wait for the stream would be overwritten.
void gather_into_after_a_sleep(features::GpuTiers& tiers, const std::vector<int64_t>& ids, uint64_t row_bytes,
                               cudaStream_t theirs, std::vector<uint8_t>& got) {
  const uint64_t bytes = ids.size() * row_bytes;
  got.assign(bytes, 0xA5);
  void* out = nullptr;
  ASSERT_EQ(cudaMalloc(&out, bytes), cudaSuccess);
  ASSERT_EQ(cudaLaunchHostFunc(
                theirs, [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }, nullptr),
            cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(out, 0, bytes, theirs), cudaSuccess);
  tiers.gather_into(ids, out, reinterpret_cast<uintptr_t>(theirs));
  ASSERT_EQ(cudaMemcpyAsync(got.data(), out, bytes, cudaMemcpyDeviceToHost, theirs), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(theirs), cudaSuccess);
  ASSERT_EQ(cudaFree(out), cudaSuccess);
}

// gather_into on the caller's stream: that stream first sleeps on the host
// (a host function) and then zeroes the output, so a gather that did not
// wait for it would be overwritten; the copy back queued there after the
// gather would read poison (TG_GPU_POISON) or zeros if the rows were not
// ordered before it. Without the sleep the race would rarely show.
TEST(FeatureTiers, GatherIntoIsOrderedOnTheCallersStream) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  ThirtyPercentOnGpu t(37);
  cudaStream_t theirs = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&theirs, cudaStreamNonBlocking), cudaSuccess);
  for (uint64_t count : {uint64_t{1}, uint64_t{777}, uint64_t{5000}}) {
    const std::vector<int64_t> ids = random_ids(count, t.m.num_rows, t.rng);
    std::vector<uint8_t> got;
    ASSERT_NO_FATAL_FAILURE(gather_into_after_a_sleep(t.tiers, ids, t.m.row_bytes, theirs, got));
    EXPECT_EQ(got, t.cpu_rows(ids)) << count << " rows";
  }
  cudaStreamDestroy(theirs);
}

// Ids in device memory: checked and counted by tier on the GPU (the same
// counts as the plan's on the host), the same rows as the CPU gather, and an
// id out of range refused before anything is gathered.
TEST(FeatureTiers, IdsInDeviceMemory) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  ThirtyPercentOnGpu t(41);
  for (uint64_t count : {uint64_t{1}, uint64_t{777}, uint64_t{5000}}) {
    const std::vector<int64_t> ids = random_ids(count, t.m.num_rows, t.rng);
    const uint64_t bytes = count * t.m.row_bytes;
    std::vector<uint8_t> got(bytes, 0xA5);
    int64_t* on_gpu = nullptr;
    void* out = nullptr;
    ASSERT_EQ(cudaMalloc(&on_gpu, std::max<uint64_t>(count, 3) * sizeof(int64_t)), cudaSuccess);  // 3: the bad ids below
    ASSERT_EQ(cudaMalloc(&out, bytes), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(on_gpu, ids.data(), count * sizeof(int64_t), cudaMemcpyHostToDevice), cudaSuccess);
    const features::TierCounts c = t.tiers.gather_into_from_device({on_gpu, count}, out, 0);
    const features::TierCounts want = features::count_tiers(t.plan, ids);
    EXPECT_EQ(c.gpu_hits, want.gpu_hits);
    EXPECT_EQ(c.peer_hits, want.peer_hits);
    EXPECT_EQ(c.host_hits, want.host_hits);
    ASSERT_EQ(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(got, t.cpu_rows(ids)) << count << " rows";
    const int64_t bad[3] = {5, static_cast<int64_t>(t.m.num_rows), -1};
    ASSERT_EQ(cudaMemcpy(on_gpu, bad, sizeof(bad), cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_THROW(t.tiers.gather_into_from_device({on_gpu, 3}, out, 0), Error);
    cudaFree(on_gpu);
    cudaFree(out);
  }
}

// Gathers shared with CPU threads (features/cpu_share.h), every gather
// large enough to share (from 0 bytes): fixed shares and the automatic one
// over several gathers (the balance moves between them), rows in host memory
// only (the tail lands in place) and with 30% in GPU memory (the host rows
// land packed and are moved into their places), one SM's worth of blocks and
// all, through gather() and gather_into() on a caller's stream that sleeps
// first (the copies must wait for it).
TEST(FeatureTiers, GathersSharedWithCpuThreadsEqualTheCpuGather) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  std::mt19937_64 rng(43);
  cudaStream_t theirs = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&theirs, cudaStreamNonBlocking), cudaSuccess);
  for (uint64_t row_bytes : {uint64_t{12}, uint64_t{148}, uint64_t{1028}}) {
    const Matrix m = random_matrix(3000, row_bytes, 4, rng);
    for (double fraction : {0.0, 0.3})
      for (double share : {0.5, 1.0, -1.0})
        for (double sm_fraction : {1e-6, 1.0}) {
          const features::TierPlan plan = features::plan_tiers(random_scores(m.num_rows, rng), m.num_rows, {fraction});
          features::GpuTierOptions options{0, sm_fraction};
          options.cpu_share = share;
          options.cpu_share_from_bytes = 0;
          features::GpuTiers tiers(m.host(), plan, options);
          const std::string what = std::to_string(row_bytes) + " B rows, fraction " + std::to_string(fraction) +
                                   ", cpu share " + std::to_string(share) + ", sm share " + std::to_string(sm_fraction);
          expect_gathers_equal_cpu(tiers, m, plan, rng, what);
          for (uint64_t count : {uint64_t{2}, uint64_t{4999}}) {
            const std::vector<int64_t> ids = random_ids(count, m.num_rows, rng);
            std::vector<uint8_t> got, expected(count * row_bytes, 0x5A);
            features::gather_rows_cpu(m.rows, row_bytes, row_bytes, ids, expected.data());
            ASSERT_NO_FATAL_FAILURE(gather_into_after_a_sleep(tiers, ids, row_bytes, theirs, got));
            EXPECT_EQ(got, expected) << what << ", gather_into of " << count;
          }
        }
  }
  cudaStreamDestroy(theirs);
}

TEST(FeatureTiers, RefusesACpuShareAboveOne) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  std::vector<uint8_t> rows(64);
  features::GpuTierOptions options;
  options.cpu_share = 1.5;
  EXPECT_THROW(features::GpuTiers({rows.data(), 16, 4, 4}, features::plan_tiers({}, 16, {}), options), Error);
}

TEST(FeatureTiers, RefusesADeviceThatDoesNotExist) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  std::vector<uint8_t> rows(64);
  try {
    features::GpuTiers tiers({rows.data(), 16, 4, 4}, features::plan_tiers({}, 16, {}), {1000, 1.0, {}});
    ADD_FAILURE() << "device 1000 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("device 1000 does not exist"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tg::test::gpu
