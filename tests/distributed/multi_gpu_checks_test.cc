// What `--gpus N` refuses before touching a GPU (distributed/multi_gpu_checks.h).
#include <gtest/gtest.h>

#include <string>

#include "algorithms/algorithm.h"
#include "core/error.h"
#include "distributed/multi_gpu_checks.h"

namespace tg::test {
namespace {

std::string refusal(const std::vector<RunRequest>& requests, const GpuOptions& options, bool directed = false) {
  try {
    dist::check_multi_gpu_run(requests, options, directed);
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    return e.what();
  }
  return "";
}

std::vector<RunRequest> one(const std::string& algorithm) {
  const AlgorithmInfo& a = *find_algorithm(algorithm);
  return {make_request(a, a.needs_source() ? Sources{0} : Sources{})};
}

GpuOptions gpus(int n) {
  GpuOptions o;
  o.gpus = n;
  return o;
}

TEST(MultiGpuChecks, BfsOnDeviceMemoryIsAccepted) {
  EXPECT_EQ(refusal(one("bfs"), gpus(2)), "");
  GpuOptions o = gpus(1);
  o.placement = Placement::kDevice;
  EXPECT_EQ(refusal(one("bfs"), o), "");
}

TEST(MultiGpuChecks, PartsInHostMemoryAndABudgetPerGpuAreAccepted) {
  for (Placement p : {Placement::kZeroCopyNaive, Placement::kZeroCopyMerged, Placement::kZeroCopyAligned}) {
    GpuOptions o = gpus(2);
    o.placement = p;
    EXPECT_EQ(refusal(one("pagerank"), o), "");
  }
  GpuOptions o = gpus(2);
  o.memory_budget = 1 << 20;
  EXPECT_EQ(refusal(one("bfs"), o), "");
}

TEST(MultiGpuChecks, CcPageRankAndSsspAreAccepted) {
  EXPECT_EQ(refusal(one("cc"), gpus(2)), "");
  EXPECT_EQ(refusal(one("sssp"), gpus(2), true), "");
  EXPECT_EQ(refusal(one("pagerank"), gpus(2)), "");
  EXPECT_EQ(refusal(one("pagerank"), gpus(2), true), "");
}

// The partition's default TH scales with the ranks for a batch of BFS runs
// alone: one partition serves the whole batch, and the other programs were
// not measured with it (distributed/degree_threshold.h).
TEST(MultiGpuChecks, OnlyABatchOfBfsRunsScalesTheThreshold) {
  EXPECT_EQ(dist::threshold_rule_for(one("bfs")), dist::ThresholdRule::kScaledByRanks);
  EXPECT_EQ(dist::threshold_rule_for(*find_algorithm("bfs"), false), dist::ThresholdRule::kScaledByRanks);
  EXPECT_EQ(dist::threshold_rule_for(*find_algorithm("bfs"), true), dist::ThresholdRule::kScaledByTwiceRanks);
  EXPECT_EQ(dist::threshold_rule_for(*find_algorithm("cc"), true), dist::ThresholdRule::kPaper);
  for (const char* other : {"cc", "sssp", "pagerank"})
    EXPECT_EQ(dist::threshold_rule_for(one(other)), dist::ThresholdRule::kPaper) << other;
  std::vector<RunRequest> mixed = one("bfs");
  mixed.push_back(one("cc")[0]);
  EXPECT_EQ(dist::threshold_rule_for(mixed), dist::ThresholdRule::kPaper);
  std::vector<RunRequest> two = one("bfs");
  two.push_back(one("bfs")[0]);
  EXPECT_EQ(dist::threshold_rule_for(two), dist::ThresholdRule::kScaledByRanks);
  // A BFS that only pushes: twice the ranks, fewer delegates pushing fewer
  // edges (measured); beside a DOBFS, the DOBFS's rule.
  std::vector<RunRequest> push_only = one("bfs");
  push_only[0].options.push_only = true;
  EXPECT_EQ(dist::threshold_rule_for(push_only), dist::ThresholdRule::kScaledByTwiceRanks);
  push_only.push_back(push_only[0]);
  EXPECT_EQ(dist::threshold_rule_for(push_only), dist::ThresholdRule::kScaledByTwiceRanks);
  push_only.push_back(one("bfs")[0]);
  EXPECT_EQ(dist::threshold_rule_for(push_only), dist::ThresholdRule::kScaledByRanks);
  push_only.push_back(one("cc")[0]);
  EXPECT_EQ(dist::threshold_rule_for(push_only), dist::ThresholdRule::kPaper);
}

TEST(MultiGpuChecks, EachUnsupportedChoiceIsNamed) {
  EXPECT_NE(refusal(one("sswp"), gpus(2)).find("sswp does not run on several GPUs"), std::string::npos);
  EXPECT_NE(refusal(one("bc"), gpus(2)).find("bc"), std::string::npos);
  EXPECT_NE(refusal(one("cc"), gpus(2), true).find("cc on several GPUs needs an undirected graph"), std::string::npos);
  GpuOptions o = gpus(2);
  o.placement = Placement::kSubgraph;
  EXPECT_NE(refusal(one("bfs"), o).find("--placement"), std::string::npos);
  o.placement = Placement::kUvm;
  EXPECT_NE(refusal(one("bfs"), o).find("--placement"), std::string::npos);
  o = gpus(2);
  o.async = true;
  EXPECT_NE(refusal(one("bfs"), o).find("--async"), std::string::npos);
  o = gpus(2);
  o.device = 1;
  EXPECT_NE(refusal(one("bfs"), o).find("--device"), std::string::npos);
  EXPECT_NE(refusal(one("bfs"), gpus(0)).find("at least 1"), std::string::npos);
}

// --gpus with --engine cpu: tests/cli/cli_test.cc (CliExitCodes.UsageIs2).

}  // namespace
}  // namespace tg::test
