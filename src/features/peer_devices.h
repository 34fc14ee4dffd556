// Which GPUs hold a feature store's peer tier (issue 11; the dissertation's
// Section 4.3.2): GPUs whose memory the store's own GPU reads directly, by
// load instructions over NVLink (or PCIe), once peer access is enabled. Plain
// C++: the checks that need no GPU here, the rest in features/gpu/
// peer_devices.cu with CUDA and features/gpu_unavailable.cpp without.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tg::features {

// Usage errors naming `peers` for a list no machine could honour: a
// negative device, one listed twice, the store's own device, more than
// kMaxPeers (features/tier_place.h).
void check_peer_list(int device, std::span<const int> peers);

struct PeerChoice {
  std::vector<int> peers;
  std::string why_none;  // where peers is empty: why (for the store's description)
};

// The peers of a store on `device`: `requested` where given (checked: each
// exists and `device` can read it, cudaDeviceCanAccessPeer; else a usage
// error naming `peers` and the device), else every other visible GPU that
// `device` can read, in id order (none: an empty choice, not an error).
// `device` must exist. Without CUDA: the requested list as given, or none.
PeerChoice choose_peers(int device, const std::optional<std::vector<int>>& requested);

// Lets kernels on `device` read the peers' memory. Access once enabled stays
// for the process (other users of those GPUs, NCCL or torch, may rely on
// it), so a second store, or peers enabled by someone else, is no error.
void enable_peer_access(int device, std::span<const int> peers);

}  // namespace tg::features
