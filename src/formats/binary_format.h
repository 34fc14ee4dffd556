// The layout of tiergraph's binary graph file (.tgb); docs/FORMATS.md
// describes it for readers in other languages. Little-endian throughout.
//
//   [0, 256)            TgbHeader
//   [256, header_bytes) the graph's name (name_bytes bytes, no terminator)
//   sections            each at a multiple of 4096 bytes, in the order of
//                       TgbSection, absent ones with bytes == 0
//
// Every array starts on a page boundary, so that the reader can map the file
// and hand out the arrays in place (Array::view), without copying.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tg::formats {

inline constexpr char kTgbMagic[8] = {'T', 'I', 'E', 'R', 'G', 'R', 'F', '\0'};
inline constexpr uint32_t kTgbVersion = 1;
inline constexpr uint64_t kTgbAlign = 4096;
inline constexpr uint32_t kTgbMaxNameBytes = 65536;

// Bits of TgbHeader::flags.
inline constexpr uint32_t kTgbDirected = 1u << 0;
inline constexpr uint32_t kTgbWeighted = 1u << 1;
inline constexpr uint32_t kTgbInEdges = 1u << 2;  // the CSC of a directed graph is stored too
inline constexpr uint32_t kTgbKnownFlags = kTgbDirected | kTgbWeighted | kTgbInEdges;

// The arrays, in file order. Offsets are uint64 (num_vertices + 1 entries),
// neighbors are id_bytes wide (num_edges entries), weights float32.
enum TgbSection : int {
  kOutOffsets = 0,
  kOutNeighbors,
  kOutWeights,
  kInOffsets,
  kInNeighbors,
  kInWeights,
  kTgbSections
};
const char* tgb_section_name(int section);

struct TgbSectionEntry {
  uint64_t offset;    // from the start of the file; a multiple of 4096; 0 if absent
  uint64_t bytes;     // 0 if absent
  uint64_t checksum;  // section_checksum (checksum.h) of the bytes
};

struct TgbHeader {
  char magic[8];             // kTgbMagic
  uint32_t version;          // kTgbVersion
  uint32_t header_bytes;     // 256 + name_bytes
  uint32_t flags;            // kTgb* bits; others must be 0
  uint32_t id_bytes;         // 4 or 8: width of the neighbor ids
  uint64_t num_vertices;
  uint64_t num_edges;        // stored (directed) edges: out offsets[num_vertices]
  int32_t id_base;           // Graph::id_base (1 for graphs from .mtx / .gr)
  uint32_t name_bytes;
  uint64_t file_bytes;       // total size of the file
  TgbSectionEntry sections[kTgbSections];
  uint64_t header_checksum;  // xxh64 of the first header_bytes bytes, this field zeroed
  uint8_t reserved[48];      // zero
};
static_assert(sizeof(TgbHeader) == 256, "the .tgb header is 256 bytes");
static_assert(offsetof(TgbHeader, sections) == 56);
static_assert(offsetof(TgbHeader, header_checksum) == 200);

}  // namespace tg::formats
