#include "formats/checksum.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace tg::formats {
namespace {

constexpr uint64_t kP1 = 11400714785074694791ULL;
constexpr uint64_t kP2 = 14029467366897019727ULL;
constexpr uint64_t kP3 = 1609587929392839161ULL;
constexpr uint64_t kP4 = 9650029242287828579ULL;
constexpr uint64_t kP5 = 2870177450012600261ULL;

inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
inline uint64_t load64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);  // little-endian hosts only (checked in binary_format.cc)
  return v;
}
inline uint32_t load32(const unsigned char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t round_step(uint64_t acc, uint64_t input) {
  acc += input * kP2;
  acc = rotl(acc, 31);
  return acc * kP1;
}
inline uint64_t merge_round(uint64_t acc, uint64_t value) {
  acc ^= round_step(0, value);
  return acc * kP1 + kP4;
}

}  // namespace

uint64_t xxh64(const void* data, size_t bytes, uint64_t seed) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  const unsigned char* end = bytes > 0 ? p + bytes : p;
  uint64_t h;
  if (bytes >= 32) {
    uint64_t v1 = seed + kP1 + kP2, v2 = seed + kP2, v3 = seed, v4 = seed - kP1;
    const unsigned char* limit = end - 32;
    do {
      v1 = round_step(v1, load64(p));
      v2 = round_step(v2, load64(p + 8));
      v3 = round_step(v3, load64(p + 16));
      v4 = round_step(v4, load64(p + 24));
      p += 32;
    } while (p <= limit);
    h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
    h = merge_round(h, v1);
    h = merge_round(h, v2);
    h = merge_round(h, v3);
    h = merge_round(h, v4);
  } else {
    h = seed + kP5;
  }
  h += static_cast<uint64_t>(bytes);
  // Lengths, not pointers, are compared: data may be null when bytes is 0.
  size_t left = static_cast<size_t>(end - p);
  for (; left >= 8; left -= 8, p += 8) {
    h ^= round_step(0, load64(p));
    h = rotl(h, 27) * kP1 + kP4;
  }
  if (left >= 4) {
    h ^= static_cast<uint64_t>(load32(p)) * kP1;
    h = rotl(h, 23) * kP2 + kP3;
    p += 4;
    left -= 4;
  }
  for (; left > 0; --left, ++p) {
    h ^= static_cast<uint64_t>(*p) * kP5;
    h = rotl(h, 11) * kP1;
  }
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  h ^= h >> 32;
  return h;
}

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
  return xxh64(hashes.data(), hashes.size() * sizeof(uint64_t), bytes);
}

}  // namespace tg::formats
