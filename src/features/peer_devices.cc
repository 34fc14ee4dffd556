#include "features/peer_devices.h"

#include <algorithm>
#include <string>

#include "core/error.h"
#include "features/tier_place.h"

namespace tg::features {

void check_peer_list(int device, std::span<const int> peers) {
  if (peers.size() > kMaxPeers)
    throw usage_error("peers: " + std::to_string(peers.size()) + " devices, at most " + std::to_string(kMaxPeers));
  for (size_t i = 0; i < peers.size(); ++i) {
    const std::string name = "peers: device " + std::to_string(peers[i]);
    if (peers[i] < 0) throw usage_error(name + " is negative");
    if (peers[i] == device) throw usage_error(name + " is the store's own device (its rows are the GPU tier)");
    if (std::find(peers.begin(), peers.begin() + static_cast<int64_t>(i), peers[i]) != peers.begin() + i)
      throw usage_error(name + " is listed twice");
  }
}

}  // namespace tg::features
