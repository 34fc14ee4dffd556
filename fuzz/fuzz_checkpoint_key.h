// The run a checkpoint seed belongs to: make_seeds saves one with this key,
// fuzz_checkpoint resumes with it.
#pragma once

#include <cstdint>

#include "checkpoint/checkpoint.h"

namespace tg::fuzz {

inline constexpr uint64_t kCheckpointSeedStateBytes = 48;

inline CheckpointKey checkpoint_seed_key() { return CheckpointKey{"pagerank", "tolerance=1e-4", 6, 20, 0x5eed}; }

}  // namespace tg::fuzz
