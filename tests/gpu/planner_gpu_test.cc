// --placement auto on a GPU (planner/planner.h): the run takes the plan's
// placement, records the plan, and its result verifies; with the edges over
// the budget the plan leaves the device out.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "gpu/gpu_checks.h"
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

}  // namespace
}  // namespace tg::test
