// Not tests: the environment of every several-GPU test in this binary. Those
// tests run hundreds of small batches (each shape, threshold and GPU count),
// and a batch made its own NCCL group, about a second on 4 GPUs: most of a
// test's 20 s there. The groups are kept from batch to batch and destroyed
// after the last test, while CUDA is still up (engines/run.h, keep_gpu_groups).
#include <gtest/gtest.h>

#include "engines/run.h"

namespace tg::test::gpu {
namespace {

class KeptGpuGroups : public ::testing::Environment {
 public:
  void SetUp() override { keep_gpu_groups(true); }
  void TearDown() override { keep_gpu_groups(false); }
};

[[maybe_unused]] const ::testing::Environment* const kKeptGpuGroups =
    ::testing::AddGlobalTestEnvironment(new KeptGpuGroups);

}  // namespace
}  // namespace tg::test::gpu
