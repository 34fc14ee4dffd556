#include <cuda_runtime.h>

#include <string>

#include "core/error.h"
#include "engines/gpu/cuda_util.h"
#include "engines/gpu/device_scope.h"
#include "features/peer_devices.h"

namespace tg::features {
namespace {

int visible_devices() {
  int count = 0;
  TG_CUDA(cudaGetDeviceCount(&count));
  return count;
}

bool can_read(int device, int peer) {
  int yes = 0;
  TG_CUDA(cudaDeviceCanAccessPeer(&yes, device, peer));
  return yes != 0;
}

}  // namespace

PeerChoice choose_peers(int device, const std::optional<std::vector<int>>& requested) {
  gpu::check_device_exists(device);
  PeerChoice choice;
  if (requested) {
    check_peer_list(device, *requested);
    for (int peer : *requested) {
      gpu::check_device_exists(peer, "peers: ");
      if (!can_read(device, peer))
        throw usage_error("peers: device " + std::to_string(peer) + " cannot be read by device " +
                          std::to_string(device) + " (cudaDeviceCanAccessPeer: no NVLink or PCIe peer path)");
    }
    choice.peers = *requested;
    if (choice.peers.empty()) choice.why_none = "peers=[] given";
    return choice;
  }
  const int count = visible_devices();
  for (int peer = 0; peer < count; ++peer)
    if (peer != device && can_read(device, peer)) choice.peers.push_back(peer);
  if (choice.peers.empty())
    choice.why_none = count == 1 ? "no other GPU is visible"
                                 : "no other visible GPU can be read by device " + std::to_string(device);
  return choice;
}

void enable_peer_access(int device, std::span<const int> peers) {
  gpu::DeviceScope scope(device);
  for (int peer : peers) {
    const cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) {
      cudaGetLastError();  // enabled before, by us or another library: what we need
      continue;
    }
    TG_CUDA(e);
  }
}

}  // namespace tg::features
