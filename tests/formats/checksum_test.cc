// XXH64 and the .tgb section checksum: the library's XXH64 against the
// published test vectors, and section_checksum against values written down
// before the library replaced tiergraph's own XXH64, so that a change in the
// hash (and with it every existing .tgb file) cannot pass unnoticed.
#include <gtest/gtest.h>

#include <vector>

#include "formats/checksum.h"

namespace tg {
namespace {

TEST(Checksum, Xxh64TestVectors) {
  // Values of the reference implementation (libxxhash 0.8.1).
  EXPECT_EQ(formats::xxh64("", 0, 0), 0xEF46DB3751D8E999ull);
  EXPECT_EQ(formats::xxh64(nullptr, 0, 0), 0xEF46DB3751D8E999ull);
  EXPECT_EQ(formats::xxh64("a", 1, 0), 0xD24EC4F1A98C6E5Bull);
  EXPECT_EQ(formats::xxh64("abc", 3, 0), 0x44BC2CF5AD770999ull);
}

// xxHash's own sanity check (cli/xsum_sanity_check.c in its repository): a
// buffer of the top bytes of successive powers, hashed at lengths that reach
// every branch of XXH64 (empty, tail bytes, 4-byte tail, 32-byte stripes).
TEST(Checksum, Xxh64PublishedSanityVectors) {
  constexpr uint64_t kPrime32 = 2654435761ull;
  std::vector<unsigned char> buffer(222);
  uint64_t gen = kPrime32;
  for (unsigned char& b : buffer) {
    b = static_cast<unsigned char>(gen >> 56);
    gen *= 11400714785074694797ull;
  }
  struct Vector {
    size_t bytes;
    uint64_t seed;
    uint64_t hash;
  };
  for (Vector v : {Vector{0, 0, 0xEF46DB3751D8E999ull}, Vector{0, kPrime32, 0xAC75FDA2929B17EFull},
                   Vector{1, 0, 0xE934A84ADB052768ull}, Vector{1, kPrime32, 0x5014607643A9B4C3ull},
                   Vector{4, 0, 0x9136A0DCA57457EEull}, Vector{14, 0, 0x8282DCC4994E35C8ull},
                   Vector{14, kPrime32, 0xC3BD6BF63DEB6DF0ull}, Vector{222, 0, 0xB641AE8CB691C174ull},
                   Vector{222, kPrime32, 0x20CB8AB7AE10C14Aull}})
    EXPECT_EQ(formats::xxh64(buffer.data(), v.bytes, v.seed), v.hash) << v.bytes << " bytes, seed " << v.seed;
}

// The values below were computed by tiergraph's pre-library XXH64 (the
// hand-written one checksum.cc held until libxxhash replaced it). They are the
// checksums existing .tgb files carry: if one changes, those files stop
// loading, so the format version must change with it.
TEST(Checksum, SectionChecksumMatchesThePreLibraryImplementation) {
  std::vector<unsigned char> data(5 * formats::kChecksumBlockBytes + 123);
  uint64_t x = 1;
  for (unsigned char& b : data) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    b = static_cast<unsigned char>(x >> 56);
  }
  EXPECT_EQ(formats::section_checksum(nullptr, 0), 0xEF46DB3751D8E999ull);
  EXPECT_EQ(formats::section_checksum(data.data(), 1), 0x86B1DAAA9FB8FCE7ull);
  EXPECT_EQ(formats::section_checksum(data.data(), 100), 0x0B05A87644191EE1ull);
  EXPECT_EQ(formats::section_checksum(data.data(), formats::kChecksumBlockBytes), 0x648AB4C4B0B11F0Eull);
  EXPECT_EQ(formats::section_checksum(data.data(), 3 * formats::kChecksumBlockBytes + 123), 0x06E07B9CE5CB67F4ull);
  // More than four blocks: the blocks are hashed in parallel.
  EXPECT_EQ(formats::section_checksum(data.data(), data.size()), 0x52EAAD3BCE6B51A6ull);
  // A seed other than 0 (section_checksum seeds its final hash with the size)
  // over stripes and every kind of tail: 2367 = 73 * 32 + 3 * 8 + 4 + 3.
  EXPECT_EQ(formats::xxh64(data.data(), 2367, 2654435761ull), 0x5ADDDC3DB6F92ACFull);
}

TEST(Checksum, SectionChecksumDependsOnEveryByte) {
  std::vector<char> data(3 * formats::kChecksumBlockBytes + 123, 'x');
  uint64_t base = formats::section_checksum(data.data(), data.size());
  EXPECT_EQ(base, formats::section_checksum(data.data(), data.size()));
  data[2 * formats::kChecksumBlockBytes + 5] = 'y';
  EXPECT_NE(base, formats::section_checksum(data.data(), data.size()));
  EXPECT_NE(formats::section_checksum(data.data(), 10), formats::section_checksum(data.data(), 11));
}

}  // namespace
}  // namespace tg
