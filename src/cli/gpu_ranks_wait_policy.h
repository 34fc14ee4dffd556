// OpenMP's wait policy for a program that drives several GPUs from threads.
//
// `run` and `bench` with `--gpus N` (N > 1) drive N GPUs from N threads of one
// process, synchronising them a few times a level; between runs the host's
// OpenMP regions (the gather into global order, bench's edge counts) leave
// libgomp's workers spinning (its default policy), and a rank thread that found
// no free core waited a scheduler tick at each synchronisation. With the
// policy passive, 64 BFS roots at kron:28 on 4 H200 had no slow root and
// 269.8 GTEPS, against 13 slow roots and 170.5 GTEPS (docs/PERF.md, session 6).
// libgomp reads the policy once, when it loads, so main() sets it and starts
// the program again (exec, same process) before any OpenMP region runs. A
// policy the user set is kept; --distributed (under mpirun) is left alone.
#pragma once

#include <string>
#include <vector>

namespace tg::cli {

// Whether this command line drives several GPUs from one process (`run` or
// `bench` with --gpus N, N > 1, given as "--gpus N" or "--gpus=N").
bool drives_several_gpus(const std::vector<std::string>& args);

// The OMP_WAIT_POLICY to start again with, or "" to go on as we are:
// "passive" where the command line drives several GPUs and the environment
// names no policy (`current` is getenv's value, or nullptr).
std::string wait_policy_to_set(const std::vector<std::string>& args, const char* current);

}  // namespace tg::cli
