// --placement auto on a GPU (planner/planner.h): the run takes the plan's
// placement, records the plan, and its result verifies; with the edges over
// the budget the plan leaves the device out. `calibrate` on a GPU writes every
// rate the planner reads.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "gpu/gpu_checks.h"
#include "planner/machine_profile.h"
#include "support/run_program.h"

namespace tg::test {
namespace {

nlohmann::json run_json(const std::string& args) {
  const ProgramResult r = run_tiergraph(args + " --json --verify");
  EXPECT_EQ(r.exit_code, 0) << args << ": " << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

TEST(PlannerGpu, AutoRunsThePlanAndRecordsIt) {
  if (!gpu::have_gpu()) GTEST_SKIP() << "no usable GPU";
  for (const std::string algo : {"bfs", "cc", "pagerank", "sssp --weights 1:9"}) {
    const nlohmann::json whole = run_json("run " + algo + " --graph kron:12 --engine gpu");
    ASSERT_TRUE(whole.contains("details") && whole["details"].contains("plan")) << algo << whole.dump();
    EXPECT_EQ(whole["details"]["plan"]["choice"], "device") << algo;
    EXPECT_EQ(whole["placement"], whole["details"]["plan"]["choice"]) << algo;
    const nlohmann::json tight = run_json("run " + algo + " --graph kron:12 --engine gpu --gpu-mem 64K");
    const nlohmann::json& plan = tight["details"]["plan"];
    EXPECT_NE(plan["choice"], "device") << algo;
    EXPECT_EQ(tight["placement"], plan["choice"]) << algo;
    EXPECT_FALSE(plan["candidates"][0]["fits"]) << algo;
  }
  // A fixed placement runs no plan.
  const nlohmann::json fixed = run_json("run bfs --graph kron:12 --engine gpu --placement zerocopy-aligned");
  EXPECT_FALSE(fixed["details"].contains("plan"));
}

TEST(PlannerGpu, CalibrateMeasuresEveryRateTheModelReads) {
  if (!gpu::have_gpu()) GTEST_SKIP() << "no usable GPU";
  const std::string path = temp_path("calibrated.json");
  const ProgramResult r = run_tiergraph("calibrate --quick -o " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const planner::MachineProfile p = planner::read_profile(path);  // every required rate present and positive
  EXPECT_FALSE(p.gpu.empty());
  // The forest links at the quick run's two footprints (16 and 256 MiB):
  // fewer a second than random reads of the same footprint, each a few.
  ASSERT_EQ(p.device_links.points.size(), 2u);
  for (const auto& [footprint, rate] : p.device_links.points) {
    EXPECT_GT(rate, 1e7) << footprint;
    EXPECT_LT(rate, p.device_random.at(footprint)) << footprint;
  }
  EXPECT_NE(r.err.find("forest links"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tg::test
