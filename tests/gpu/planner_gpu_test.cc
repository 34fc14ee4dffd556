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
  // The GPU's UUID as nvidia-smi prints it: "GPU-" and 32 hex digits in five groups.
  ASSERT_EQ(p.gpu_uuid.size(), 40u) << p.gpu_uuid;
  EXPECT_EQ(p.gpu_uuid.substr(0, 4), "GPU-");
  EXPECT_EQ(p.gpu_uuid.find_first_not_of("0123456789abcdef-", 4), std::string::npos) << p.gpu_uuid;
  // The forest links at the quick run's two footprints (16 and 256 MiB):
  // fewer a second than random reads of the same footprint, each a few.
  ASSERT_EQ(p.device_links.points.size(), 2u);
  for (const auto& [footprint, rate] : p.device_links.points) {
    EXPECT_GT(rate, 1e7) << footprint;
    EXPECT_LT(rate, p.device_random.at(footprint)) << footprint;
  }
  EXPECT_NE(r.err.find("forest links"), std::string::npos) << r.err;
  EXPECT_TRUE(p.zero_copy_random_in_place.points.empty());  // --quick leaves the 4 GiB footprints out
}

// A profile from another GPU of the same model (two lent H100 hosts read
// scattered zero-copy 2x apart: docs/PERF.md, session 49): auto's run, its
// summary and `plan` say so and where to calibrate; the run's own profile
// says nothing.
TEST(PlannerGpu, AProfileFromAnotherGpuIsNoted) {
  if (!gpu::have_gpu()) GTEST_SKIP() << "no usable GPU";
  const std::string own = temp_path("own_profile.json"), other = temp_path("other_profile.json");
  ASSERT_EQ(run_tiergraph("calibrate --quick -o " + own).exit_code, 0);
  planner::MachineProfile p = planner::read_profile(own);
  p.gpu_uuid = "GPU-00000000-0000-0000-0000-000000000000";
  planner::write_profile(p, other);
  const nlohmann::json mine = run_json("run bfs --graph kron:12 --engine gpu --profile " + own);
  EXPECT_FALSE(mine["details"]["plan"].contains("profile_note")) << mine["details"]["plan"].dump();
  const nlohmann::json theirs = run_json("run bfs --graph kron:12 --engine gpu --profile " + other);
  const std::string note = theirs["details"]["plan"].value("profile_note", "");
  EXPECT_NE(note.find(p.gpu_uuid), std::string::npos) << note;
  EXPECT_NE(note.find("tiergraph calibrate"), std::string::npos) << note;
  const ProgramResult summary = run_tiergraph("run bfs --graph kron:12 --engine gpu --profile " + other);
  ASSERT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_NE(summary.out.find("note       " + note), std::string::npos) << summary.out;
  const ProgramResult plan = run_tiergraph("plan bfs --graph kron:12 --profile " + other);
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("note       " + note), std::string::npos) << plan.out;
  const ProgramResult bench = run_tiergraph("bench kron:10 -a bfs,cc -p auto -n 1 --no-chart --profile " + other +
                                            " -o " + temp_path("bench_profile_note"));
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  const size_t at = bench.err.find("bench: note: " + note);
  EXPECT_NE(at, std::string::npos) << bench.err;
  EXPECT_EQ(bench.err.find("bench: note: ", at + 1), std::string::npos) << "once a graph: " << bench.err;
  // Each auto cell's plan beside its measured mean (cli/bench_summary.h).
  EXPECT_NE(bench.out.find("plan: kron:10 bfs chose "), std::string::npos) << bench.out;
  EXPECT_NE(bench.out.find("plan: kron:10 cc chose "), std::string::npos) << bench.out;
}

}  // namespace
}  // namespace tg::test
