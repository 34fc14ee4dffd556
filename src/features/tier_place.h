// Where a feature row lives, from its rank: one rule for the CPU (the plan,
// the counts) and the gather kernel, as sampling/draws.h is for the samplers.
//
// Rows are ranked hottest first (tier scores, features/tier_plan.h). Ranks
// [0, gpu_rows) are this GPU's tier, slot = rank. The next peer_rows ranks
// are interleaved round-robin over the P peer GPUs (the dissertation's
// Listing 4.1): r = rank - gpu_rows goes to peer r mod P, slot r / P, so
// every peer holds an equal share of hot and lukewarm rows and no one GPU's
// links carry the hottest (a blocked split would send the hotter half to one
// peer: Section 4.3.2). Every other rank is host memory.
//
// A rank is 4 bytes: the map from row to rank costs 4 bytes a row of GPU
// memory (444 MB at papers100M's 111 M rows; the tier, GPU and slot follow
// from the rank by the rule above, so they need no bits of their own), and
// nothing where the rows are already ordered hottest first (rank = row id).
// Hence the device tiers hold fewer than 2^32 - 1 rows together (plan_tiers
// refuses more).
#pragma once

#include <cstdint>

#include "core/types.h"

namespace tg::features {

// The rank of a row held in host memory only.
inline constexpr uint32_t kHostRank = 0xFFFFFFFFu;

// At most this many peer GPUs: CUDA maps a device's memory into at most 8
// peers on PCIe machines; NVSwitch systems go further, 16 covers a 16-GPU
// node, and the pointers travel in the kernel's parameters.
inline constexpr uint32_t kMaxPeers = 16;

enum class Tier : uint8_t { kGpu, kPeer, kHost };

struct TierBounds {
  uint64_t gpu_rows = 0;     // ranks below this: this GPU
  uint64_t device_rows = 0;  // ranks below this (and not below gpu_rows): the peers
  uint32_t num_peers = 0;    // 0 leaves device_rows == gpu_rows
};

struct TierPlace {
  Tier tier = Tier::kHost;
  uint32_t peer = 0;  // which peer (an index into the store's peer list), kPeer only
  uint64_t slot = 0;  // row within its GPU's tier memory; kHost: none
};

// Device ranks are below 2^32 - 1, so 32-bit arithmetic suffices for the
// division (cheaper than 64-bit on a GPU, where it runs once per row).
TG_HD TierPlace place_of_rank(uint64_t rank, const TierBounds& b) {
  if (rank < b.gpu_rows) return {Tier::kGpu, 0, rank};
  if (rank < b.device_rows) {
    const auto r = static_cast<uint32_t>(rank - b.gpu_rows);
    return {Tier::kPeer, r % b.num_peers, r / b.num_peers};
  }
  return {Tier::kHost, 0, 0};
}

}  // namespace tg::features
