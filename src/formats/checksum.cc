#include "formats/checksum.h"

#include <xxhash.h>

#include <algorithm>
#include <vector>

namespace tg::formats {

uint64_t xxh64(const void* data, size_t bytes, uint64_t seed) { return XXH64(data, bytes, seed); }

uint64_t section_checksum(const void* data, size_t bytes) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  size_t blocks = (bytes + kChecksumBlockBytes - 1) / kChecksumBlockBytes;
  std::vector<uint64_t> hashes(blocks);
#pragma omp parallel for schedule(dynamic, 4) if (blocks > 4)
  for (size_t b = 0; b < blocks; ++b) {
    size_t begin = b * kChecksumBlockBytes;
    size_t len = std::min(kChecksumBlockBytes, bytes - begin);
    hashes[b] = xxh64(p + begin, len, 0);
  }
  // The block hashes are hashed as they lie in memory: little-endian, which
  // binary_format.cc requires of the host.
  return xxh64(hashes.data(), hashes.size() * sizeof(uint64_t), bytes);
}

}  // namespace tg::formats
