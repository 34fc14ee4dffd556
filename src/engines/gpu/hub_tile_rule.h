// Which in-lists a dense gather in GPU memory reads tile by tile, and how
// wide a tile is (hub_tiles.h), apart from the CUDA code, so that host code
// and tests can ask without the CUDA headers.
#pragma once

#include <cstdint>

#include "core/types.h"

namespace tg::gpu {

// `above` 0 is no tiles.
struct HubTileShape {
  eid_t above = 0;
  uint64_t tile_bytes = 0;  // a tile's values, in shared memory
};

// The default: lists over 4096 entries in tiles of 128 KiB where the ids run
// hubs first (graph/relabel.h's numbered_by_degree), none elsewhere. `env`
// (TG_HUB_TILES, for experiments and tests): "off", or "ABOVE:TILE_BYTES";
// anything else is an error.
HubTileShape hub_tile_shape(bool numbered_by_degree, const char* env);

}  // namespace tg::gpu
