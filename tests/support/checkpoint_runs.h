// Killing and resuming runs of the tiergraph program (--checkpoint,
// --resume), end to end: shared by the CPU engine's tests
// (tests/cli/checkpoint_algorithms_test.cc) and the GPU and hybrid engines'
// (tests/gpu/checkpoint_gpu_test.cc).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "support/run_program.h"

namespace tg::test {

// An empty folder under the test's temporary folder.
std::string fresh_dir(const std::string& name);
// The run's JSON record (a failure where it did not exit 0).
nlohmann::json record_of(const ProgramResult& r, const std::string& what);
// The iteration a checkpoint file holds.
int saved_iteration(const std::string& file);
// `run` saving into `dir` every `every` iterations, killed by SIGKILL right
// after the checkpoint of iteration `kill_at` (TG_CHECKPOINT_KILL_AFTER), its
// result file never written: checked, with `what` in the messages.
void run_killed_after(const std::string& run, const std::string& dir, int every, int kill_at, const std::string& what);
// Exit code `code`, one line on stderr holding `fragment`.
void expect_exit(const ProgramResult& r, int code, const std::string& fragment);

// `run` (a command without --checkpoint/--resume/--output) saving after every
// iteration writes what it writes without; killed by SIGKILL right after the
// checkpoint of iterations picked at random (with a fixed seed), then after
// the last, and resumed, it writes the uninterrupted run's result file byte
// for byte with its iteration count, having read fewer edges (none when
// killed after the last iteration). `exact_steps` false: the run's step count
// and edges vary between runs though its result does not (sssp and sswp on a
// GPU, whose threads improve a bucket's vertices in an order of their own):
// the step count and the edges are then checked only where killed after the
// last iteration (none read after it).
void expect_killed_and_resumed_equal(const std::string& name, const std::string& run, bool exact_steps = true);

}  // namespace tg::test
