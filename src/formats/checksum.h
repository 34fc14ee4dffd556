// XXH64 (Yann Collet's xxHash, 64-bit variant, from Debian's libxxhash) and
// the block-parallel section checksum of the .tgb format. Wrapped so that
// xxhash.h, and the choice of library, stay in checksum.cc.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tg::formats {

// XXH64 of data[0..bytes) with the given seed (data may be null when bytes is
// 0). tests/formats/checksum_test.cc pins it, and section_checksum, to the
// values existing .tgb files carry.
uint64_t xxh64(const void* data, size_t bytes, uint64_t seed = 0);

// Size of the blocks hashed independently (and in parallel) by section_checksum.
constexpr size_t kChecksumBlockBytes = size_t{1} << 20;

// Checksum of one array of the .tgb format: the array is cut into 1 MiB
// blocks, block i hashes to xxh64(block, seed 0), and the checksum is the
// xxh64 of those block hashes (little-endian uint64) with seed = bytes. The
// blocks are hashed in parallel (OpenMP), which keeps verification far above
// the speed of a disk.
uint64_t section_checksum(const void* data, size_t bytes);

}  // namespace tg::formats
