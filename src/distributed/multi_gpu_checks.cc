#include "distributed/multi_gpu_checks.h"

#include <string>

#include "core/error.h"

namespace tg::dist {

bool runs_on_several_gpus(const AlgorithmInfo& algorithm) {
  const std::string name = algorithm.name();
  return name == "bfs" || name == "cc" || name == "pagerank" || name == "sssp";
}

ThresholdRule threshold_rule_for(const AlgorithmInfo& algorithm, bool push_only) {
  if (algorithm.name() != "bfs") return ThresholdRule::kPaper;
  return push_only ? ThresholdRule::kScaledByTwiceRanks : ThresholdRule::kScaledByRanks;
}

ThresholdRule threshold_rule_for(const std::vector<RunRequest>& requests) {
  if (requests.empty()) return ThresholdRule::kPaper;
  ThresholdRule rule = ThresholdRule::kScaledByTwiceRanks;
  for (const RunRequest& r : requests) {
    const ThresholdRule mine = threshold_rule_for(*r.algorithm, r.options.push_only);
    if (mine == ThresholdRule::kPaper) return ThresholdRule::kPaper;
    if (mine == ThresholdRule::kScaledByRanks) rule = mine;  // a DOBFS in the batch: its rule
  }
  return rule;
}

void check_multi_gpu_run(const std::vector<RunRequest>& requests, const GpuOptions& options, bool directed) {
  const std::string gpus = "--gpus " + std::to_string(options.gpus);
  if (options.gpus < 1) throw usage_error(gpus + ": at least 1");
  for (const RunRequest& r : requests)
    if (!runs_on_several_gpus(*r.algorithm))
      throw usage_error(gpus + ": " + r.algorithm->name() +
                        " does not run on several GPUs yet (bfs, cc, pagerank and sssp do; docs/DISTRIBUTED.md has the plan)");
  for (const RunRequest& r : requests)
    if (directed && r.algorithm->name() == "cc")
      throw usage_error(gpus + ": cc on several GPUs needs an undirected graph (its labels travel along out-edges "
                               "only); build it undirected, or run cc on one GPU");
  if (options.placement != Placement::kAuto && options.placement != Placement::kDevice && !is_zero_copy(options.placement))
    throw usage_error(gpus + ": --placement " + std::string(name_of(options.placement)) +
                      ": several GPUs keep their parts in GPU memory (device) or read them from host memory "
                      "(zerocopy-naive, -merged, -aligned), or choose per GPU (auto)");
  if (options.async) throw usage_error(gpus + ": --async is for the subgraph and stream placements");
  if (options.device != 0) throw usage_error(gpus + " uses GPUs 0.." + std::to_string(options.gpus - 1) + ": drop --device");
}

}  // namespace tg::dist
