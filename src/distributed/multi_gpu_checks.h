// What a run over several GPUs (`--gpus N`) accepts, checked before any GPU
// is touched, so the refusals are the same (and tested) on machines without
// GPUs.
#pragma once

#include <vector>

#include "distributed/degree_threshold.h"
#include "engines/run.h"

namespace tg::dist {

// The algorithms with a program over the partition (docs/DISTRIBUTED.md).
bool runs_on_several_gpus(const AlgorithmInfo& algorithm);

// The rule of the partition's default TH for these runs (one partition
// serves a batch): scaled by the ranks where every run is a BFS, by twice
// the ranks where every one of them only pushes (--push-only), the paper's
// otherwise (measured: degree_threshold.h).
ThresholdRule threshold_rule_for(const AlgorithmInfo& algorithm, bool push_only);
ThresholdRule threshold_rule_for(const std::vector<RunRequest>& requests);

// Throws a one-line usage error for what --gpus cannot do (yet): another
// algorithm, cc on a directed graph, a placement other than auto, device and
// zero-copy, --async, --device. --gpu-mem is a budget per GPU.
void check_multi_gpu_run(const std::vector<RunRequest>& requests, const GpuOptions& options, bool directed);

}  // namespace tg::dist
