// Reading and writing .tgb files (layout in binary_format.h). Reading reads
// (or maps) the file and verifies it in one parallel pass over 1 MiB blocks:
// each block is read, hashed and, while it is in cache, its offsets are checked to be monotone,
// its neighbor ids to be below |V| and its weights not to be NaN.
#include "formats/binary_format.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"
#include "formats/checksum.h"
#include "formats/input_file.h"
#include "formats/output_file.h"
#include "formats/progress.h"
#include "formats/readers.h"
#include "graph/huge_pages.h"

namespace tg {

static_assert(std::endian::native == std::endian::little, "the .tgb format is little-endian");

namespace formats {

const char* tgb_section_name(int section) {
  static const char* const kNames[kTgbSections] = {"out_offsets",  "out_neighbors", "out_weights",
                                                   "in_offsets",   "in_neighbors",  "in_weights"};
  return section >= 0 && section < kTgbSections ? kNames[section] : "?";
}

}  // namespace formats

namespace {

using formats::kTgbAlign;
using formats::TgbHeader;
using formats::tgb_section_name;

uint64_t align_up(uint64_t x) { return (x + kTgbAlign - 1) / kTgbAlign * kTgbAlign; }

uint64_t header_checksum(const char* header, size_t header_bytes) {
  std::vector<char> copy(header, header + header_bytes);
  std::memset(copy.data() + offsetof(TgbHeader, header_checksum), 0, sizeof(uint64_t));
  return formats::xxh64(copy.data(), copy.size(), 0);
}

// The bytes each section must have, from the header's sizes and flags.
void expected_section_bytes(uint64_t n, uint64_t m, uint32_t id_bytes, bool weighted, bool in_edges,
                            unsigned __int128 out[formats::kTgbSections]) {
  using U = unsigned __int128;
  out[formats::kOutOffsets] = (U(n) + 1) * 8;
  out[formats::kOutNeighbors] = U(m) * id_bytes;
  out[formats::kOutWeights] = weighted ? U(m) * 4 : 0;
  out[formats::kInOffsets] = in_edges ? (U(n) + 1) * 8 : 0;
  out[formats::kInNeighbors] = in_edges ? U(m) * id_bytes : 0;
  out[formats::kInWeights] = in_edges && weighted ? U(m) * 4 : 0;
}

// First failure found by the parallel verification, by section then element.
struct Failure {
  std::atomic<uint64_t> key{UINT64_MAX};  // section * 2^58 + element index
  void record(int section, uint64_t index) {
    uint64_t k = (static_cast<uint64_t>(section) << 58) | std::min<uint64_t>(index, (uint64_t{1} << 58) - 1);
    uint64_t cur = key.load(std::memory_order_relaxed);
    while (k < cur && !key.compare_exchange_weak(cur, k, std::memory_order_relaxed)) {
    }
  }
};

template <typename V>
void check_neighbors(const V* ids, uint64_t begin, uint64_t end, uint64_t n, int section, Failure& failure) {
  // Branch-free scan of the block; the (rare) failing index is found after.
  V bad = 0;
  for (uint64_t i = begin; i < end; ++i) bad |= static_cast<V>(ids[i] >= n);
  if (!bad) return;
  for (uint64_t i = begin; i < end; ++i) {
    if (ids[i] >= n) {
      failure.record(section, i);
      return;
    }
  }
}

// NaN is the one float the text readers refuse and no algorithm can use;
// +-inf pass, as in text.
void check_weights(const weight_t* w, uint64_t begin, uint64_t end, int section, Failure& failure) {
  bool bad = false;
  for (uint64_t i = begin; i < end; ++i) bad |= std::isnan(w[i]);
  if (!bad) return;
  for (uint64_t i = begin; i < end; ++i) {
    if (std::isnan(w[i])) {
      failure.record(section, i);
      return;
    }
  }
}

// Within [begin, end) only: the comparison of a block's first offset with the
// previous block's last is made after the pass (check_block_seams), since a
// block read from the file cannot look at its neighbour before that has arrived.
void check_offsets(const uint64_t* off, uint64_t begin, uint64_t end, int section, Failure& failure) {
  uint64_t bad = 0;
  uint64_t i = begin + 1;
  for (uint64_t j = i; j < end; ++j) bad |= static_cast<uint64_t>(off[j] < off[j - 1]);
  if (!bad) return;
  for (uint64_t j = i; j < end; ++j) {
    if (off[j] < off[j - 1]) {
      failure.record(section, j);
      return;
    }
  }
}

// The offsets' comparisons across block boundaries, which check_offsets leaves out.
template <typename Span>
void check_block_seams(const Span& span, const formats::TgbSectionEntry* s, Failure& failure) {
  for (int sec : {formats::kOutOffsets, formats::kInOffsets}) {
    const uint64_t* off = reinterpret_cast<const uint64_t*>(span(sec));
    const uint64_t count = s[sec].bytes / 8, per_block = formats::kChecksumBlockBytes / 8;
    for (uint64_t j = per_block; j < count; j += per_block)
      if (off[j] < off[j - 1]) failure.record(sec, j);
  }
}

// The graph over the file's bytes at `base`: a mapping of the file, or, with
// `fd` >= 0, memory of the file's size that each block is read into (by pread,
// in the same parallel pass that checks it, so the bytes are hashed while in
// cache).
template <typename V>
Graph<V> graph_from_bytes(const std::string& path, const TgbHeader& h, const std::string& name, char* base,
                          const std::shared_ptr<void>& owner, int fd) {
  const uint64_t n = h.num_vertices, m = h.num_edges;
  const auto& s = h.sections;
  auto span = [&](int section) { return base + s[section].offset; };

  // One pass over all sections, block by block: hash, and check the contents.
  struct Block {
    int section;
    uint64_t begin;  // byte offset within the section
  };
  std::vector<Block> blocks;
  std::vector<size_t> first_block(formats::kTgbSections + 1, 0);
  for (int sec = 0; sec < formats::kTgbSections; ++sec) {
    first_block[sec] = blocks.size();
    for (uint64_t b = 0; b < s[sec].bytes; b += formats::kChecksumBlockBytes) blocks.push_back({sec, b});
  }
  first_block[formats::kTgbSections] = blocks.size();
  std::vector<uint64_t> hashes(blocks.size());
  Failure failure;
  std::atomic<int> read_errno{0};
#pragma omp parallel for schedule(dynamic, 1)
  for (size_t i = 0; i < blocks.size(); ++i) {
    const int sec = blocks[i].section;
    const uint64_t begin = blocks[i].begin;
    const uint64_t len = std::min<uint64_t>(formats::kChecksumBlockBytes, s[sec].bytes - begin);
    char* p = span(sec) + begin;
    if (fd >= 0) {
      const int e = formats::read_all(fd, p, len, s[sec].offset + begin);
      if (e != 0) {
        read_errno.store(e);
        continue;
      }
    }
    hashes[i] = formats::xxh64(p, len, 0);
    if (sec == formats::kOutOffsets || sec == formats::kInOffsets) {
      check_offsets(reinterpret_cast<const uint64_t*>(span(sec)), begin / 8, (begin + len) / 8, sec, failure);
    } else if (sec == formats::kOutNeighbors || sec == formats::kInNeighbors) {
      check_neighbors(reinterpret_cast<const V*>(span(sec)), begin / sizeof(V), (begin + len) / sizeof(V), n, sec,
                      failure);
    } else if (sec == formats::kOutWeights || sec == formats::kInWeights) {
      check_weights(reinterpret_cast<const weight_t*>(span(sec)), begin / sizeof(weight_t),
                    (begin + len) / sizeof(weight_t), sec, failure);
    }
  }
  if (const int e = read_errno.load(); e != 0) throw input_error(path, formats::read_failure(e));
  check_block_seams(span, s, failure);
  for (int sec = 0; sec < formats::kTgbSections; ++sec) {
    const uint64_t* hb = hashes.data() + first_block[sec];
    size_t count = first_block[sec + 1] - first_block[sec];
    uint64_t sum = formats::xxh64(hb, count * sizeof(uint64_t), s[sec].bytes);
    if (sum != s[sec].checksum)
      throw input_error(path, std::string("checksum mismatch in section ") + tgb_section_name(sec) + " (corrupt file)");
  }
  for (int sec : {formats::kOutOffsets, formats::kInOffsets}) {
    if (s[sec].bytes == 0) continue;
    const uint64_t* off = reinterpret_cast<const uint64_t*>(span(sec));
    if (off[0] != 0) throw input_error(path, std::string(tgb_section_name(sec)) + "[0] is " + std::to_string(off[0]) + ", expected 0");
    if (off[n] != m)
      throw input_error(path, std::string(tgb_section_name(sec)) + "[" + std::to_string(n) + "] is " + std::to_string(off[n]) +
                                  ", expected the number of edges " + std::to_string(m));
  }
  uint64_t key = failure.key.load();
  if (key != UINT64_MAX) {
    int sec = static_cast<int>(key >> 58);
    uint64_t index = key & ((uint64_t{1} << 58) - 1);
    if (sec == formats::kOutOffsets || sec == formats::kInOffsets) {
      const uint64_t* off = reinterpret_cast<const uint64_t*>(span(sec));
      throw input_error(path, std::string(tgb_section_name(sec)) + " decrease at vertex " + std::to_string(index - 1) + " (" +
                                  std::to_string(off[index - 1]) + " then " + std::to_string(off[index]) + ")");
    }
    if (sec == formats::kOutWeights || sec == formats::kInWeights)
      throw input_error(path, std::string(tgb_section_name(sec)) + "[" + std::to_string(index) +
                                  "] is NaN (edge weights must be numbers)");
    const V* ids = reinterpret_cast<const V*>(span(sec));
    throw input_error(path, std::string(tgb_section_name(sec)) + "[" + std::to_string(index) + "] = " +
                                std::to_string(ids[index]) + " is not below the number of vertices " + std::to_string(n));
  }

  Graph<V> g;
  g.num_vertices = n;
  g.directed = (h.flags & formats::kTgbDirected) != 0;
  g.id_base = h.id_base;
  g.name = name;
  auto fill = [&](Csr<V>& csr, int off, int nbr, int w) {
    csr.offsets = Array<eid_t>::view(reinterpret_cast<eid_t*>(span(off)), n + 1, owner);
    if (m > 0) csr.neighbors = Array<V>::view(reinterpret_cast<V*>(span(nbr)), m, owner);
    if (s[w].bytes > 0) csr.weights = Array<weight_t>::view(reinterpret_cast<weight_t*>(span(w)), m, owner);
  };
  fill(g.out, formats::kOutOffsets, formats::kOutNeighbors, formats::kOutWeights);
  if (h.flags & formats::kTgbInEdges) fill(g.in, formats::kInOffsets, formats::kInNeighbors, formats::kInWeights);
  return g;
}

}  // namespace

AnyGraph read_binary_graph(const std::string& path, TgbLoad how) {
  uint64_t size = 0;
  const int fd = formats::open_input_file(path, &size);
  const formats::ScopedFd closer(fd);

  if (size == 0) throw input_error(path, "empty file");
  char magic[8] = {};
  size_t head = static_cast<size_t>(std::min<uint64_t>(size, 8));
  formats::read_exact(fd, path, magic, head, 0);
  if (std::memcmp(magic, formats::kTgbMagic, head) != 0)
    throw input_error(path, "not a tiergraph binary graph (bad magic)");
  if (size < sizeof(TgbHeader))
    throw input_error(path, "truncated: the header needs 256 bytes, the file has " + std::to_string(size));

  TgbHeader h;
  formats::read_exact(fd, path, &h, sizeof h, 0);
  if (h.version != formats::kTgbVersion)
    throw input_error(path, "unsupported .tgb version " + std::to_string(h.version) + " (this build reads version " +
                                std::to_string(formats::kTgbVersion) + "; convert the graph again)");
  if (h.name_bytes > formats::kTgbMaxNameBytes || h.header_bytes != sizeof(TgbHeader) + h.name_bytes)
    throw input_error(path, "corrupt header (header_bytes " + std::to_string(h.header_bytes) + ", name_bytes " +
                                std::to_string(h.name_bytes) + ")");
  if (h.header_bytes > size)
    throw input_error(path, "truncated: the header needs " + std::to_string(h.header_bytes) + " bytes, the file has " +
                                std::to_string(size));
  std::vector<char> header(h.header_bytes);
  formats::read_exact(fd, path, header.data(), header.size(), 0);
  if (header_checksum(header.data(), header.size()) != h.header_checksum)
    throw input_error(path, "header checksum mismatch (corrupt file)");
  if (h.file_bytes > size)
    throw input_error(path, "truncated: the header says " + std::to_string(h.file_bytes) + " bytes, the file has " +
                                std::to_string(size));
  if (h.file_bytes < size)
    throw input_error(path, "the file has " + std::to_string(size) + " bytes, the header says " +
                                std::to_string(h.file_bytes) + " (trailing data)");
  if ((h.flags & ~formats::kTgbKnownFlags) != 0) throw input_error(path, "unknown flags " + std::to_string(h.flags));
  const bool directed = h.flags & formats::kTgbDirected;
  const bool weighted = h.flags & formats::kTgbWeighted;
  const bool in_edges = h.flags & formats::kTgbInEdges;
  if (in_edges && !directed) throw input_error(path, "corrupt header (in-edges stored for an undirected graph)");
  if (h.id_bytes != 4 && h.id_bytes != 8)
    throw input_error(path, "vertex ids are " + std::to_string(h.id_bytes) + " bytes wide, expected 4 or 8");
  if (h.num_vertices >= (uint64_t{1} << 63)) throw input_error(path, "corrupt header (num_vertices " + std::to_string(h.num_vertices) + ")");
  if (h.id_bytes == 4 && h.num_vertices > (uint64_t{1} << 32))
    throw input_error(path, "corrupt header (" + std::to_string(h.num_vertices) + " vertices with 4-byte ids)");
  unsigned __int128 expected[formats::kTgbSections];
  expected_section_bytes(h.num_vertices, h.num_edges, h.id_bytes, weighted, in_edges, expected);
  uint64_t previous_end = align_up(h.header_bytes);
  for (int sec = 0; sec < formats::kTgbSections; ++sec) {
    const auto& e = h.sections[sec];
    if (expected[sec] > size)
      throw input_error(path, std::string("truncated: section ") + tgb_section_name(sec) + " needs more bytes than the file has (" +
                                  std::to_string(size) + ")");
    if (e.bytes != static_cast<uint64_t>(expected[sec]))
      throw input_error(path, std::string("corrupt header: section ") + tgb_section_name(sec) + " has " + std::to_string(e.bytes) +
                                  " bytes, expected " + std::to_string(static_cast<uint64_t>(expected[sec])));
    // Even an empty section's offset lies within the file: the reader forms its address (the writer puts it
    // where the next section would start; a fuzzed 2^64 - 7 overflowed the pointer).
    if (e.bytes == 0 && e.offset > size)
      throw input_error(path, std::string("corrupt header: empty section ") + tgb_section_name(sec) + " at " +
                                  std::to_string(e.offset) + ", beyond the end of the file");
    if (e.bytes == 0) continue;
    if (e.offset % kTgbAlign != 0 || e.offset < previous_end || e.offset > size || e.bytes > size - e.offset)
      throw input_error(path, std::string("corrupt header: section ") + tgb_section_name(sec) + " at " + std::to_string(e.offset) +
                                  " (+" + std::to_string(e.bytes) + " bytes) is misplaced or beyond the end of the file");
    previous_end = e.offset + e.bytes;
  }

  std::shared_ptr<void> owner;
  char* bytes = nullptr;
  if (how == TgbLoad::kMap) {
    void* base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    if (base == MAP_FAILED) throw input_error(path, std::string("cannot map the file (") + std::strerror(errno) + ")");
    ::madvise(base, size, MADV_WILLNEED);
    // Copy-on-write private mapping: consumers may write to the arrays (pinning,
    // in-place sorts) without touching the file. Unmapped with the last array.
    owner = std::shared_ptr<void>(base, [size](void* p) { ::munmap(p, size); });
    bytes = static_cast<char*>(base);
  } else {
    // 2 MiB-aligned, so that every section past the first 2 MiB lies on huge pages.
    constexpr size_t kHuge = size_t{1} << 21;
    const size_t reserved = size + kHuge;
    void* base = ::mmap(nullptr, reserved, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
      throw input_error(path, "cannot allocate " + std::to_string(size) + " bytes for the graph (" + std::strerror(errno) + ")");
    owner = std::shared_ptr<void>(base, [reserved](void* p) { ::munmap(p, reserved); });
    bytes = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(base) + kHuge - 1) / kHuge * kHuge);
    advise_huge_pages(bytes, size);
    formats::read_exact(fd, path, bytes, h.header_bytes, 0);
  }
  std::string name(bytes + sizeof(TgbHeader), h.name_bytes);
  const int read_fd = how == TgbLoad::kMap ? -1 : fd;
  if (h.id_bytes == 4) return graph_from_bytes<vid32_t>(path, h, name, bytes, owner, read_fd);
  return graph_from_bytes<vid64_t>(path, h, name, bytes, owner, read_fd);
}

namespace {

template <typename V>
void write_graph(const Graph<V>& g, const std::string& path, bool progress) {
  const uint64_t n = g.num_vertices;
  const uint64_t m = g.num_edges();
  auto fail = [&](const std::string& why) { return Error("cannot write " + path + ": " + why); };
  uint64_t zero = 0;
  // An unbuilt CSR of an empty graph is written as the one offset 0.
  auto offsets = [&](const Csr<V>& c) -> const eid_t* { return c.offsets.empty() && n == 0 ? &zero : c.offsets.data(); };
  auto check = [&](const Csr<V>& c, const char* which) {
    if (!(c.offsets.size() == n + 1 || (c.offsets.empty() && n == 0)))
      throw fail(std::string(which) + " offsets have " + std::to_string(c.offsets.size()) + " entries for " + std::to_string(n) + " vertices");
    uint64_t edges = c.offsets.empty() ? 0 : c.offsets[n];
    if (edges != m || c.neighbors.size() != m)
      throw fail(std::string(which) + " edges do not match: " + std::to_string(edges) + " / " + std::to_string(c.neighbors.size()) +
                 ", expected " + std::to_string(m));
    if (!c.weights.empty() && c.weights.size() != m) throw fail(std::string(which) + " weights have the wrong length");
  };
  check(g.out, "out-edge");
  const bool weighted = g.weighted();
  const bool in_edges = g.directed && g.in.built();
  if (in_edges) {
    check(g.in, "in-edge");
    if (g.in.weights.empty() != g.out.weights.empty()) throw fail("in-edge weights missing or extra");
  }

  TgbHeader h;
  std::memset(&h, 0, sizeof h);
  std::memcpy(h.magic, formats::kTgbMagic, sizeof h.magic);
  h.version = formats::kTgbVersion;
  std::string name = g.name.substr(0, formats::kTgbMaxNameBytes);
  h.name_bytes = static_cast<uint32_t>(name.size());
  h.header_bytes = static_cast<uint32_t>(sizeof(TgbHeader) + name.size());
  h.flags = (g.directed ? formats::kTgbDirected : 0) | (weighted ? formats::kTgbWeighted : 0) |
            (in_edges ? formats::kTgbInEdges : 0);
  h.id_bytes = sizeof(V);
  h.num_vertices = n;
  h.num_edges = m;
  h.id_base = g.id_base;

  const void* data[formats::kTgbSections] = {offsets(g.out), g.out.neighbors.data(), g.out.weights.data(),
                                             in_edges ? offsets(g.in) : nullptr, in_edges ? g.in.neighbors.data() : nullptr,
                                             in_edges ? g.in.weights.data() : nullptr};
  unsigned __int128 expected[formats::kTgbSections];
  expected_section_bytes(n, m, sizeof(V), weighted, in_edges, expected);
  uint64_t pos = align_up(h.header_bytes);
  uint64_t end = pos;
  for (int sec = 0; sec < formats::kTgbSections; ++sec) {
    auto& e = h.sections[sec];
    e.bytes = static_cast<uint64_t>(expected[sec]);
    if (e.bytes == 0) continue;
    e.offset = pos;
    e.checksum = formats::section_checksum(data[sec], e.bytes);
    end = pos + e.bytes;
    pos = align_up(end);
  }
  for (int sec = 0; sec < formats::kTgbSections; ++sec)
    if (h.sections[sec].bytes == 0) h.sections[sec].checksum = formats::section_checksum(nullptr, 0);
  h.file_bytes = end;
  std::vector<char> header(h.header_bytes);
  std::memcpy(header.data(), &h, sizeof h);
  std::memcpy(header.data() + sizeof h, name.data(), name.size());
  h.header_checksum = header_checksum(header.data(), header.size());
  std::memcpy(header.data() + offsetof(TgbHeader, header_checksum), &h.header_checksum, sizeof(uint64_t));

  // Written beside the target and renamed into place (formats/output_file.h).
  formats::OutputFile file(path, h.file_bytes, progress);
  file.put(header.data(), header.size(), 0);
  for (int sec = 0; sec < formats::kTgbSections; ++sec)
    if (h.sections[sec].bytes > 0) file.put(data[sec], h.sections[sec].bytes, h.sections[sec].offset);
  file.commit(h.file_bytes);
}

}  // namespace

void write_binary_graph(const AnyGraph& graph, const std::string& path, bool progress) {
  std::visit([&](const auto& g) { write_graph(g, path, progress); }, graph);
}

}  // namespace tg
