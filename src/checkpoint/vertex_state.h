// What every checkpointing algorithm shares (checkpoint/checkpoint.h): the
// state is one vertex array, as the algorithm's own array holds it, plus a
// few scalars; both are read and written in place on engines whose arrays are
// in host memory (HostArrays, engines/engine.h), and refused elsewhere. The
// algorithms stay engine-agnostic: they hand over a pointer from
// engine.data() and say what the scalars are; they never see edges.
#pragma once

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "checkpoint/checkpoint.h"
#include "core/error.h"
#include "engines/engine.h"

namespace tg {

// A checkpoint asked of an engine whose arrays are not in host memory.
inline void refuse_checkpoint(const AlgorithmOptions& options) {
  if (options.checkpoint != nullptr)
    throw usage_error("checkpoints: this engine's arrays are not in host memory (use --engine cpu)");
}

// The saved state's size in bytes, where the run resumes and something was
// saved (sssp: its float or double distances); nothing otherwise.
template <typename Engine>
std::optional<uint64_t> saved_state_bytes(Engine&, const AlgorithmOptions& options) {
  if (options.checkpoint == nullptr) return std::nullopt;
  if constexpr (HostArrays<Engine>) {
    const std::optional<SavedState> saved = options.checkpoint->load(Checkpointer::kAnySize);
    if (!saved) return std::nullopt;
    return saved->state.size();
  } else {
    throw usage_error("checkpoints: this engine's arrays are not in host memory (use --engine cpu)");
  }
}

// Where the run resumes from a checkpoint: copies its vertex data into
// `values` (the algorithm's array of n T) and returns the saved iteration and
// scalars (`scalars` of them, else the file is not this algorithm's); nothing
// where the run does not resume or nothing was saved yet.
template <typename T, typename Engine>
std::optional<SavedState> resume_vertex_data(Engine& engine, const AlgorithmOptions& options, T* values,
                                             size_t scalars, const char* algorithm) {
  if (options.checkpoint == nullptr) return std::nullopt;
  if constexpr (HostArrays<Engine>) {
    const uint64_t bytes = engine.num_vertices() * sizeof(T);
    std::optional<SavedState> saved = options.checkpoint->load(bytes);
    if (!saved) return std::nullopt;
    if (saved->scalars.size() != scalars)
      throw input_error(options.checkpoint->path(), std::string("not a ") + algorithm + " checkpoint");
    std::memcpy(values, saved->state.data(), bytes);
    saved->state = {};
    return saved;
  } else {
    throw usage_error("checkpoints: this engine's arrays are not in host memory (use --engine cpu)");
  }
}

// Whether iteration is one to save at (--checkpoint-every).
inline bool checkpoint_due(const AlgorithmOptions& options, int iteration) {
  return options.checkpoint != nullptr && options.checkpoint->due(iteration);
}

// Saves `values` (n T) and the scalars as the state after `iteration`, where
// it is due. TG_CHECKPOINT_KILL_AFTER=K, a test hook, then kills the process
// right after the checkpoint of iteration K, as a killed run would die
// (tests/cli/checkpoint_test.cc).
template <typename T, typename Engine>
void save_vertex_data(Engine& engine, const AlgorithmOptions& options, int iteration,
                      const std::vector<double>& scalars, const T* values) {
  if (!checkpoint_due(options, iteration)) return;
  if constexpr (HostArrays<Engine>) {
    options.checkpoint->save(iteration, scalars,
                             {reinterpret_cast<const uint8_t*>(values), engine.num_vertices() * sizeof(T)});
    if (const char* kill_at = std::getenv("TG_CHECKPOINT_KILL_AFTER"); kill_at && std::atoi(kill_at) == iteration)
      std::raise(SIGKILL);
  }
}

}  // namespace tg
