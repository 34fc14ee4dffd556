// What every checkpointing algorithm shares (checkpoint/checkpoint.h): the
// state is one vertex array or a few, as the algorithm's own arrays hold
// them, plus a few scalars; both are read and written in place on engines
// whose arrays are in host memory (HostArrays, engines/engine.h), copied
// across by engines whose arrays are elsewhere (CopiesArrays: the GPU and
// hybrid engines), and refused by any other. The
// algorithms stay engine-agnostic: they hand over a pointer from
// engine.data() and say what the scalars are; they never see edges.
#pragma once

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "checkpoint/checkpoint.h"
#include "core/env_count.h"
#include "core/error.h"
#include "engines/engine.h"

namespace tg {

// A checkpoint asked of an engine that can neither read its arrays in place
// nor copy them.
inline constexpr const char* kCannotCheckpoint = "checkpoints: this engine cannot read its arrays (use --engine cpu)";

template <typename Engine>
concept Checkpointable = HostArrays<Engine> || CopiesArrays<Engine>;

inline void refuse_checkpoint(const AlgorithmOptions& options) {
  if (options.checkpoint != nullptr) throw usage_error(kCannotCheckpoint);
}

// The saved state's size in bytes, where the run resumes and something was
// saved (sssp: its float or double distances); nothing otherwise.
template <typename Engine>
std::optional<uint64_t> saved_state_bytes(Engine&, const AlgorithmOptions& options) {
  if (options.checkpoint == nullptr) return std::nullopt;
  if constexpr (Checkpointable<Engine>) {
    const std::optional<SavedState> saved = options.checkpoint->load(Checkpointer::kAnySize);
    if (!saved) return std::nullopt;
    return saved->state.size();
  } else {
    throw usage_error(kCannotCheckpoint);
  }
}

// One of the vertex arrays a checkpoint holds: the algorithm's own array of
// n values, elem_bytes each (engine.data()).
struct VertexArrayRef {
  void* data;
  size_t elem_bytes;
};
template <typename T>
VertexArrayRef vertex_array(T* values) {
  return {values, sizeof(T)};
}

// Where the run resumes from a checkpoint: copies its vertex data into the
// algorithm's arrays (one after another in the file) and returns the saved
// iteration and scalars (`scalars` of them, else the file is not this
// algorithm's); nothing where the run does not resume or nothing was saved.
template <typename Engine>
std::optional<SavedState> resume_vertex_arrays(Engine& engine, const AlgorithmOptions& options,
                                               std::initializer_list<VertexArrayRef> arrays, size_t scalars,
                                               const char* algorithm) {
  if (options.checkpoint == nullptr) return std::nullopt;
  if constexpr (Checkpointable<Engine>) {
    const uint64_t n = engine.num_vertices();
    uint64_t bytes = 0;
    for (const VertexArrayRef& a : arrays) bytes += n * a.elem_bytes;
    std::optional<SavedState> saved = options.checkpoint->load(bytes);
    if (!saved) return std::nullopt;
    if (saved->scalars.size() != scalars)
      throw input_error(options.checkpoint->path(), std::string("not a ") + algorithm + " checkpoint");
    uint64_t at = 0;
    for (const VertexArrayRef& a : arrays) {
      if constexpr (HostArrays<Engine>) std::memcpy(a.data, saved->state.data() + at, n * a.elem_bytes);
      else engine.copy_from_host(a.data, saved->state.data() + at, n * a.elem_bytes);
      at += n * a.elem_bytes;
    }
    saved->state = {};
    return saved;
  } else {
    throw usage_error(kCannotCheckpoint);
  }
}

// The same for an algorithm whose state is one array of n T.
template <typename T, typename Engine>
std::optional<SavedState> resume_vertex_data(Engine& engine, const AlgorithmOptions& options, T* values,
                                             size_t scalars, const char* algorithm) {
  return resume_vertex_arrays(engine, options, {vertex_array(values)}, scalars, algorithm);
}

// Whether iteration is one to save at (--checkpoint-every).
inline bool checkpoint_due(const AlgorithmOptions& options, int iteration) {
  return options.checkpoint != nullptr && options.checkpoint->due(iteration);
}

// Saves the arrays (one after another) and the scalars as the state after
// `iteration`, where it is due. TG_CHECKPOINT_KILL_AFTER=K, a test hook, then
// kills the process right after the checkpoint of iteration K, as a killed
// run would die (tests/cli/checkpoint_test.cc).
template <typename Engine>
void save_vertex_arrays(Engine& engine, const AlgorithmOptions& options, int iteration,
                        const std::vector<double>& scalars, std::initializer_list<VertexArrayRef> arrays) {
  if (!checkpoint_due(options, iteration)) return;
  if constexpr (Checkpointable<Engine>) {
    const uint64_t n = engine.num_vertices();
    if (HostArrays<Engine> && arrays.size() == 1) {  // in place, no copy
      options.checkpoint->save(iteration, scalars,
                               {static_cast<const uint8_t*>(arrays.begin()->data), n * arrays.begin()->elem_bytes});
    } else {
      std::vector<uint8_t> state;
      for (const VertexArrayRef& a : arrays) {
        const size_t at = state.size(), bytes = n * a.elem_bytes;
        state.resize(at + bytes);
        if constexpr (HostArrays<Engine>) std::memcpy(state.data() + at, a.data, bytes);
        else engine.copy_to_host(state.data() + at, a.data, bytes);
      }
      options.checkpoint->save(iteration, scalars, state);
    }
    if (const uint64_t kill_at = env_count("TG_CHECKPOINT_KILL_AFTER"); kill_at > 0 && kill_at == uint64_t(iteration))
      std::raise(SIGKILL);
  }
}

// The same for one array of n T.
template <typename T, typename Engine>
void save_vertex_data(Engine& engine, const AlgorithmOptions& options, int iteration,
                      const std::vector<double>& scalars, const T* values) {
  save_vertex_arrays(engine, options, iteration, scalars, {VertexArrayRef{const_cast<T*>(values), sizeof(T)}});
}

}  // namespace tg
